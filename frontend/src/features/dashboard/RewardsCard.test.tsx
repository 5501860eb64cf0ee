import { screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { useAccountFigures, useMyRoles, useTokenFigures } from "@/lib/chain/queries";
import { initialWalletState, useWallet } from "@/lib/wallet/store";
import type { Rewards } from "./api/rewards";
import { RewardsCard, signedUsdx } from "./components/RewardsCard";
import DashboardPage from "./pages/DashboardPage";
import { ACCOUNT, connect, json, ME, ok, queryResult, renderAtHome, rolesResult, stubApi, TOKEN } from "./testUtils";

const { run } = vi.hoisted(() => ({ run: vi.fn() }));
vi.mock("@/lib/tx/runner", () => ({ useTransactor: () => run }));
vi.mock("@/lib/chain/queries", async () => (await import("./testUtils")).chainQueriesMock());

/** The server's answer for the history worked by hand in server/test/rewards.test.ts (Holly's). */
const HOLLY: Rewards = {
  address: ME,
  shares: "54545454545454545455",
  rewardMultiplier: "1200000000000000000",
  balance: "65454545454545454546",
  allTime: "15454545454545454546",
  last30Days: "5454545454545454546",
  fromTransfers: "50000000000000000000",
  asOf: { blockNumber: 1234, timestamp: 1764063000 },
};

const card = () => screen.getByRole("heading", { name: "Rewards earned" }).closest<HTMLElement>(".rounded-lg")!;

beforeEach(() => {
  useWallet.setState({ ...initialWalletState });
  run.mockReset().mockResolvedValue(ok);
  vi.mocked(useTokenFigures).mockReturnValue(queryResult({ data: TOKEN }));
  vi.mocked(useAccountFigures).mockImplementation((address) =>
    address ? queryResult({ data: ACCOUNT }) : queryResult({ disabled: true }),
  );
  vi.mocked(useMyRoles).mockReturnValue(rolesResult(ME, {}));
});

describe("Rewards earned (GET /api/rewards/:address)", () => {
  it("shows what the balance earned all time and in the last 30 days, what came from transfers, and how shares and the multiplier make a balance", async () => {
    const fetchMock = stubApi({ "/api/rewards/": () => json(HOLLY) });
    renderAtHome(<RewardsCard address={ME} />);
    expect(await screen.findByTestId("rewards-all-time")).toHaveTextContent("+15.45 USDX");
    expect(screen.getByTestId("rewards-30-days")).toHaveTextContent("+5.45 USDX");
    expect(card()).toHaveTextContent("Of your 65.45 USDX, 50.00 came from transfers. As of block 1,234; the 30 days end at its time.");
    expect(card()).toHaveTextContent("your balance is your shares times the reward multiplier");
    expect(card()).toHaveTextContent("when the multiplier rises, every holder's balance grows with no transfer at all");
    expect(fetchMock.mock.calls[0][0]).toBe(`/api/rewards/${ME}`);
  });

  it("shows a fall of the multiplier as a negative reward, and says so", async () => {
    stubApi({
      "/api/rewards/": () => json({ ...HOLLY, allTime: "-2727272727272727273", last30Days: "0", fromTransfers: "68181818181818181819" }),
    });
    renderAtHome(<RewardsCard address={ME} />);
    expect(await screen.findByTestId("rewards-all-time")).toHaveTextContent("-2.72 USDX");
    expect(screen.getByTestId("rewards-30-days")).toHaveTextContent("0.00 USDX");
    expect(card()).toHaveTextContent("The multiplier was lowered at some point: a fall counts as a negative reward.");
  });

  it("shows a failed read as the card's error text", async () => {
    stubApi({ "/api/rewards/": () => json({ success: false, error: "The database is not answering: try again in a moment." }, 503) });
    renderAtHome(<RewardsCard address={ME} />);
    expect(await within(card()).findByRole("alert")).toHaveTextContent("Error: 503: The database is not answering: try again in a moment.");
  });

  it("says so when the answer is not a rewards answer, instead of drawing it", async () => {
    stubApi({ "/api/rewards/": () => json({ items: [], nextCursor: null }) });
    renderAtHome(<RewardsCard address={ME} />);
    expect(await within(card()).findByRole("alert")).toHaveTextContent("Error: The server's rewards answer was not understood.");
    expect(screen.queryByTestId("rewards-all-time")).not.toBeInTheDocument();
  });

  it("is on the Dashboard only while a wallet is connected", async () => {
    stubApi({
      "/api/rewards/": () => json(HOLLY),
      "/api/accounts/": () => json({ items: [], nextCursor: null }),
      "/api/stats/supply": () => json({ points: [] }),
    });
    const { rerender } = renderAtHome(<DashboardPage />);
    expect(screen.queryByRole("heading", { name: "Rewards earned" })).not.toBeInTheDocument();
    connect();
    rerender(<DashboardPage />);
    expect(await screen.findByTestId("rewards-all-time")).toHaveTextContent("+15.45 USDX");
  });

  it("signs amounts: '+' for a gain, '-' for a loss, none for nothing, rounded down to 2 decimals", () => {
    expect(signedUsdx("1234567890000000000000")).toBe("+1,234.56");
    expect(signedUsdx("-1009999999999999999")).toBe("-1.00");
    expect(signedUsdx("0")).toBe("0.00");
  });
});
