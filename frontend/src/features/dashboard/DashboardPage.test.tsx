import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { useToasts } from "@/components/ui/toast";
import { useAccountFigures, useMyRoles, useTokenFigures } from "@/lib/chain/queries";
import { initialWalletState, useWallet } from "@/lib/wallet/store";
import { useSession } from "@/lib/auth/session";
import { encodeTokenCall } from "@common/safeCalls";
import { plainSafeTx } from "@common/safe";
import { OPERATIONS_SAFE, proposal, safeInfo, scriptedReader } from "@/test/safes";
import DashboardPage from "./pages/DashboardPage";
import {
  ACCOUNT,
  connect,
  json,
  lastToast,
  ME,
  ok,
  queryResult,
  renderAtHome,
  rolesResult,
  sentBy,
  stubApi,
  signInWithWallet,
  testConfig,
  TOKEN,
} from "./testUtils";

const { run, signSafeTx } = vi.hoisted(() => ({ run: vi.fn(), signSafeTx: vi.fn() }));
vi.mock("@/lib/tx/runner", () => ({ useTransactor: () => run }));
// A proposal to a Safe is dry-run on the read provider and signed by the wallet: both stand-ins.
vi.mock("@/lib/chain/contracts", async (original) => ({
  ...(await original<typeof import("@/lib/chain/contracts")>()),
  readProvider: () => scriptedReader(),
  signSafeTx,
}));
vi.mock("@/lib/chain/queries", async () => (await import("./testUtils")).chainQueriesMock());

const emptyApi = () =>
  stubApi({
    "/api/accounts/": () => json({ items: [], nextCursor: null }),
    "/api/stats/supply": () => json({ points: [] }),
    "/api/reward-multiplier": () => json({ success: true, id: 1 }, 201),
    // A wallet without ORACLE_ROLE is asked whether it owns a Safe that holds it: here none.
    "/api/safes": () => json({ safes: [] }),
  });

function chain({ token = queryResult({ data: TOKEN }), account = queryResult({ data: ACCOUNT }), roles = rolesResult(ME, {}) } = {}) {
  vi.mocked(useTokenFigures).mockReturnValue(token);
  vi.mocked(useAccountFigures).mockImplementation((address) => (address ? account : queryResult({ disabled: true })));
  vi.mocked(useMyRoles).mockReturnValue(roles);
}

const card = (title: string) => screen.getByRole("heading", { name: title }).closest<HTMLElement>(".rounded-lg")!;

beforeEach(() => {
  useToasts.setState({ toasts: [] });
  useWallet.setState({ ...initialWalletState });
  useSession.setState({ user: null, ready: false });
  run.mockReset().mockResolvedValue(ok);
  emptyApi();
  chain();
});

describe("Dashboard, no wallet connected", () => {
  beforeEach(() => chain({ roles: rolesResult(null, null) }));

  it("asks to connect, shows the balance as 0.00 with Transfer and History disabled", () => {
    renderAtHome(<DashboardPage adminFunctions={<div>Admin panel here</div>} />);
    expect(screen.getByRole("button", { name: "Connect Wallet" })).toBeInTheDocument();
    const balance = card("Your Balance");
    expect(within(balance).getByTestId("balance")).toHaveTextContent("0.00 USDX");
    expect(within(balance).getByRole("button", { name: "Transfer" })).toBeDisabled();
    expect(within(balance).getByRole("button", { name: "History" })).toBeDisabled();
    expect(screen.queryByRole("heading", { name: "Quick Actions" })).not.toBeInTheDocument();
    expect(screen.queryByText("Admin panel here")).not.toBeInTheDocument();
  });

  it("still shows total supply and the multiplier, read through the configured RPC", () => {
    renderAtHome(<DashboardPage />);
    expect(screen.getByTestId("total-supply")).toHaveTextContent("1,234,567.89 USDX");
    expect(screen.getByTestId("total-shares")).toHaveTextContent("1,175,778.94");
    expect(screen.getByTestId("reward-multiplier")).toHaveTextContent("1.0500x");
    expect(screen.getByRole("button", { name: "Add 0.01" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Advanced Settings" })).toBeDisabled();
  });

  it("says the figures need a wallet when there is no RPC to read through", () => {
    chain({ token: queryResult({ disabled: true }), roles: rolesResult(null, null) });
    renderAtHome(<DashboardPage />, { ...testConfig, rpcUrl: null });
    expect(screen.getByText("Connect a wallet to read the token's figures.")).toBeInTheDocument();
    expect(screen.queryByTestId("total-supply")).not.toBeInTheDocument();
  });

  it("shows 'Connect your wallet to view your transaction history.' in Recent Transactions", () => {
    renderAtHome(<DashboardPage />);
    expect(screen.getByText("Connect your wallet to view your transaction history.")).toBeInTheDocument();
  });
});

describe("Dashboard, wallet connected", () => {
  beforeEach(() => connect());

  it("shows Quick Actions with the network badge, the three summary cards, then the Admin Functions slot", () => {
    renderAtHome(<DashboardPage adminFunctions={<section aria-label="Admin Functions">Admin panel here</section>} />);
    const quick = card("Quick Actions");
    expect(within(quick).getByText(testConfig.networkLabel)).toBeInTheDocument();
    expect(within(quick).getByRole("button", { name: "Transfer" })).toBeEnabled();
    expect(within(quick).getByRole("button", { name: "Refresh Data" })).toBeEnabled();
    const summary = screen.getByRole("region", { name: "Summary" });
    const admin = screen.getByRole("region", { name: "Admin Functions" });
    expect(summary.compareDocumentPosition(admin) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Connect Wallet" })).not.toBeInTheDocument();
  });

  it("names a forked chain in the network badge: 'Sepolia fork @ 7,012,345'", () => {
    renderAtHome(<DashboardPage />, { ...testConfig, fork: { chainId: 11155111, name: "Sepolia", block: 7012345 } });
    const badge = within(card("Quick Actions")).getByLabelText("Network Sepolia fork @ 7,012,345");
    expect(badge).toHaveTextContent("Sepolia fork @ 7,012,345");
  });

  it("shows the balance and the shares it is made of, so a rebase is visible", () => {
    renderAtHome(<DashboardPage />);
    expect(screen.getByTestId("balance")).toHaveTextContent("1,234.56 USDX");
    expect(screen.getByTestId("shares")).toHaveTextContent("1,175.77 shares × multiplier 1.0500");
    expect(within(card("Your Balance")).getByText(/^Last updated:/)).toHaveTextContent("Last updated: Just now");
  });

  it("gives 'Last updated' its full local date and time as a tooltip once pointed at (not with the card: locale data is slow to load)", () => {
    renderAtHome(<DashboardPage />);
    const time = within(card("Your Balance")).getByText("Just now");
    expect(time).not.toHaveAttribute("title");
    fireEvent.pointerEnter(time);
    expect(time).toHaveAttribute("title", new Date(ACCOUNT.readAt).toLocaleString());
  });

  it("shows a spinner while the balance loads", () => {
    chain({ account: queryResult({ isLoading: true }) });
    renderAtHome(<DashboardPage />);
    expect(within(card("Your Balance")).getByRole("status", { name: "Loading Your Balance" })).toBeInTheDocument();
    expect(screen.queryByTestId("balance")).not.toBeInTheDocument();
  });

  it("shows a read failure as 'Error: {message}' and toasts 'Failed to load contract data' once", () => {
    chain({ account: queryResult({ isError: true, error: new Error("could not reach the node") }) });
    const { rerender } = renderAtHome(<DashboardPage />);
    expect(within(card("Your Balance")).getByRole("alert")).toHaveTextContent("Error: could not reach the node");
    expect(useToasts.getState().toasts).toHaveLength(1);
    expect(lastToast()).toMatchObject({ title: "Failed to load contract data", variant: "destructive" });
    useToasts.setState({ toasts: [] });
    rerender(<DashboardPage />);
    expect(useToasts.getState().toasts).toHaveLength(0);
  });

  it("says 'An unknown error occurred' for a failure without a message", () => {
    chain({ token: queryResult({ isError: true, error: {} }) });
    renderAtHome(<DashboardPage />);
    expect(within(card("Total Supply")).getByRole("alert")).toHaveTextContent("An unknown error occurred");
  });

  it("History goes to /transactions inside the app (a full page load would drop the wallet)", async () => {
    const { user } = renderAtHome(<DashboardPage />);
    await user.click(screen.getByRole("button", { name: "History" }));
    expect(screen.getByRole("heading", { name: "At /transactions" })).toBeInTheDocument();
    expect(useWallet.getState().status).toBe("connected");
  });

  it("Refresh Data refetches and toasts 'Data refreshed'", async () => {
    const { user, client } = renderAtHome(<DashboardPage />);
    const refetch = vi.spyOn(client, "refetchQueries");
    await user.click(screen.getByRole("button", { name: "Refresh Data" }));
    await waitFor(() => expect(lastToast()).toMatchObject({ title: "Data refreshed" }));
    expect(refetch).toHaveBeenCalledWith({ queryKey: ["chain"] }, { throwOnError: true });
    expect(refetch).toHaveBeenCalledWith({ queryKey: [`/api/accounts/${ME}/history?limit=5`] }, { throwOnError: true });
  });

  it("Refresh Data toasts 'Refresh failed' when a read fails", async () => {
    const { user } = renderAtHome(<DashboardPage />);
    await screen.findByText("No recent transactions found.");
    stubApi({ "/api/": () => json({ error: "indexer down" }, 503) });
    await user.click(screen.getByRole("button", { name: "Refresh Data" }));
    await waitFor(() => expect(lastToast()).toMatchObject({ title: "Refresh failed", variant: "destructive" }));
  });

  it("shows Contract Information: symbol, network, proxy and owner with copy buttons, and View Details", () => {
    renderAtHome(<DashboardPage />);
    const info = card("Contract Information");
    expect(within(info).getByText("USDX")).toBeInTheDocument();
    expect(within(info).getByText(testConfig.networkLabel)).toBeInTheDocument();
    expect(within(info).getByText(testConfig.contracts.proxy)).toBeInTheDocument();
    expect(within(info).getByText(testConfig.contracts.owner)).toBeInTheDocument();
    expect(within(info).getByRole("button", { name: `Copy ${testConfig.contracts.proxy}` })).toBeInTheDocument();
    expect(within(info).getByRole("button", { name: `Copy ${testConfig.contracts.owner}` })).toBeInTheDocument();
    expect(within(info).getByRole("link", { name: /View Details/ })).toHaveAttribute("href", "/settings");
  });

  it("names the forked chain beside the local one in Contract Information: 'Hardhat Local (Sepolia fork @ 7,012,345)'", () => {
    renderAtHome(<DashboardPage />, {
      ...testConfig,
      networkLabel: "Hardhat Local",
      fork: { chainId: 11155111, name: "Sepolia", block: 7012345 },
    });
    const network = within(card("Contract Information")).getByText("Network").nextElementSibling;
    expect(network).toHaveTextContent(/^Hardhat Local \(Sepolia fork @ 7,012,345\)$/);
  });
});

describe("Reward Multiplier card", () => {
  beforeEach(() => connect());

  it("disables 'Add 0.01' and 'Advanced Settings' for a wallet without ORACLE_ROLE (and no Safe holding it)", async () => {
    chain({ roles: rolesResult(ME, { MINTER_ROLE: true }) });
    renderAtHome(<DashboardPage />);
    expect(await screen.findByText("Only ORACLE_ROLE holders can change it.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Add 0.01" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Advanced Settings" })).toBeDisabled();
  });

  it("shows the multiplier with 4 decimals and x, and the note 'Controls token/share ratio'", () => {
    renderAtHome(<DashboardPage />);
    expect(screen.getByTestId("reward-multiplier")).toHaveTextContent("1.0500x");
    expect(screen.getByText("Controls token/share ratio")).toBeInTheDocument();
  });

  it("'Add 0.01' records the request (from the wallet's own session), then runs quickAddCall (add 1e16)", async () => {
    chain({ roles: rolesResult(ME, { ORACLE_ROLE: true }) });
    signInWithWallet(ME);
    const order: string[] = [];
    const fetchMock = stubApi({
      "/api/reward-multiplier": () => (order.push("post"), json({ success: true }, 201)),
      "/api/": () => json({ items: [], points: [], nextCursor: null }),
    });
    run.mockImplementation(async () => (order.push("run"), ok));
    const { user } = renderAtHome(<DashboardPage />);
    await user.click(screen.getByRole("button", { name: "Add 0.01" }));
    await waitFor(() => expect(run).toHaveBeenCalledTimes(1));
    expect(order).toEqual(["post", "run"]);
    const post = fetchMock.mock.calls.find(([url]) => String(url) === "/api/reward-multiplier")!;
    expect(JSON.parse(String(post[1]!.body))).toEqual({ value: "0.01", operation: "add" });
    const request = run.mock.calls[0][0];
    expect(request.success).toEqual({ title: "Reward multiplier incremented", description: "Added 0.01 to the reward multiplier" });
    expect((await sentBy(request)).addRewardMultiplier).toHaveBeenCalledWith(10n ** 16n);
    // The status modal says what it does to every balance (1.05 -> 1.06).
    expect(request.action).toBe("Add 0.01 to the reward multiplier (+0.9524% to every balance)");
  });

  it("'Add 0.01' is not offered where it would step past the deployment's bound (0.5% here): Advanced Settings asks for the value twice", () => {
    chain({ roles: rolesResult(ME, { ORACLE_ROLE: true }) });
    renderAtHome(<DashboardPage />, { ...testConfig, multiplierMaxStepPercent: 0.5 });
    expect(screen.getByRole("button", { name: "Add 0.01" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Advanced Settings" })).toBeEnabled();
    expect(screen.getByText(/Adding 0\.01 now moves every balance by more than this deployment allows in one click/)).toBeInTheDocument();
  });

  it("for an owner of a Safe holding ORACLE_ROLE (not the wallet), 'Propose Add 0.01' records the request, then proposes add 0.01 to the Safe", async () => {
    chain({ roles: rolesResult(ME, { MINTER_ROLE: true }) });
    const safe = safeInfo({ owners: [ME, "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"] });
    const posted: { tx: unknown }[] = [];
    signSafeTx.mockResolvedValue(`0x${"cd".repeat(64)}1c`);
    stubApi({
      "/api/reward-multiplier": () => json({ success: true }, 201),
      [`/api/safes/${OPERATIONS_SAFE}/proposals`]: (init) => {
        const body = JSON.parse(String(init?.body));
        posted.push(body);
        return json({ proposal: proposal(31337, safe, body.tx, [{ owner: ME }]) }, 201);
      },
      "/api/safes": () => json({ safes: [safe] }),
      "/api/": () => json({ items: [], points: [], nextCursor: null }),
    });
    const { user } = renderAtHome(<DashboardPage />);
    const button = await screen.findByRole("button", { name: "Propose Add 0.01" });
    expect(button).toBeEnabled();
    expect(screen.getByRole("button", { name: "Advanced Settings" })).toBeEnabled();
    expect(screen.getByText(/Operations Safe needs 2 of 2 owners' approvals before this runs\./)).toBeInTheDocument();
    expect(screen.queryByText("Only ORACLE_ROLE holders can change it.")).not.toBeInTheDocument();

    await user.click(button);
    await waitFor(() =>
      expect(lastToast()).toMatchObject({ title: "Proposed to Operations Safe", description: "Awaiting 1 more approval" }),
    );
    expect(posted.map((p) => p.tx)).toEqual([
      plainSafeTx(testConfig.contracts.proxy, encodeTokenCall("addRewardMultiplier", [10n ** 16n]), "5"),
    ]);
    expect(run).not.toHaveBeenCalled();
  });

  it("'Advanced Settings' opens 'Update Reward Multiplier' for an oracle", async () => {
    chain({ roles: rolesResult(ME, { ORACLE_ROLE: true }) });
    const { user } = renderAtHome(<DashboardPage />);
    await user.click(screen.getByRole("button", { name: "Advanced Settings" }));
    expect(await screen.findByRole("dialog", { name: "Update Reward Multiplier" })).toBeInTheDocument();
  });
});

describe("Supply chart", () => {
  beforeEach(() => connect());

  it("says 'Not enough history yet' with fewer than 2 points", async () => {
    stubApi({
      "/api/stats/supply": () =>
        json({ points: [{ blockNumber: 1, timestamp: 1, totalSupply: "100.0", totalShares: "100.0", rewardMultiplier: "1.0" }] }),
      "/api/": () => json({ items: [], nextCursor: null }),
    });
    renderAtHome(<DashboardPage />);
    expect(await screen.findByText("Not enough history yet")).toBeInTheDocument();
  });

  it("draws the chart (its own lazy chunk) with 2 points or more", async () => {
    const point = (blockNumber: number, supply: string, multiplier: string) => ({
      blockNumber,
      timestamp: 1_700_000_000 + blockNumber * 12,
      totalSupply: supply,
      totalShares: supply,
      rewardMultiplier: multiplier,
    });
    stubApi({
      "/api/stats/supply": () => json({ points: [point(1, "100.0", "1.0"), point(2, "105.0", "1.05")] }),
      "/api/": () => json({ items: [], nextCursor: null }),
    });
    // A browser without IntersectionObserver draws it at once (useNearViewport); the DOM here lays
    // nothing out, so an observer would never see the card come on screen.
    vi.stubGlobal("IntersectionObserver", undefined);
    renderAtHome(<DashboardPage />);
    const chart = await screen.findByRole(
      "img",
      { name: "Chart of total supply and reward multiplier over 2 points in time" },
      { timeout: 5000 },
    );
    // No canvas here: the legend is what there is to read.
    expect(
      within(chart)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(["Total Supply", "Reward Multiplier"]);
    await act(async () => {});
  });

  it("waits for its card to come on screen, or within a screen's height of it once the page has been scrolled", async () => {
    const margins: string[] = [];
    const observed: (() => void)[] = [];
    vi.stubGlobal(
      "IntersectionObserver",
      class {
        constructor(
          private readonly seen: (entries: { isIntersecting: boolean }[]) => void,
          options: { rootMargin: string },
        ) {
          margins.push(options.rootMargin);
          observed.push(() => this.seen([{ isIntersecting: true }]));
        }
        observe() {}
        disconnect() {}
      },
    );
    const point = (blockNumber: number) => ({
      blockNumber,
      timestamp: 1_700_000_000 + blockNumber,
      totalSupply: "1.0",
      totalShares: "1.0",
      rewardMultiplier: "1.0",
    });
    stubApi({
      "/api/stats/supply": () => json({ points: [point(1), point(2)] }),
      "/api/": () => json({ items: [], nextCursor: null }),
    });
    try {
      renderAtHome(<DashboardPage />);
      expect(await screen.findByRole("status", { name: "Loading chart" })).toBeInTheDocument();
      expect(margins).toEqual(["0px"]);
      act(() => void window.dispatchEvent(new Event("scroll")));
      expect(margins).toEqual(["0px", "100% 0px"]);
      expect(screen.queryByRole("img", { name: /^Chart of total supply/ })).not.toBeInTheDocument();
      act(() => observed[1]());
      expect(await screen.findByRole("img", { name: /^Chart of total supply/ }, { timeout: 5000 })).toBeInTheDocument();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
