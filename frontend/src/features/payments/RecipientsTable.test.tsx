import { beforeEach, describe, expect, it } from "vitest";
import { fireEvent, render, screen, within } from "@testing-library/react";
import { RecipientsTable } from "./components/RecipientsTable";
import { ROW_HEIGHT } from "./components/VirtualTable";
import { toRows } from "./stores/paymentsStore";
import { giveElementsHeight, parsed, recipient } from "./testUtils";

beforeEach(() => giveElementsHeight());

const TEN_THOUSAND = 10_000;

function bigFile() {
  return toRows(
    parsed({
      validRecipients: Array.from({ length: TEN_THOUSAND }, (_, i) => ({
        line: i + 2,
        name: `Recipient ${i + 1}`,
        address: recipient(i + 1),
        amount: "1",
      })),
      invalidEntries: [],
      totalRows: TEN_THOUSAND,
    }),
  );
}

const bodyRows = () =>
  within(screen.getByRole("table", { name: "Recipients" }))
    .getAllByRole("row")
    .slice(1);

describe("Payments: the recipients table with 10,000 rows", () => {
  it("draws only a window of rows, and says how many there are", () => {
    render(<RecipientsTable rows={bigFile()} />);
    const table = screen.getByRole("table", { name: "Recipients" });
    expect(table).toHaveAttribute("aria-rowcount", String(TEN_THOUSAND + 1));
    const rows = bodyRows();
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(40);
    expect(rows[0]).toHaveTextContent("Recipient 1");
    expect(screen.queryByText("Recipient 10000")).not.toBeInTheDocument();
  });

  it("draws the rows scrolled to, in place of the first ones", () => {
    render(<RecipientsTable rows={bigFile()} />);
    const table = screen.getByRole("table", { name: "Recipients" });
    table.scrollTop = 5000 * ROW_HEIGHT;
    fireEvent.scroll(table);
    expect(screen.getByText("Recipient 5001")).toBeInTheDocument();
    expect(screen.queryByText("Recipient 1")).not.toBeInTheDocument();
    expect(bodyRows().length).toBeLessThan(40);
    const row = screen.getByText("Recipient 5001").closest('[role="row"]')!;
    expect(row).toHaveAttribute("aria-rowindex", String(5001 + 1));
  });
});
