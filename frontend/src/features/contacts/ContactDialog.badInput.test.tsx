import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { BAD_ADDRESSES, BAD_CHECKSUM, BLANKS, caseCounter, GOOD_ADDRESS } from "@/test/badInputs";
import { ContactDialog } from "./components/ContactDialog";
import { BOB, contact, fakeServer, json, lastToast, renderPage, resetAll } from "./testUtils";

/**
 * Add Contact and Edit Contact against the table of bad inputs (issue 7, item 3): what PRODUCT.md section 5
 * decides in the browser (both fields, the address format) is refused with its toast and sentence
 * and never sent; what only the server decides (control characters, lengths) is sent, and its
 * sentence is shown beside the values typed.
 */
const cases = caseCounter("contacts dialog");
afterAll(() => cases.print());

beforeEach(resetAll);

const MISSING = { title: "Missing information", description: "Please provide both name and address" };
const addressProblem = (value: string) =>
  value.trim() === ""
    ? MISSING
    : value === BAD_CHECKSUM
      ? { title: "Invalid address", description: expect.stringMatching(/has a wrong checksum/) }
      : { title: "Invalid address", description: "Please enter a valid Ethereum address" };

const MODES = [
  { mode: "Add Contact", contact: null, submit: "Add Contact", method: "POST" },
  { mode: "Edit Contact", contact: contact(1, "Bob", BOB, "rent"), submit: "Save Changes", method: "PATCH" },
] as const;

for (const { mode, contact: editing, submit, method } of MODES) {
  describe(mode, () => {
    function open(override?: Parameters<typeof fakeServer>[1]) {
      const server = fakeServer(editing ? [editing] : [], override);
      renderPage(<ContactDialog open onOpenChange={vi.fn()} contact={editing} />);
      return { server, dialog: screen.getByRole("dialog", { name: mode }) };
    }
    // "Notes (optional)": labels are matched from their start.
    const field = (dialog: HTMLElement, label: string) => within(dialog).getByLabelText(new RegExp(`^${label}`)) as HTMLInputElement;
    const fill = (dialog: HTMLElement, label: string, value: string) => fireEvent.change(field(dialog, label), { target: { value } });
    const sent = (server: ReturnType<typeof fakeServer>) => server.calls.filter((c) => c.method === method);

    it.each(BLANKS)("refuses the name: %s", (_what, value) => {
      cases.count("name");
      const { server, dialog } = open();
      fill(dialog, "Name", value);
      fill(dialog, "Address", GOOD_ADDRESS);
      fireEvent.click(within(dialog).getByRole("button", { name: submit }));
      expect(lastToast()).toMatchObject({ ...MISSING, variant: "destructive" });
      expect(within(dialog).getByRole("alert")).toHaveTextContent(MISSING.description);
      expect(within(dialog).getByLabelText("Name")).toHaveAttribute("aria-invalid", "true");
      expect(sent(server)).toHaveLength(0);
    });

    it.each(BAD_ADDRESSES)("refuses the address: %s", (_what, value) => {
      cases.count("address");
      const { server, dialog } = open();
      fill(dialog, "Name", "Alice");
      fill(dialog, "Address", value);
      fireEvent.click(within(dialog).getByRole("button", { name: submit }));
      const problem = addressProblem(value);
      expect(lastToast()).toMatchObject({ ...problem, variant: "destructive" });
      expect(within(dialog).getByRole("alert").textContent).toEqual(problem.description);
      expect(within(dialog).getByLabelText("Address")).toHaveAttribute("aria-invalid", "true");
      expect(sent(server)).toHaveLength(0);
    });

    // The server's own sentences (server/src/services/contacts.ts), as it answers them.
    const SERVER_DECIDES: [string, "Name" | "Notes", string, string][] = [
      ["a NUL in the name", "Name", "Ali\u0000ce", "Invalid name - The name cannot contain control characters such as line breaks or tabs"],
      [
        "an RTL override in the name",
        "Name",
        "Alice\u202Egnp.exe",
        "Invalid name - The name cannot contain control characters such as line breaks or tabs",
      ],
      ["a 101-character name", "Name", "n".repeat(101), "Name too long - Please keep the name to 100 characters or fewer"],
      [
        "a NUL in the notes",
        "Notes",
        "a\u0000b",
        "Invalid notes - The notes cannot contain control characters other than line breaks and tabs",
      ],
      ["501 characters of notes", "Notes", "x".repeat(501), "Notes too long - Please keep the notes to 500 characters or fewer"],
    ];
    it.each(SERVER_DECIDES)("shows the server's refusal of %s beside the values typed", async (_what, label, value, sentence) => {
      cases.count("server decides");
      const { server, dialog } = open((call) => (call.method === method ? json({ success: false, error: sentence }, 400) : undefined));
      fill(dialog, "Name", label === "Name" ? value : "Alice");
      fill(dialog, "Address", GOOD_ADDRESS);
      if (label === "Notes") fill(dialog, "Notes", value);
      fireEvent.click(within(dialog).getByRole("button", { name: submit }));
      await waitFor(() => expect(lastToast()).toMatchObject({ description: sentence.split(" - ")[1], variant: "destructive" }));
      expect(lastToast().title).toBe(sentence.split(" - ")[0]);
      expect(within(dialog).getByRole("alert")).toHaveTextContent(sentence.split(" - ")[1]);
      expect(field(dialog, label)).toHaveAttribute("aria-invalid", "true");
      // The dialog keeps what was typed, and the one request was the refused one.
      expect(field(dialog, label).value).toBe(value);
      expect(sent(server)).toHaveLength(1);
    });
  });
}
