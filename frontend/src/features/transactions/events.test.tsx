import { act, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { EVENT_FILTERS } from "@common/events";
import { EVENTS_TIMEOUT_MS } from "./api/events";
import { connect, event, eventPage, fetched, hash, json, ME, OTHER, renderPage, resetAll, stubApi, toasts } from "./testUtils";

const DEFAULT = "/api/events?limit=10";
const openEvents = (path = "/transactions?tab=events", options = {}) => renderPage(path, undefined, options);

describe("Transaction History: Contract Events", () => {
  beforeEach(resetAll);
  afterEach(() => vi.useRealTimers());

  it("asks for the latest 10 events without eventName, and shows badge, signature, arguments, links and time", async () => {
    connect();
    const fetchMock = stubApi({
      [DEFAULT]: eventPage([
        event(),
        event({
          name: "RewardMultiplier",
          signature: "RewardMultiplier(uint256)",
          transactionHash: hash(3),
          blockNumber: 36,
          args: { value: "1050000000000000000" },
        }),
        event({
          name: "RoleGranted",
          signature: "RoleGranted(bytes32,address,address)",
          transactionHash: hash(4),
          blockNumber: 35,
          args: { role: "0x9f2df0fed2c77648de5860a4cc508cd0818c85b8b8a1ab4ceeef8d981c8956a6", account: OTHER, sender: ME },
        }),
      ]),
    });
    const { user } = renderPage();
    await user.click(screen.getByRole("tab", { name: "Contract Events" }));
    await screen.findAllByText("Transfer(address,address,uint256)");
    const table = within(screen.getByRole("tabpanel", { name: "Contract Events" })).getByRole("table");
    expect(fetched(fetchMock).filter((url) => url.startsWith("/api/events"))).toEqual([DEFAULT]);
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual(["Event", "Details", "Transaction", "Block", "Time"]);
    const [, transfer, multiplier, role] = within(table).getAllByRole("row");
    expect(within(transfer).getByText("Transfer")).toBeInTheDocument();
    expect(within(transfer).getByText("Transfer(address,address,uint256)")).toBeInTheDocument();
    // Arguments in the contract's order, amounts in USDX, the wallet marked.
    expect(
      within(transfer)
        .getAllByRole("term")
        .map((t) => t.textContent),
    ).toEqual(["from", "to", "value"]);
    expect(within(transfer).getByText("2.00 USDX")).toBeInTheDocument();
    expect(within(transfer).getByRole("link", { name: `Address ${ME} (you)` })).toBeInTheDocument();
    expect(within(transfer).getByRole("link", { name: `Transaction ${hash(2)}` })).toHaveAttribute("href", `/tx/${hash(2)}`);
    expect(within(transfer).getByRole("link", { name: "Block 37" })).toHaveAttribute("href", "/block/37");
    expect(within(transfer).getByText("Just now")).toBeInTheDocument();
    expect(within(multiplier).getByText("1.0500x")).toBeInTheDocument();
    expect(within(role).getByText("MINTER_ROLE")).toBeInTheDocument();
    expect(screen.getByText("3 events in blocks 1 to 40, all that match")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Load Previous Events" })).toBeNull();
  });

  it("offers every filter of EVENT_FILTERS, and Apply sends eventName and the block range", async () => {
    const url = "/api/events?fromBlock=5&toBlock=30&limit=10&eventName=Paused";
    const fetchMock = stubApi({
      [DEFAULT]: eventPage([event()]),
      [url]: eventPage([event({ name: "Paused", signature: "Paused(address)", args: { account: ME } })]),
    });
    const { user } = openEvents();
    await screen.findByRole("table");
    await user.click(screen.getByRole("combobox", { name: "Event Type" }));
    expect((await screen.findAllByRole("option")).map((o) => o.textContent)).toEqual(EVENT_FILTERS.map((f) => f.label));
    await user.click(screen.getByRole("option", { name: "Pause" }));
    await user.type(screen.getByLabelText("From Block"), "5");
    await user.type(screen.getByLabelText("To Block"), "30");
    await user.click(screen.getByRole("button", { name: "Apply" }));
    expect(within(await screen.findByRole("table")).getByText("Paused")).toBeInTheDocument();
    expect(fetched(fetchMock)).toEqual([DEFAULT, url]);
  });

  it("with 'All Events' and only a From Block, sends no eventName", async () => {
    const fetchMock = stubApi({ [DEFAULT]: eventPage([event()]), "/api/events?fromBlock=12&limit=10": eventPage([event()]) });
    const { user } = openEvents();
    await screen.findByRole("table");
    await user.type(screen.getByLabelText("From Block"), "12{Enter}");
    await vi.waitFor(() => expect(fetched(fetchMock)).toEqual([DEFAULT, "/api/events?fromBlock=12&limit=10"]));
  });

  it("refuses a block that is not a whole number, and From Block after To Block, saying what is wrong", async () => {
    const fetchMock = stubApi({ [DEFAULT]: eventPage([event()]) });
    const { user } = openEvents();
    await screen.findByRole("table");
    await user.type(screen.getByLabelText("From Block"), "12.5");
    await user.type(screen.getByLabelText("To Block"), "abc");
    await user.click(screen.getByRole("button", { name: "Apply" }));
    expect(screen.getByLabelText("From Block")).toHaveAccessibleDescription("From Block must be a whole number (digits only, like 1200).");
    expect(screen.getByLabelText("To Block")).toHaveAccessibleDescription("To Block must be a whole number (digits only, like 1200).");
    expect(toasts()[0]).toMatchObject({ title: "Invalid block range", variant: "destructive" });

    await user.clear(screen.getByLabelText("From Block"));
    await user.type(screen.getByLabelText("From Block"), "500");
    await user.clear(screen.getByLabelText("To Block"));
    await user.type(screen.getByLabelText("To Block"), "100");
    await user.click(screen.getByRole("button", { name: "Apply" }));
    expect(screen.getByLabelText("From Block")).toHaveAccessibleDescription("From Block (500) must not be after To Block (100).");
    expect(fetched(fetchMock)).toEqual([DEFAULT]);
  });

  it("Reset clears the filter and shows all events again", async () => {
    const filtered = "/api/events?fromBlock=3&limit=10&eventName=Transfer";
    const fetchMock = stubApi({ [DEFAULT]: eventPage([event()]), [filtered]: eventPage([]) });
    const { user } = openEvents();
    await screen.findByRole("table");
    await user.click(screen.getByRole("combobox", { name: "Event Type" }));
    await user.click(await screen.findByRole("option", { name: "Transfer" }));
    await user.type(screen.getByLabelText("From Block"), "3");
    await user.click(screen.getByRole("button", { name: "Apply" }));
    expect(await screen.findByText("No events found for the specified criteria.")).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Reset" }));
    expect(await screen.findByRole("table")).toBeInTheDocument();
    expect(screen.getByLabelText("From Block")).toHaveValue("");
    expect(screen.getByRole("combobox", { name: "Event Type" })).toHaveTextContent("All Events");
    expect(fetched(fetchMock)).toEqual([DEFAULT, filtered]); // the first answer is still in the cache
  });

  it("'Load Previous Events' passes back the server's cursor and appends the older events below", async () => {
    const newer = Array.from({ length: 10 }, (_, i) => event({ blockNumber: 40 - i, transactionHash: hash(100 + i) }));
    const older = event({ blockNumber: 12, transactionHash: hash(7) });
    const fetchMock = stubApi({
      [DEFAULT]: eventPage(newer, { fromBlock: 31, toBlock: 40, hasMore: true }, "31-0"),
      [`${DEFAULT}&cursor=31-0`]: eventPage([older], { fromBlock: 1, toBlock: 40, hasMore: false }),
    });
    const { user } = openEvents();
    expect(await screen.findByText("10 events in blocks 31 to 40")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Load Previous Events" }));
    expect(await screen.findByText("11 events in blocks 1 to 40, all that match")).toBeInTheDocument();
    expect(fetched(fetchMock)).toEqual([DEFAULT, `${DEFAULT}&cursor=31-0`]);
    const rows = within(screen.getByRole("table")).getAllByRole("row");
    expect(within(rows[1]).getByRole("link", { name: "Block 40" })).toBeInTheDocument();
    expect(within(rows[rows.length - 1]).getByRole("link", { name: "Block 12" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Load Previous Events" })).toBeNull();
  });

  it("says 'via Operations Safe' under an event a Safe's executed proposal sent", async () => {
    const safe = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
    stubApi({ [DEFAULT]: eventPage([event({ logIndex: 2, viaSafe: { address: safe, name: "Operations Safe" } }), event()]) });
    openEvents();
    const [, sent, other] = within(await screen.findByRole("table")).getAllByRole("row");
    expect(within(sent).getByText("via Operations Safe")).toBeInTheDocument();
    expect(other).not.toHaveTextContent("via");
  });

  it("says 'No events found for the specified criteria.' when nothing matches", async () => {
    stubApi({ [DEFAULT]: eventPage([]) });
    openEvents();
    expect(await screen.findByText("No events found for the specified criteria.")).toBeInTheDocument();
  });

  it("on failure shows the 'Error' alert 'Failed to load contract events: {message}', and Retry loads them", async () => {
    let fail = true;
    stubApi({ [DEFAULT]: () => (fail ? json({ error: "database is down" }, 500) : json(eventPage([event()]))) });
    const { user } = openEvents();
    const alert = await screen.findByRole("alert");
    expect(within(alert).getByText("Error")).toBeInTheDocument();
    expect(alert).toHaveTextContent("Failed to load contract events: 500: database is down");
    fail = false;
    await user.click(within(alert).getByRole("button", { name: "Retry" }));
    expect(await screen.findByRole("table")).toBeInTheDocument();
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it(`after ${EVENTS_TIMEOUT_MS / 1000} s shows 'Request Timeout'; 'Retry with smaller block range' asks for the last 1,000 blocks`, async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const narrowed = "/api/events?fromBlock=4001&toBlock=5000&limit=10";
    const fetchMock = stubApi({
      [DEFAULT]: () => new Promise<Response>(() => {}), // never answers
      "/api/token": { blockNumber: 5000 },
      [narrowed]: eventPage([event({ blockNumber: 4990 })], { fromBlock: 4001, toBlock: 5000, hasMore: false }),
    });
    const { user } = openEvents("/transactions?tab=events", { advanceTimers: vi.advanceTimersByTime });
    expect(screen.getByRole("status", { name: "Loading contract events" })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(EVENTS_TIMEOUT_MS - 100));
    expect(screen.queryByText("Request Timeout")).toBeNull();
    act(() => vi.advanceTimersByTime(200));
    const alert = await screen.findByRole("alert");
    expect(within(alert).getByText("Request Timeout")).toBeInTheDocument();

    await user.click(within(alert).getByRole("button", { name: "Retry with smaller block range" }));
    expect(within(await screen.findByRole("table")).getByRole("link", { name: "Block 4990" })).toBeInTheDocument();
    expect(fetched(fetchMock)).toEqual([DEFAULT, "/api/token", narrowed]);
    expect(screen.getByLabelText("From Block")).toHaveValue("4001");
    expect(screen.getByLabelText("To Block")).toHaveValue("5000");
  });

  it("a timeout of a range already under 1,000 blocks retries with half of it", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const range = "/api/events?fromBlock=101&toBlock=300&limit=10";
    const half = "/api/events?fromBlock=201&toBlock=300&limit=10";
    const fetchMock = stubApi({
      [DEFAULT]: eventPage([event()]),
      [range]: () => new Promise<Response>(() => {}),
      [half]: eventPage([]),
    });
    const { user } = openEvents("/transactions?tab=events", { advanceTimers: vi.advanceTimersByTime });
    await screen.findByRole("table");
    await user.type(screen.getByLabelText("From Block"), "101");
    await user.type(screen.getByLabelText("To Block"), "300");
    await user.click(screen.getByRole("button", { name: "Apply" }));
    act(() => vi.advanceTimersByTime(EVENTS_TIMEOUT_MS));
    await user.click(await screen.findByRole("button", { name: "Retry with smaller block range" }));
    expect(await screen.findByText("No events found for the specified criteria.")).toBeInTheDocument();
    expect(fetched(fetchMock)).toEqual([DEFAULT, range, half]); // the range was known: no need to ask for the latest block
  });

  it("keeps the tab in the URL and the applied filter when switching tabs", async () => {
    const filtered = "/api/events?fromBlock=3&limit=10";
    stubApi({ [DEFAULT]: eventPage([event()]), [filtered]: eventPage([event({ blockNumber: 3 })]) });
    const { user } = renderPage();
    await user.click(screen.getByRole("tab", { name: "Contract Events" }));
    await user.type(await screen.findByLabelText("From Block"), "3{Enter}");
    expect(within(await screen.findByRole("table")).getByRole("link", { name: "Block 3" })).toBeInTheDocument();
    await user.click(screen.getByRole("tab", { name: "Your Transactions" }));
    expect(screen.getByText("Connect your wallet to view your transaction history.")).toBeInTheDocument();
    await user.click(screen.getByRole("tab", { name: "Contract Events" }));
    expect(screen.getByLabelText("From Block")).toHaveValue("3");
    expect(within(screen.getByRole("table")).getByRole("link", { name: "Block 3" })).toBeInTheDocument();
  });

  it("on a phone lists the same events, with their links", async () => {
    stubApi({ [DEFAULT]: eventPage([event()]) });
    openEvents();
    const list = await screen.findByRole("list", { name: "Contract events" });
    expect(within(list).getByText("Transfer")).toBeInTheDocument();
    expect(within(list).getByText("2.00 USDX")).toBeInTheDocument();
    expect(within(list).getByRole("link", { name: `Transaction ${hash(2)}` })).toHaveAttribute("href", `/tx/${hash(2)}`);
  });

  it("a failed 'Load Previous Events' keeps the events shown and retries the same page", async () => {
    let fail = true;
    stubApi({
      [DEFAULT]: eventPage([event()], { fromBlock: 37, toBlock: 40, hasMore: true }, "37-0"),
      [`${DEFAULT}&cursor=37-0`]: () => (fail ? json({ error: "busy" }, 503) : json(eventPage([event({ blockNumber: 5 })]))),
    });
    const { user } = openEvents();
    await user.click(await screen.findByRole("button", { name: "Load Previous Events" }));
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Failed to load contract events: 503: busy");
    expect(within(screen.getByRole("table")).getByRole("link", { name: "Block 37" })).toBeInTheDocument();
    fail = false;
    await user.click(within(alert).getByRole("button", { name: "Retry" }));
    expect(await screen.findByText("2 events in blocks 1 to 40, all that match")).toBeInTheDocument();
    expect(within(screen.getByRole("table")).getByRole("link", { name: "Block 5" })).toBeInTheDocument();
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("a Transfer that moved less than its value (whole shares, rounded down) says what moved, and why", async () => {
    stubApi({
      [DEFAULT]: eventPage([
        event({ args: { from: ME, to: OTHER, value: "2" }, sharesMoved: "1", amountMoved: "1", transactionHash: hash(11) }),
        event({ args: { from: ME, to: OTHER, value: "1" }, sharesMoved: "0", amountMoved: "0", transactionHash: hash(12), logIndex: 1 }),
        event({ sharesMoved: "2000000000000000000", amountMoved: "2000000000000000000", transactionHash: hash(13), logIndex: 2 }),
      ]),
    });
    openEvents();
    const table = await screen.findByRole("table");
    const [, rounded, nothing, whole] = within(table).getAllByRole("row");
    // The event's own value stays as the event says; what moved follows it.
    expect(
      within(rounded)
        .getAllByRole("term")
        .map((t) => t.textContent),
    ).toEqual(["from", "to", "value", "moved"]);
    expect(within(rounded).getByText("0.000000000000000002 USDX")).toBeInTheDocument();
    expect(within(rounded).getByText("0.000000000000000001 USDX")).toBeInTheDocument();
    expect(
      within(rounded).getByText(
        "The event says 0.000000000000000002 USDX; 0.000000000000000001 USDX moved (rounded down to whole shares).",
      ),
    ).toBeInTheDocument();
    expect(within(nothing).getByText("0.00 USDX")).toBeInTheDocument();
    expect(within(nothing).getByText("No shares moved: the amount is worth less than one share.")).toBeInTheDocument();
    // All of it moved: nothing more to say.
    expect(
      within(whole)
        .getAllByRole("term")
        .map((t) => t.textContent),
    ).toEqual(["from", "to", "value"]);
    expect(within(whole).queryByText(/moved/)).toBeNull();
  });
});
