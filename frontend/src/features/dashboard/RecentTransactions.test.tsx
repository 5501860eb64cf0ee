import { act, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PENDING_HISTORY_POLL_MS } from "./api/queries";
import { RecentTransactions } from "./components/RecentTransactions";
import { json, ME, OTHER, renderAtHome, stubApi, testConfig } from "./testUtils";
import { usePendingEntries } from "@/lib/tx/pending";

const HASH = `0x${"ab".repeat(32)}`;
const ZERO = `0x${"0".repeat(40)}`;
const entry = (over: Record<string, unknown>) => ({
  hash: HASH,
  type: "Transfer",
  from: ME,
  to: OTHER,
  amount: "12.5",
  amountRaw: "12500000000000000000",
  blockNumber: 7,
  logIndex: 0,
  timestamp: Math.floor(Date.now() / 1000) - 120,
  status: "confirmed",
  ...over,
});

const historyUrl = `/api/accounts/${ME}/history?limit=5`;

describe("Recent Transactions", () => {
  beforeEach(() => {
    stubApi({ "/api/": () => json({ items: [], nextCursor: null }) });
    usePendingEntries.setState({ entries: [] });
  });

  it("without a wallet: 'Connect your wallet to view your transaction history.' and no request", () => {
    const fetchMock = stubApi({});
    renderAtHome(<RecentTransactions address={null} />);
    expect(screen.getByText("Connect your wallet to view your transaction history.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: /View All/ })).toHaveAttribute("href", "/transactions");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("asks for the latest 5 and says 'No recent transactions found.' when there are none", async () => {
    const fetchMock = stubApi({ [historyUrl]: () => json({ items: [], nextCursor: null }) });
    renderAtHome(<RecentTransactions address={ME} />);
    expect(await screen.findByText("No recent transactions found.")).toBeInTheDocument();
    expect(String(fetchMock.mock.calls[0][0])).toBe(historyUrl);
  });

  it("shows 'Failed to load transactions' with Retry, which loads them again", async () => {
    let fail = true;
    stubApi({
      [historyUrl]: () => (fail ? json({ error: "indexer is catching up" }, 503) : json({ items: [entry({})], nextCursor: null })),
    });
    const { user } = renderAtHome(<RecentTransactions address={ME} />);
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Failed to load transactions");
    expect(alert).toHaveTextContent("503: indexer is catching up");
    fail = false;
    await user.click(within(alert).getByRole("button", { name: "Retry" }));
    expect(await screen.findByRole("table")).toBeInTheDocument();
  });

  it("lists Type, From, To, Amount (USDX) and Status, with links to the transaction and addresses", async () => {
    stubApi({
      [historyUrl]: () =>
        json({
          items: [
            entry({}),
            entry({
              type: "Mint",
              from: ZERO,
              to: ME,
              amount: "1000",
              amountRaw: "1000000000000000000000",
              logIndex: 1,
              status: "pending",
            }),
          ],
          nextCursor: null,
        }),
    });
    renderAtHome(<RecentTransactions address={ME} />);
    const table = await screen.findByRole("table");
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual(["Type", "From", "To", "Amount (USDX)", "Status"]);
    const [, sent, minted] = within(table).getAllByRole("row");
    expect(within(sent).getByText("Transfer")).toBeInTheDocument();
    expect(within(sent).getByText("-12.50")).toBeInTheDocument();
    expect(within(sent).getByText("Confirmed")).toBeInTheDocument();
    expect(within(sent).getByText("2 minutes ago")).toBeInTheDocument();
    // The local chain has no explorer: links stay in the dashboard.
    expect(within(sent).getByRole("link", { name: `Transaction ${HASH}` })).toHaveAttribute("href", `/tx/${HASH}`);
    expect(within(sent).getByRole("link", { name: `Address ${OTHER}` })).toHaveAttribute("href", `/transactions?address=${OTHER}`);
    expect(within(minted).getByText("Mint")).toBeInTheDocument();
    expect(within(minted).getByText("+1,000.00")).toBeInTheDocument();
    expect(within(minted).getByText("Pending")).toBeInTheDocument();
    expect(within(minted).getAllByRole("link")).toHaveLength(2); // the transaction and the receiver; the zero address is no one
  });

  it("links to the block explorer in a new tab on Sepolia", async () => {
    stubApi({ [historyUrl]: () => json({ items: [entry({})], nextCursor: null }) });
    renderAtHome(<RecentTransactions address={ME} />, { ...testConfig, network: "sepolia", explorerUrl: "https://sepolia.etherscan.io" });
    const link = await screen.findByRole("link", { name: `Transaction ${HASH}` });
    expect(link).toHaveAttribute("href", `https://sepolia.etherscan.io/tx/${HASH}`);
    expect(link).toHaveAttribute("target", "_blank");
  });
  it("shows what really moved when a transfer moved less than its event says (whole shares), with a note", async () => {
    stubApi({
      [historyUrl]: () =>
        json({
          items: [
            entry({ amount: "0.000000000000000002", amountRaw: "2", sharesMoved: "1", amountMoved: "1" }),
            entry({
              type: "Mint",
              from: ZERO,
              to: ME,
              amount: "0.000000000000000001",
              amountRaw: "1",
              sharesMoved: "0",
              amountMoved: "0",
              logIndex: 1,
            }),
            entry({ from: OTHER, to: ME, sharesMoved: "12500000000000000000", amountMoved: "12500000000000000000", logIndex: 2 }),
          ],
          nextCursor: null,
        }),
    });
    renderAtHome(<RecentTransactions address={ME} />);
    const table = await screen.findByRole("table");
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual(["Type", "From", "To", "Amount (USDX)", "Status"]);
    const [, rounded, dust, normal] = within(table).getAllByRole("row");
    expect(within(rounded).getByText("-0.000000000000000001")).toBeInTheDocument();
    expect(
      within(rounded).getByText(
        "The event says 0.000000000000000002 USDX; 0.000000000000000001 USDX moved (rounded down to whole shares).",
      ),
    ).toBeInTheDocument();
    expect(within(dust).getByText("0.00")).toHaveClass("text-muted-foreground");
    expect(within(dust).getByText("No shares moved: the amount is worth less than one share.")).toBeInTheDocument();
    expect(within(normal).getByText("+12.50")).toBeInTheDocument();
    expect(within(normal).queryByText(/moved/)).toBeNull();
  });

  describe("a transaction this browser sent that the index has not taken yet (Sepolia: until it is final)", () => {
    const SENT = `0x${"cd".repeat(32)}`;

    afterEach(() => vi.useRealTimers());

    it("shows it first as 'Pending', then as the history's confirmed entry once the index has it", async () => {
      // The clock moves on to the list's next look rather than the test waiting for it.
      vi.useFakeTimers({ shouldAdvanceTime: true });
      let indexed = false;
      const fetchMock = stubApi({
        [historyUrl]: () =>
          json({
            items: indexed
              ? [entry({ hash: SENT, amount: "3", amountRaw: "3000000000000000000", blockNumber: 8 }), entry({})]
              : [entry({})],
            nextCursor: null,
          }),
      });
      usePendingEntries
        .getState()
        .add({ hash: SENT, type: "Transfer", from: ME, to: OTHER, amountRaw: "3000000000000000000", sentAt: Date.now() });
      renderAtHome(<RecentTransactions address={ME} />);
      const table = await screen.findByRole("table");
      await within(table).findByText("Pending");
      const [, sent, older] = within(table).getAllByRole("row");
      expect(within(sent).getByText("-3.00")).toBeInTheDocument();
      expect(within(sent).getByText("Pending")).toBeInTheDocument();
      expect(within(sent).getByText("Just now")).toBeInTheDocument();
      expect(within(sent).getByRole("link", { name: `Transaction ${SENT}` })).toHaveAttribute("href", `/tx/${SENT}`);
      expect(within(older).getByText("Confirmed")).toBeInTheDocument();

      // The list looks again while something waits for the index (every few seconds).
      indexed = true;
      await act(() => vi.advanceTimersByTimeAsync(PENDING_HISTORY_POLL_MS));
      await waitFor(() => expect(within(table).queryByText("Pending")).toBeNull());
      expect(within(table).getAllByText("Confirmed")).toHaveLength(2);
      expect(usePendingEntries.getState().entries).toEqual([]);
      expect(fetchMock.mock.calls.length).toBeGreaterThan(1);
    });

    it("shows only the connected account's, and keeps five rows in all", async () => {
      stubApi({ [historyUrl]: () => json({ items: [0, 1, 2, 3, 4].map((i) => entry({ logIndex: i })), nextCursor: null }) });
      usePendingEntries
        .getState()
        .add({ hash: SENT, type: "Transfer", from: OTHER, to: ME, amountRaw: "1000000000000000000", sentAt: Date.now() });
      usePendingEntries.getState().add({
        hash: HASH.replace("ab", "ef"),
        type: "Transfer",
        from: OTHER,
        to: ZERO.replace(/0$/, "1"),
        amountRaw: "1",
        sentAt: Date.now(),
      });
      renderAtHome(<RecentTransactions address={ME} />);
      const table = await screen.findByRole("table");
      await within(table).findByText("Pending");
      const rows = within(table).getAllByRole("row").slice(1);
      expect(rows).toHaveLength(5);
      expect(within(rows[0]).getByText("+1.00")).toBeInTheDocument();
      expect(within(table).getAllByText("Pending")).toHaveLength(1);
    });
  });
});
