import { beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import PaymentsPage from "./pages/PaymentsPage";
import { TEMPLATE_CSV, TEMPLATE_FILE_NAME } from "./template";
import { blobText, BOB, CAROL, connect, csvFile, giveElementsHeight, lastToast, parsed, renderPage, resetAll, stubApi } from "./testUtils";

vi.mock("@/lib/chain/queries", async () => (await import("./testUtils")).queriesMock);
vi.mock("@/lib/tx/runner", async () => (await import("./testUtils")).runnerMock);

beforeEach(() => {
  resetAll();
  giveElementsHeight();
});

const uploadInput = () => screen.getByLabelText("Upload CSV file");

describe("Payments: the screen", () => {
  it("shows the title, the two tabs, and asks for a wallet when none is connected", () => {
    stubApi({});
    renderPage(<PaymentsPage />);
    expect(screen.getByRole("heading", { level: 1, name: "Payments" })).toBeInTheDocument();
    expect(screen.getByRole("tab", { name: "CSV Upload" })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("tab", { name: "Payment History" })).toBeInTheDocument();
    expect(screen.getByText("Connect your wallet to make USDX payments")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Connect Wallet" })).toBeInTheDocument();
  });

  it("does not ask for a wallet once one is connected", () => {
    stubApi({});
    connect();
    renderPage(<PaymentsPage />);
    expect(screen.queryByText("Connect your wallet to make USDX payments")).not.toBeInTheDocument();
  });
});

describe("Payments: CSV upload", () => {
  it("sends the file's text to the parser and shows every row, with each reason under the cell it concerns", async () => {
    const api = stubApi({ "POST /api/batch/parse-csv": { success: true, error: null, data: parsed() } });
    connect();
    const { user } = renderPage(<PaymentsPage />);
    const text = `Name,Address,Amount\nBob,${BOB},5\nMallory,0x1234,abc\nCarol,${CAROL},2.5\n`;
    await user.upload(uploadInput(), csvFile(text));

    expect(await screen.findByText("Summary")).toBeInTheDocument();
    expect(api.of("POST", "/api/batch/parse-csv")[0].body).toEqual({ csvData: text });
    expect(lastToast()).toMatchObject({ title: "CSV file uploaded", description: "3 recipients loaded, 2 valid" });

    // Summary: the server's exact total to 2 decimals, valid of total.
    expect(screen.getByText("7.50")).toBeInTheDocument();
    expect(screen.getByText("2/3")).toBeInTheDocument();
    expect(screen.getByText("1 row will not be paid")).toBeInTheDocument();

    const table = screen.getByRole("table", { name: "Recipients" });
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((r) => within(r).getAllByRole("cell")[1].textContent)).toEqual(["Bob", "Mallory", "Carol"]);
    const [bob, mallory] = rows;
    expect(within(bob).getByText("Valid")).toBeInTheDocument();
    expect(within(mallory).getByText("Error")).toBeInTheDocument();
    expect(mallory.className).toContain("bg-destructive/5");
    expect(bob.className).not.toContain("bg-destructive/5");
    const [, name, address, amount] = within(mallory).getAllByRole("cell");
    expect(within(address).getByText("0x1234")).toBeInTheDocument();
    expect(within(address).getByText("Invalid Ethereum address")).toBeInTheDocument();
    expect(within(amount).getByText("Invalid amount")).toBeInTheDocument();
    expect(within(name).queryByText(/Invalid/)).not.toBeInTheDocument();
  });

  it("flags addresses that are on more than one row", async () => {
    const data = parsed({
      validRecipients: [
        { line: 2, name: "Bob", address: BOB, amount: "5" },
        { line: 3, name: "Bob again", address: BOB, amount: "1" },
      ],
      invalidEntries: [],
      duplicates: [{ address: BOB, lines: [2, 3] }],
      totalRows: 2,
    });
    stubApi({ "POST /api/batch/parse-csv": { success: true, error: null, data } });
    const { user } = renderPage(<PaymentsPage />);
    await user.upload(uploadInput(), csvFile("Name,Address,Amount\n"));
    expect(await screen.findByText("1 address on more than one row")).toBeInTheDocument();
    expect(screen.getAllByText("Duplicate")).toHaveLength(2);
  });

  it("shows only the rows with errors when asked", async () => {
    stubApi({ "POST /api/batch/parse-csv": { success: true, error: null, data: parsed() } });
    const { user } = renderPage(<PaymentsPage />);
    await user.upload(uploadInput(), csvFile("x"));
    await user.click(await screen.findByLabelText("Show only the 1 row with errors"));
    const rows = within(screen.getByRole("table", { name: "Recipients" }))
      .getAllByRole("row")
      .slice(1);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toHaveTextContent("Mallory");
  });

  it("takes a dropped file as well", async () => {
    stubApi({ "POST /api/batch/parse-csv": { success: true, error: null, data: parsed() } });
    renderPage(<PaymentsPage />);
    const zone = uploadInput().parentElement!;
    fireEvent.drop(zone, { dataTransfer: { files: [csvFile("Name,Address,Amount\n")] } });
    expect(await screen.findByText("Summary")).toBeInTheDocument();
  });

  it("refuses a file that is not a CSV without sending it", async () => {
    const api = stubApi({});
    const { user } = renderPage(<PaymentsPage />);
    await user.upload(uploadInput(), new File(["hello"], "payments.xlsx"));
    expect(lastToast()).toMatchObject({ title: "Invalid file type", variant: "destructive" });
    expect(lastToast().description).toContain("payments.xlsx");
    expect(api.calls).toHaveLength(0);
  });

  it("says 'Error reading file' when the browser cannot read it", async () => {
    const api = stubApi({});
    const { user } = renderPage(<PaymentsPage />);
    const file = csvFile("x");
    file.text = () => Promise.reject(new Error("NotReadableError"));
    await user.upload(uploadInput(), file);
    expect(lastToast()).toMatchObject({
      title: "Error reading file",
      description: "Failed to read the uploaded file",
      variant: "destructive",
    });
    expect(api.calls).toHaveLength(0);
  });

  it("says 'Empty CSV file' for an empty file, and for a header without rows", async () => {
    const api = stubApi({
      "POST /api/batch/parse-csv": { success: true, error: null, data: parsed({ validRecipients: [], invalidEntries: [], totalRows: 0 }) },
    });
    const { user } = renderPage(<PaymentsPage />);
    await user.upload(uploadInput(), csvFile("  \n"));
    expect(lastToast()).toMatchObject({ title: "Empty CSV file", description: "The uploaded file contains no valid data" });
    expect(api.calls).toHaveLength(0);

    await user.upload(uploadInput(), csvFile("Name,Address,Amount\n"));
    await vi.waitFor(() => expect(api.calls).toHaveLength(1));
    expect(lastToast()).toMatchObject({ title: "Empty CSV file", description: "The uploaded file contains no valid data" });
    expect(screen.queryByText("Summary")).not.toBeInTheDocument();
  });

  it("shows the server's reason when it cannot parse the file, or 'Invalid CSV format'", async () => {
    stubApi({
      "POST /api/batch/parse-csv": () =>
        new Response(
          JSON.stringify({ success: false, error: "The CSV header must name the columns Address, Amount, Name; it has no Amount column." }),
          { status: 400 },
        ),
    });
    const { user } = renderPage(<PaymentsPage />);
    await user.upload(uploadInput(), csvFile("Name,Address\nBob,0x1\n"));
    await vi.waitFor(() => expect(lastToast()?.title).toBe("Failed to parse CSV"));
    expect(lastToast().description).toBe("The CSV header must name the columns Address, Amount, Name; it has no Amount column.");

    stubApi({ "POST /api/batch/parse-csv": { success: false, error: null, data: null } });
    await user.upload(uploadInput(), csvFile("a\n"));
    await vi.waitFor(() => expect(lastToast()).toMatchObject({ title: "Failed to parse CSV", description: "Invalid CSV format" }));
  });

  it("downloads usdx_transfer_template.csv with the Name, Address, Amount columns and example rows of 5", async () => {
    stubApi({});
    let saved: { name: string; blob: Blob } | null = null;
    const createObjectURL = vi.fn((blob: Blob) => {
      saved = { name: "", blob };
      return "blob:template";
    });
    vi.stubGlobal("URL", Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      saved!.name = this.download;
    });
    const { user } = renderPage(<PaymentsPage />);
    await user.click(screen.getByRole("button", { name: "Download Template" }));
    expect(click).toHaveBeenCalledOnce();
    expect(saved!.name).toBe(TEMPLATE_FILE_NAME);
    expect(TEMPLATE_FILE_NAME).toBe("usdx_transfer_template.csv");
    const text = await blobText(saved!.blob);
    expect(text).toBe(`${TEMPLATE_CSV}\r\n`);
    const [header, ...rows] = text.trim().split("\r\n");
    expect(header).toBe("Name,Address,Amount");
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows[0].split(",")[2]).toBe("5");
    click.mockRestore();
  });

  it("Remove clears the loaded recipients", async () => {
    stubApi({ "POST /api/batch/parse-csv": { success: true, error: null, data: parsed() } });
    const { user } = renderPage(<PaymentsPage />);
    await user.upload(uploadInput(), csvFile("x"));
    await user.click(await screen.findByRole("button", { name: "Remove recipients.csv" }));
    expect(screen.queryByText("Summary")).not.toBeInTheDocument();
    expect(screen.queryByRole("table", { name: "Recipients" })).not.toBeInTheDocument();
  });
});
