import { beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import ContactsPage from "./pages/ContactsPage";
import { SEARCH_DEBOUNCE_MS } from "@/lib/useDebouncedValue";
import { typeWithoutPausing } from "@/test/typing";
import { setTokenGetter } from "@/lib/api";
import { ALICE, BOB, CAROL, contact, deferred, fakeServer, json, lastToast, renderPage, resetAll } from "./testUtils";

// The export reads the ID token from Firebase's Auth instance, as the API client does.

beforeEach(() => {
  resetAll();
  // The API client's bearer token, as the session sets it after a sign-in.
  setTokenGetter(async () => "id-token-1");
});

const hour = 3600 * 1000;
const sample = () => [
  contact(3, "Alice Treasury", ALICE, "Monthly payroll", new Date(Date.now() - 2 * hour).toISOString()),
  contact(2, "Bob", BOB, null, new Date(Date.now() - 5 * 60 * 1000).toISOString()),
];

const blobText = (blob: Blob) =>
  new Promise<string>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.readAsText(blob);
  });

async function openAddDialog(user: ReturnType<typeof renderPage>["user"]) {
  await user.click(screen.getByRole("button", { name: "Add Contact" }));
  return screen.findByRole("dialog", { name: "Add Contact" });
}

describe("Contacts page (GET /api/contacts)", () => {
  it("shows the title, the three actions and a spinner while the list loads", () => {
    fakeServer([], (call) => (call.method === "GET" ? new Promise<Response>(() => undefined) : undefined) as never);
    renderPage(<ContactsPage />);
    expect(screen.getByRole("heading", { level: 1, name: "Contacts" })).toBeInTheDocument();
    for (const name of ["Export", "Import", "Add Contact"]) expect(screen.getByRole("button", { name })).toBeInTheDocument();
    expect(screen.getByRole("status", { name: "Loading contacts" })).toBeInTheDocument();
  });

  it("lists each contact with Name, Address, Notes, Date Added and its actions", async () => {
    fakeServer(sample());
    renderPage(<ContactsPage />);
    const rows = await screen.findAllByRole("row");
    expect(
      within(rows[0])
        .getAllByRole("columnheader")
        .map((th) => th.textContent),
    ).toEqual(["Name", "Address", "Notes", "Date Added", "Actions"]);
    expect(rows[1]).toHaveTextContent("Alice Treasury");
    expect(rows[1]).toHaveTextContent("Monthly payroll");
    expect(rows[1]).toHaveTextContent("2 hours ago");
    expect(rows[2]).toHaveTextContent("Bob");
    expect(rows[2]).toHaveTextContent("5 minutes ago");
    expect(within(rows[2]).getByRole("button", { name: "Edit Bob" })).toBeInTheDocument();
    expect(within(rows[2]).getByRole("button", { name: "Delete Bob" })).toBeInTheDocument();
    expect(screen.getByText("2 contacts")).toBeInTheDocument();
  });

  it("copies an address when it is clicked ('Address copied')", async () => {
    fakeServer(sample());
    const { user } = renderPage(<ContactsPage />);
    await user.click(await screen.findByRole("button", { name: `Copy address ${BOB}` }));
    await waitFor(() => expect(lastToast()).toMatchObject({ title: "Address copied", description: BOB }));
    expect(await navigator.clipboard.readText()).toBe(BOB);
  });

  it("says 'No contacts found' and how to start when the address book is empty", async () => {
    fakeServer([]);
    renderPage(<ContactsPage />);
    expect(await screen.findByText("No contacts found")).toBeInTheDocument();
    expect(screen.getByText("Add contacts to manage your frequently used addresses")).toBeInTheDocument();
  });

  it("shows a failed load inline and Retry loads the list", async () => {
    let fail = true;
    const server = fakeServer(sample(), (call) =>
      fail && call.method === "GET" ? json({ success: false, error: "the database is not answering" }, 503) : undefined,
    );
    const { user } = renderPage(<ContactsPage />);
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Failed to load contacts");
    expect(alert).toHaveTextContent("503: the database is not answering");

    fail = false;
    await user.click(within(alert).getByRole("button", { name: "Retry" }));
    expect(await screen.findByText("Alice Treasury")).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(server.lists()).toHaveLength(2);
  });

  it("loads more contacts a page at a time", async () => {
    const many = Array.from({ length: 130 }, (_, i) => contact(200 - i, `Payee ${i + 1}`, `0x${(i + 1).toString(16).padStart(40, "0")}`));
    const server = fakeServer(many);
    const { user } = renderPage(<ContactsPage />);
    expect(await screen.findByText("Showing 100 of 130")).toBeInTheDocument();
    expect(screen.getAllByRole("row")).toHaveLength(101);
    await user.click(screen.getByRole("button", { name: "Load more" }));
    await waitFor(() => expect(screen.getAllByRole("row")).toHaveLength(131));
    expect(screen.queryByRole("button", { name: "Load more" })).not.toBeInTheDocument();
    expect(server.lists().map((c) => c.url)).toEqual(["/api/contacts?limit=100&offset=0", "/api/contacts?limit=100&offset=100"]);
  });
});

describe("Search", () => {
  it("asks the server once the typing pauses, with the text as typed (the server matches any case)", async () => {
    const server = fakeServer(sample());
    const { user } = renderPage(<ContactsPage />);
    await screen.findByText("Alice Treasury");
    const box = screen.getByRole("searchbox", { name: "Search contacts" });
    const from = await typeWithoutPausing(user, box, "PAYROLL", { pauseMs: SEARCH_DEBOUNCE_MS, sent: server.lists });
    await waitFor(() => expect(screen.queryByText("Bob")).not.toBeInTheDocument());
    expect(screen.getByText("Alice Treasury")).toBeInTheDocument();
    expect(screen.getByText("1 match")).toBeInTheDocument();
    expect(server.lists()[0].url).toBe("/api/contacts?limit=100&offset=0");
    // One request for the whole word: none for 'P', 'PA', ...
    expect(
      server
        .lists()
        .slice(from)
        .map((c) => c.url),
    ).toEqual(["/api/contacts?search=PAYROLL&limit=100&offset=0"]);
  });

  it("says 'No contacts found' with 'Try changing your search query' when nothing matches", async () => {
    fakeServer(sample());
    const { user } = renderPage(<ContactsPage />);
    await screen.findByText("Alice Treasury");
    await user.type(screen.getByRole("searchbox", { name: "Search contacts" }), "nobody");
    expect(await screen.findByText("No contacts found")).toBeInTheDocument();
    expect(screen.getByText("Try changing your search query")).toBeInTheDocument();
  });

  it("answers a search seen before from the cache", async () => {
    const server = fakeServer(sample());
    const { user } = renderPage(<ContactsPage />);
    await screen.findByText("Alice Treasury");
    const box = screen.getByRole("searchbox", { name: "Search contacts" });
    await user.type(box, "bob");
    await waitFor(() => expect(screen.queryByText("Alice Treasury")).not.toBeInTheDocument());
    await user.clear(box);
    expect(await screen.findByText("Alice Treasury")).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.lists()).toHaveLength(2);
  });
});

describe("Add Contact dialog (POST /api/contacts)", () => {
  it("asks for both name and address ('Missing information'), in a toast and under the field", async () => {
    const server = fakeServer([]);
    const { user } = renderPage(<ContactsPage />);
    const dialog = await openAddDialog(user);
    await user.type(within(dialog).getByLabelText("Address"), ALICE);
    await user.click(within(dialog).getByRole("button", { name: "Add Contact" }));
    expect(lastToast()).toMatchObject({
      title: "Missing information",
      description: "Please provide both name and address",
      variant: "destructive",
    });
    expect(within(dialog).getByRole("alert")).toHaveTextContent("Please provide both name and address");
    expect(within(dialog).getByLabelText("Name")).toHaveAttribute("aria-invalid", "true");
    expect(server.calls.filter((c) => c.method === "POST")).toHaveLength(0);
  });

  it("refuses an address that is not 0x and 40 hex characters ('Invalid address')", async () => {
    const server = fakeServer([]);
    const { user } = renderPage(<ContactsPage />);
    const dialog = await openAddDialog(user);
    await user.type(within(dialog).getByLabelText("Name"), "Alice");
    await user.type(within(dialog).getByLabelText("Address"), "0x1234");
    await user.click(within(dialog).getByRole("button", { name: "Add Contact" }));
    expect(lastToast()).toMatchObject({
      title: "Invalid address",
      description: "Please enter a valid Ethereum address",
      variant: "destructive",
    });
    expect(within(dialog).getByRole("alert")).toHaveTextContent("Please enter a valid Ethereum address");
    expect(within(dialog).getByLabelText("Address")).toHaveAttribute("aria-invalid", "true");
    expect(server.calls.filter((c) => c.method === "POST")).toHaveLength(0);
  });

  it("adds a contact with optional notes: 'Contact added', the dialog closes and the list shows it", async () => {
    const server = fakeServer([]);
    const { user } = renderPage(<ContactsPage />);
    await screen.findByText("No contacts found");
    const dialog = await openAddDialog(user);
    await user.type(within(dialog).getByLabelText("Name"), "  Carol  ");
    // Lower case in, checksummed out.
    await user.type(within(dialog).getByLabelText("Address"), CAROL.toLowerCase());
    await user.type(within(dialog).getByLabelText(/Notes/), "Supplier");
    await user.click(within(dialog).getByRole("button", { name: "Add Contact" }));

    await waitFor(() => expect(lastToast()).toMatchObject({ title: "Contact added" }));
    expect(server.calls.find((c) => c.method === "POST")?.body).toEqual({ name: "Carol", address: CAROL, notes: "Supplier" });
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    const row = (await screen.findByText("Carol")).closest("tr")!;
    expect(row).toHaveTextContent("Supplier");
    expect(row).toHaveTextContent("Just now");
  });

  it("keeps the dialog open with the values when the server refuses a duplicate address", async () => {
    fakeServer(sample());
    const { user } = renderPage(<ContactsPage />);
    await screen.findByText("Alice Treasury");
    const dialog = await openAddDialog(user);
    await user.type(within(dialog).getByLabelText("Name"), "Alice again");
    await user.type(within(dialog).getByLabelText("Address"), ALICE);
    await user.click(within(dialog).getByRole("button", { name: "Add Contact" }));

    await waitFor(() =>
      expect(lastToast()).toMatchObject({
        title: "Duplicate address",
        description: `${ALICE} is already in your contacts as 'Alice Treasury'`,
        variant: "destructive",
      }),
    );
    expect(screen.getByRole("dialog", { name: "Add Contact" })).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Name")).toHaveValue("Alice again");
    expect(within(dialog).getByLabelText("Address")).toHaveValue(ALICE);
    expect(within(dialog).getByRole("alert")).toHaveTextContent("is already in your contacts as 'Alice Treasury'");
    expect(within(dialog).getByLabelText("Address")).toHaveAttribute("aria-invalid", "true");
  });

  it("says 'Saving...' while the server answers and starts blank the next time", async () => {
    const answer = deferred<Response>();
    fakeServer([], (call) => (call.method === "POST" ? answer.promise : undefined) as never);
    const { user } = renderPage(<ContactsPage />);
    let dialog = await openAddDialog(user);
    await user.type(within(dialog).getByLabelText("Name"), "Carol");
    await user.type(within(dialog).getByLabelText("Address"), CAROL);
    await user.click(within(dialog).getByRole("button", { name: "Add Contact" }));
    expect(await within(dialog).findByRole("button", { name: "Saving..." })).toBeDisabled();

    answer.resolve(json({ success: true, contact: contact(1, "Carol", CAROL) }, 201));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    dialog = await openAddDialog(user);
    expect(within(dialog).getByLabelText("Name")).toHaveValue("");
  });
});

describe("Edit (PATCH /api/contacts/:id)", () => {
  it("opens the dialog filled in, sends the changes and says 'Contact updated'", async () => {
    const server = fakeServer(sample());
    const { user } = renderPage(<ContactsPage />);
    await user.click(await screen.findByRole("button", { name: "Edit Alice Treasury" }));
    const dialog = await screen.findByRole("dialog", { name: "Edit Contact" });
    expect(within(dialog).getByLabelText("Name")).toHaveValue("Alice Treasury");
    expect(within(dialog).getByLabelText("Address")).toHaveValue(ALICE);
    expect(within(dialog).getByLabelText(/Notes/)).toHaveValue("Monthly payroll");

    await user.clear(within(dialog).getByLabelText("Name"));
    await user.type(within(dialog).getByLabelText("Name"), "Alice (payroll)");
    await user.clear(within(dialog).getByLabelText(/Notes/));
    await user.click(within(dialog).getByRole("button", { name: "Save Changes" }));

    await waitFor(() => expect(lastToast()).toMatchObject({ title: "Contact updated" }));
    const patch = server.calls.find((c) => c.method === "PATCH")!;
    expect(patch.url).toBe("/api/contacts/3");
    expect(patch.body).toEqual({ name: "Alice (payroll)", address: ALICE, notes: "" });
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    const row = (await screen.findByText("Alice (payroll)")).closest("tr")!;
    expect(row).not.toHaveTextContent("Monthly payroll");
  });

  it("checks the edited values like a new contact", async () => {
    const server = fakeServer(sample());
    const { user } = renderPage(<ContactsPage />);
    await user.click(await screen.findByRole("button", { name: "Edit Bob" }));
    const dialog = await screen.findByRole("dialog", { name: "Edit Contact" });
    await user.clear(within(dialog).getByLabelText("Name"));
    await user.click(within(dialog).getByRole("button", { name: "Save Changes" }));
    expect(lastToast()).toMatchObject({ title: "Missing information", variant: "destructive" });
    expect(server.calls.filter((c) => c.method === "PATCH")).toHaveLength(0);
  });
});

describe("Delete (DELETE /api/contacts/:id)", () => {
  it("asks first; Cancel keeps the contact", async () => {
    const server = fakeServer(sample());
    const { user } = renderPage(<ContactsPage />);
    await user.click(await screen.findByRole("button", { name: "Delete Bob" }));
    const dialog = await screen.findByRole("dialog", { name: "Delete contact?" });
    expect(dialog).toHaveTextContent(BOB);
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(server.calls.filter((c) => c.method === "DELETE")).toHaveLength(0);
    expect(screen.getByText("Bob")).toBeInTheDocument();
  });

  it("deletes on confirmation: 'Contact deleted' and the row goes", async () => {
    const server = fakeServer(sample());
    const { user } = renderPage(<ContactsPage />);
    await user.click(await screen.findByRole("button", { name: "Delete Bob" }));
    await user.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Delete" }));
    await waitFor(() => expect(lastToast()).toMatchObject({ title: "Contact deleted" }));
    expect(server.calls.find((c) => c.method === "DELETE")?.url).toBe("/api/contacts/2");
    await waitFor(() => expect(screen.queryByText("Bob")).not.toBeInTheDocument());
    expect(screen.getByText("Alice Treasury")).toBeInTheDocument();
  });

  it("shows the server's sentence when the contact is already gone", async () => {
    fakeServer(sample(), (call) =>
      call.method === "DELETE" ? json({ success: false, error: "Contact not found - It may have been deleted" }, 404) : undefined,
    );
    const { user } = renderPage(<ContactsPage />);
    await user.click(await screen.findByRole("button", { name: "Delete Bob" }));
    await user.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Delete" }));
    await waitFor(() =>
      expect(lastToast()).toMatchObject({ title: "Contact not found", description: "It may have been deleted", variant: "destructive" }),
    );
  });
});

describe("Export (GET /api/contacts/export)", () => {
  it("downloads the server's CSV as usdx_contacts.csv, signed in with the bearer token", async () => {
    const csv = "Name,Address,Notes\r\nAlice Treasury," + ALICE + ",'=SUM(A1)\r\n";
    const server = fakeServer(sample(), (call) =>
      call.url === "/api/contacts/export"
        ? new Response(csv, {
            status: 200,
            headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": 'attachment; filename="usdx_contacts.csv"' },
          })
        : undefined,
    );
    const blobs: Blob[] = [];
    const original = { createObjectURL: URL.createObjectURL, revokeObjectURL: URL.revokeObjectURL };
    Object.assign(URL, { createObjectURL: vi.fn((blob: Blob) => (blobs.push(blob), "blob:contacts")), revokeObjectURL: vi.fn() });
    onTestFinished(() => void Object.assign(URL, original));
    const downloads: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push(`${this.download} ${this.getAttribute("href")}`);
    });

    const { user } = renderPage(<ContactsPage />);
    await user.click(screen.getByRole("button", { name: "Export" }));
    await waitFor(() => expect(downloads).toEqual(["usdx_contacts.csv blob:contacts"]));
    expect(await blobText(blobs[0])).toBe(csv);
    expect(server.calls.find((c) => c.url === "/api/contacts/export")?.headers).toEqual({ authorization: "Bearer id-token-1" });
  });

  it("says why when the export fails", async () => {
    fakeServer(sample(), (call) =>
      call.url === "/api/contacts/export" ? json({ success: false, error: "Sign in to continue." }, 401) : undefined,
    );
    const { user } = renderPage(<ContactsPage />);
    await user.click(screen.getByRole("button", { name: "Export" }));
    await waitFor(() =>
      expect(lastToast()).toMatchObject({ title: "Export failed", description: "Sign in to continue.", variant: "destructive" }),
    );
  });
});

describe("Import (POST /api/contacts/import)", () => {
  const fileInput = () => screen.getByTestId("contacts-import-file") as HTMLInputElement;
  const csvFile = (text: string, name = "contacts.csv") => new File([text], name, { type: "text/csv" });

  it("sends the file's text and shows how many were added and each skipped line with its reason", async () => {
    const csv = `Name,Address,Notes\nCarol,${CAROL},\nBroken,0x12,\nAlice again,${ALICE},\n`;
    const answer = {
      success: true,
      imported: 1,
      skipped: [
        { line: 3, reason: "Invalid address - Please enter a valid Ethereum address" },
        { line: 4, reason: `Duplicate address - ${ALICE} is already in your contacts as 'Alice Treasury'` },
      ],
      contacts: [contact(9, "Carol", CAROL)],
    };
    const server = fakeServer(sample(), (call) => (call.url === "/api/contacts/import" ? json(answer) : undefined));
    const { user } = renderPage(<ContactsPage />);
    await screen.findByText("Alice Treasury");
    await user.upload(fileInput(), csvFile(csv, "team.csv"));

    const dialog = await screen.findByRole("dialog", { name: "Import results" });
    expect(server.calls.find((c) => c.url === "/api/contacts/import")?.body).toEqual({ csvData: csv });
    expect(lastToast()).toMatchObject({ title: "Contacts updated", description: "1 contact added" });
    expect(dialog).toHaveTextContent("From team.csv");
    expect(dialog).toHaveTextContent("1 contact added");
    expect(dialog).toHaveTextContent("2 lines skipped");
    const rows = within(within(dialog).getByRole("table", { name: "Skipped lines" })).getAllByRole("row");
    expect(rows[1]).toHaveTextContent("3Invalid address - Please enter a valid Ethereum address");
    expect(rows[2]).toHaveTextContent(`4Duplicate address - ${ALICE} is already in your contacts as 'Alice Treasury'`);

    // The list reloads behind the dialog.
    await waitFor(() => expect(server.lists()).toHaveLength(2));
    await user.click(within(dialog).getByRole("button", { name: "Done" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("counts in the plural: '{N} contacts added'", async () => {
    fakeServer([], (call) =>
      call.url === "/api/contacts/import" ? json({ success: true, imported: 3, skipped: [], contacts: [] }) : undefined,
    );
    const { user } = renderPage(<ContactsPage />);
    await user.upload(fileInput(), csvFile("Name,Address\n"));
    await waitFor(() => expect(lastToast()).toMatchObject({ title: "Contacts updated", description: "3 contacts added" }));
    expect(await screen.findByRole("dialog", { name: "Import results" })).toHaveTextContent("0 lines skipped");
  });

  it("says 'Error reading file' when the file cannot be read", async () => {
    const server = fakeServer([]);
    const { user } = renderPage(<ContactsPage />);
    // A file that went away between picking and reading it.
    vi.spyOn(FileReader.prototype, "readAsText").mockImplementation(function (this: FileReader) {
      setTimeout(() => this.onerror?.(new ProgressEvent("error") as ProgressEvent<FileReader>));
    });
    await user.upload(fileInput(), csvFile("Name,Address\n"));
    await waitFor(() =>
      expect(lastToast()).toMatchObject({
        title: "Error reading file",
        description: "Failed to read the uploaded file",
        variant: "destructive",
      }),
    );
    expect(server.calls.filter((c) => c.url === "/api/contacts/import")).toHaveLength(0);
  });

  it("shows the server's sentence when it cannot read the file as a whole", async () => {
    const error = "The CSV header must name the columns Name, Address, Notes; it has no Address column.";
    fakeServer([], (call) => (call.url === "/api/contacts/import" ? json({ success: false, error }, 400) : undefined));
    const { user } = renderPage(<ContactsPage />);
    await user.upload(fileInput(), csvFile("Name,Wallet\nA,0x1\n"));
    await waitFor(() => expect(lastToast()).toMatchObject({ title: "Import failed", description: error, variant: "destructive" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });
});
