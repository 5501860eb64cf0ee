import { screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { connect, entry, fetched, json, ME, renderPage, resetAll, stubApi, toasts } from "./testUtils";

const firstPage = `/api/accounts/${ME}/history?limit=50`;
const csv = () =>
  new Response("Date,Block\r\n", {
    status: 200,
    headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="usdx_history_${ME}.csv"` },
  });

/** The files the page saves (name and link), through the temporary download link. */
function captureDownloads(): string[] {
  const downloads: string[] = [];
  const original = { createObjectURL: URL.createObjectURL, revokeObjectURL: URL.revokeObjectURL };
  Object.assign(URL, { createObjectURL: vi.fn(() => "blob:export"), revokeObjectURL: vi.fn() });
  onTestFinished(() => void Object.assign(URL, original));
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
    downloads.push(this.download);
  });
  return downloads;
}

describe("Your Transactions: Export CSV", () => {
  beforeEach(resetAll);

  it("exports all, or a block range after saying what is wrong with one, for the account shown", async () => {
    connect();
    const fetchMock = stubApi({
      [firstPage]: { items: [entry()], nextCursor: null },
      [`/api/accounts/${ME}/history/export`]: csv,
      [`/api/accounts/${ME}/history/export?fromBlock=7&toBlock=9`]: csv,
    });
    const downloads = captureDownloads();
    const { user } = renderPage();
    await screen.findByRole("table");

    await user.click(screen.getByRole("button", { name: "Export CSV" }));
    let dialog = await screen.findByRole("dialog", { name: "Export transactions" });
    expect(within(dialog).getByRole("radio", { name: "All transactions" })).toBeChecked();
    await user.click(within(dialog).getByRole("button", { name: "Export CSV" }));
    await waitFor(() => expect(downloads).toEqual([`usdx_history_${ME}.csv`]));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());

    await user.click(screen.getByRole("button", { name: "Export CSV" }));
    dialog = await screen.findByRole("dialog", { name: "Export transactions" });
    await user.click(within(dialog).getByRole("radio", { name: "A block range" }));
    await user.click(within(dialog).getByRole("button", { name: "Export CSV" }));
    expect(within(dialog).getByText("Give a From Block, a To Block or both.")).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText("From Block"), "10");
    await user.type(within(dialog).getByLabelText("To Block"), "9");
    await user.click(within(dialog).getByRole("button", { name: "Export CSV" }));
    expect(within(dialog).getByText("From Block (10) must not be after To Block (9).")).toBeInTheDocument();
    expect(within(dialog).getByLabelText("From Block")).toHaveAttribute("aria-invalid", "true");
    await user.clear(within(dialog).getByLabelText("From Block"));
    await user.type(within(dialog).getByLabelText("From Block"), "7");
    await user.click(within(dialog).getByRole("button", { name: "Export CSV" }));
    await waitFor(() => expect(downloads).toHaveLength(2));
    expect(fetched(fetchMock).filter((url) => url.includes("/export"))).toEqual([
      `/api/accounts/${ME}/history/export`,
      `/api/accounts/${ME}/history/export?fromBlock=7&toBlock=9`,
    ]);
  });

  it("keeps the dialog open and toasts 'Export failed' with the server's sentence", async () => {
    connect();
    stubApi({
      [firstPage]: { items: [entry()], nextCursor: null },
      [`/api/accounts/${ME}/history/export?fromDate=2026-01-01`]: () =>
        json({ success: false, error: "Too many CSV exports: wait a minute and try again." }, 429),
    });
    const { user } = renderPage();
    await screen.findByRole("table");
    await user.click(screen.getByRole("button", { name: "Export CSV" }));
    const dialog = await screen.findByRole("dialog", { name: "Export transactions" });
    await user.click(within(dialog).getByRole("radio", { name: "A date range (UTC)" }));
    await user.type(within(dialog).getByLabelText("From Date"), "2026-01-01");
    await user.click(within(dialog).getByRole("button", { name: "Export CSV" }));
    await waitFor(() =>
      expect(toasts()).toContainEqual(
        expect.objectContaining({
          title: "Export failed",
          description: "Too many CSV exports: wait a minute and try again.",
          variant: "destructive",
        }),
      ),
    );
    expect(screen.getByRole("dialog", { name: "Export transactions" })).toBeInTheDocument();
  });
});
