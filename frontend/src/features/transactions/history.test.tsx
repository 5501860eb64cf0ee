import { screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { connect, entry, fetched, json, ME, OTHER, renderPage, resetAll, stubApi, testConfig, toasts, ZERO } from "./testUtils";

const firstPage = `/api/accounts/${ME}/history?limit=50`;

describe("Transaction History: Your Transactions", () => {
  beforeEach(resetAll);

  it("shows the title, both tabs, and without a wallet asks to connect one (and asks the server nothing)", () => {
    const fetchMock = stubApi({});
    renderPage();
    expect(screen.getByRole("heading", { level: 1, name: "Transaction History" })).toBeInTheDocument();
    expect(screen.getByRole("tab", { name: "Your Transactions", selected: true })).toBeInTheDocument();
    expect(screen.getByRole("tab", { name: "Contract Events" })).toBeInTheDocument();
    expect(screen.getByText("Connect your wallet to view your transaction history.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Connect Wallet" })).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("lists Type, Tx Hash, From, To, Amount, Block and Time, with exact signed amounts and '(you)'", async () => {
    connect();
    const fetchMock = stubApi({
      [firstPage]: {
        items: [
          entry(),
          entry({
            hash: `0x${"cd".repeat(32)}`,
            type: "Transfer",
            from: OTHER,
            to: ME,
            amount: "0.000000000000000001",
            amountRaw: "1",
            blockNumber: 30,
          }),
          entry({ type: "Mint", from: ZERO, to: ME, amount: "1000", amountRaw: "1000000000000000000000", blockNumber: 20 }),
        ],
        nextCursor: null,
      },
    });
    renderPage();
    const table = await screen.findByRole("table");
    expect(fetched(fetchMock)).toEqual([firstPage]);
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual(["Type", "Tx Hash", "From", "To", "Amount", "Block", "Time"]);
    const [, sent, received, minted] = within(table).getAllByRole("row");

    expect(within(sent).getByText("Transfer")).toBeInTheDocument();
    const out = within(sent).getByText("-12.50");
    expect(out).toHaveClass("text-destructive");
    // The account itself is not a link to the page already shown.
    expect(within(sent).getByTitle(ME)).toHaveTextContent("0x7099...79C8(you)");
    expect(within(sent).queryByRole("link", { name: new RegExp(ME) })).toBeNull();
    expect(within(sent).getByRole("link", { name: `Address ${OTHER}` })).toHaveAttribute("href", `/transactions?address=${OTHER}`);
    expect(within(sent).getByRole("link", { name: `Transaction ${entry().hash}` })).toHaveAttribute("href", `/tx/${entry().hash}`);
    expect(within(sent).getByRole("link", { name: "Block 40" })).toHaveAttribute("href", "/block/40");
    expect(within(sent).getByText("2 minutes ago")).toBeInTheDocument();

    // Exact: one base unit is not rounded away.
    expect(within(received).getByText("+0.000000000000000001")).toHaveClass("text-success");
    expect(within(minted).getByText("Mint")).toBeInTheDocument();
    expect(within(minted).getByText("+1,000.00")).toBeInTheDocument();
    expect(within(minted).queryByRole("link", { name: /Address 0x0000/ })).toBeNull(); // the zero address is no one to link to
    expect(screen.getByText("3 transactions, the whole history")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Load more" })).toBeNull();
  });

  it("links to the block explorer in a new tab on Sepolia", async () => {
    connect();
    stubApi({ [firstPage]: { items: [entry()], nextCursor: null } });
    renderPage("/transactions", { ...testConfig, network: "sepolia", explorerUrl: "https://sepolia.etherscan.io" });
    const table = await screen.findByRole("table");
    const link = within(table).getByRole("link", { name: `Transaction ${entry().hash}` });
    expect(link).toHaveAttribute("href", `https://sepolia.etherscan.io/tx/${entry().hash}`);
    expect(link).toHaveAttribute("target", "_blank");
  });

  it("'Load more' asks for the page after the server's nextCursor and appends it", async () => {
    connect();
    const first = Array.from({ length: 50 }, (_, i) => entry({ blockNumber: 200 - i, logIndex: 0 }));
    const fetchMock = stubApi({
      [firstPage]: { items: first, nextCursor: "151-0" },
      [`${firstPage}&cursor=151-0`]: {
        items: [entry({ blockNumber: 12, amount: "7", amountRaw: "7000000000000000000" })],
        nextCursor: null,
      },
    });
    const { user } = renderPage();
    expect(await screen.findByText("50 transactions shown")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Load more" }));
    expect(await screen.findByText("51 transactions, the whole history")).toBeInTheDocument();
    expect(fetched(fetchMock)).toEqual([firstPage, `${firstPage}&cursor=151-0`]);
    const rows = within(screen.getByRole("table")).getAllByRole("row");
    expect(within(rows[rows.length - 1]).getByText("-7.00")).toBeInTheDocument(); // older, so last
    expect(screen.queryByRole("button", { name: "Load more" })).toBeNull();
  });

  it("says 'No transactions found.' for an account without history", async () => {
    connect();
    stubApi({ [firstPage]: { items: [], nextCursor: null } });
    renderPage();
    expect(await screen.findByText("No transactions found.")).toBeInTheDocument();
  });

  it("on failure toasts 'Failed to load transactions', shows it inline, and Retry loads the history", async () => {
    connect();
    let fail = true;
    stubApi({
      [firstPage]: () => (fail ? json({ error: "the index is catching up" }, 503) : json({ items: [entry()], nextCursor: null })),
    });
    const { user } = renderPage();
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Failed to load transactions");
    expect(alert).toHaveTextContent("503: the index is catching up");
    expect(toasts()).toEqual([
      expect.objectContaining({
        title: "Failed to load transactions",
        description: "503: the index is catching up",
        variant: "destructive",
      }),
    ]);
    fail = false;
    await user.click(within(alert).getByRole("button", { name: "Retry" }));
    expect(await screen.findByRole("table")).toBeInTheDocument();
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("?address=0x... shows that account's history, read-only, without a wallet", async () => {
    const fetchMock = stubApi({
      [`/api/accounts/${OTHER}/history?limit=50`]: { items: [entry({ from: OTHER, to: ME })], nextCursor: null },
    });
    renderPage(`/transactions?address=${OTHER.toLowerCase()}`);
    expect(await screen.findByText("History of")).toBeInTheDocument();
    expect(screen.getByText(OTHER)).toBeInTheDocument(); // checksummed
    expect(screen.getByText("Read-only")).toBeInTheDocument();
    expect(screen.queryByText("Connect your wallet to view your transaction history.")).toBeNull();
    const row = within(await screen.findByRole("table")).getAllByRole("row")[1];
    expect(within(row).getByText("-12.50")).toBeInTheDocument(); // sent by the viewed account
    expect(fetched(fetchMock)).toEqual([`/api/accounts/${OTHER}/history?limit=50`]);
  });

  it("?address=0x... with a wallet connected offers the way back to your own transactions", async () => {
    connect();
    stubApi({ [`/api/accounts/${OTHER}/history?limit=50`]: { items: [entry({ from: OTHER, to: ME })], nextCursor: null } });
    const { user } = renderPage(`/transactions?address=${OTHER}`);
    const row = within(await screen.findByRole("table")).getAllByRole("row")[1];
    expect(within(row).getByRole("link", { name: `Address ${ME} (you)` })).toBeInTheDocument();
    stubApi({ [firstPage]: { items: [], nextCursor: null } });
    await user.click(screen.getByRole("link", { name: "Show your transactions" }));
    expect(await screen.findByText("No transactions found.")).toBeInTheDocument();
    expect(screen.queryByText("History of")).toBeNull();
  });

  it("?address= that is not an address says so and asks nothing", () => {
    const fetchMock = stubApi({});
    renderPage("/transactions?address=0x123");
    expect(screen.getByRole("alert")).toHaveTextContent("Invalid address");
    expect(screen.getByRole("alert")).toHaveTextContent("Please enter a valid Ethereum address");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("on a phone lists the same entries: type, parties, signed amount, transaction, block and time", async () => {
    connect();
    stubApi({ [firstPage]: { items: [entry({ from: OTHER, to: ME })], nextCursor: null } });
    renderPage();
    const list = await screen.findByRole("list", { name: "Transactions" });
    expect(within(list).getByText("Transfer")).toBeInTheDocument();
    expect(within(list).getByText("+12.50")).toHaveClass("text-success");
    expect(within(list).getByRole("link", { name: `Address ${OTHER}` })).toBeInTheDocument();
    expect(within(list).getByRole("link", { name: "Block 40" })).toHaveAttribute("href", "/block/40");
    expect(within(list).getByText("2 minutes ago")).toBeInTheDocument();
  });
  it("says 'via Operations Safe' on a row a Safe's executed proposal sent, in the table and the phone's list", async () => {
    connect();
    const safe = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
    stubApi({
      [firstPage]: {
        items: [
          entry({ type: "Mint", from: ZERO, to: ME, logIndex: 2, viaSafe: { address: safe, name: "Operations Safe" } }),
          entry({ from: OTHER, to: ME }),
        ],
        nextCursor: null,
      },
    });
    renderPage();
    const [, mint, transfer] = within(await screen.findByRole("table")).getAllByRole("row");
    expect(within(mint).getByText("via Operations Safe")).toHaveAttribute(
      "title",
      `Executed by Operations Safe (${safe}), from a proposal its owners approved`,
    );
    expect(transfer).not.toHaveTextContent("via");
    expect(within(screen.getByRole("list", { name: "Transactions" })).getAllByText("via Operations Safe")).toHaveLength(1);
  });

  it("shows what really moved when rounding to whole shares moved less than the event says, with a note", async () => {
    connect();
    stubApi({
      [firstPage]: {
        items: [
          entry({ amount: "0.000000000000000002", amountRaw: "2", sharesMoved: "1", amountMoved: "1", logIndex: 2 }),
          entry({ amount: "0.000000000000000001", amountRaw: "1", sharesMoved: "0", amountMoved: "0", logIndex: 1 }),
          entry({
            type: "Mint",
            from: ZERO,
            to: ME,
            amount: "0.000000000000000001",
            amountRaw: "1",
            sharesMoved: "0",
            amountMoved: "0",
            blockNumber: 20,
          }),
          entry({ from: OTHER, to: ME, blockNumber: 10 }),
        ],
        nextCursor: null,
      },
    });
    renderPage();
    const table = await screen.findByRole("table");
    const [, rounded, nothing, dustMint, normal] = within(table).getAllByRole("row");
    expect(within(rounded).getByText("-0.000000000000000001")).toHaveClass("text-destructive");
    expect(
      within(rounded).getByText(
        "The event says 0.000000000000000002 USDX; 0.000000000000000001 USDX moved (rounded down to whole shares).",
      ),
    ).toBeInTheDocument();
    // Nothing moved: no sign, no colour, and the reason.
    expect(within(nothing).getByText("0.00")).toHaveClass("text-muted-foreground");
    expect(within(nothing).getByText("No shares moved: the amount is worth less than one share.")).toBeInTheDocument();
    expect(within(dustMint).getByText("Mint")).toBeInTheDocument();
    expect(within(dustMint).getByText("No shares moved: the amount is worth less than one share.")).toBeInTheDocument();
    // Everything moved: the event's amount, no note.
    expect(within(normal).getByText("+12.50")).toBeInTheDocument();
    expect(within(normal).queryByText(/moved/)).toBeNull();
    // The columns stay the spec's.
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual(["Type", "Tx Hash", "From", "To", "Amount", "Block", "Time"]);
  });
});
