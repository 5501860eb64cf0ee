import { expect } from "chai";
import type { RunningServer } from "../src/index";
import { RpcRateLimitedError } from "../src/chain/rpcTransport";
import { call, startTestServer, stack } from "./helpers";
import { ProviderProxy, type Seen } from "./providerProxy";

/**
 * Issue 30, item 4: one request budget for every loop that reads the chain. A proxy of ours plays
 * the provider and records when each request reached it; the server's own loops (indexer, batch
 * watcher, mock bank, alerts) run meanwhile, and the test adds reads of its own from several
 * "loops" at once: token reads, raw calls, ethers' provider (whose concurrent calls go as one batch).
 */

const RATE = 5;
/** Requests let through before a 429 came back may reach the proxy this long after it. */
const IN_FLIGHT_MS = 500;
/** The provider's Retry-After in the 429 test: longer than the loops run, so the budget is still lowered when the test reads it. */
const RETRY_AFTER_S = 10;

/** Calls in the proxy's busiest second (a batch of N counts N), from `seen` at or after `from`. */
function busiestSecond(seen: Seen[], from = 0): number {
  const sent = seen.filter((s) => s.at >= from);
  let most = 0;
  for (const start of sent) {
    const inWindow = sent.filter((s) => s.at >= start.at && s.at < start.at + 1000);
    most = Math.max(
      most,
      inWindow.reduce((sum, s) => sum + s.methods.length, 0),
    );
  }
  return most;
}

/**
 * Several loops at once, each calling again as soon as its last call ended, for `ms`: answers how
 * many calls succeeded, how many the budget (or the provider) refused for rate, and any other failure.
 */
async function severalLoops(server: RunningServer, ms: number): Promise<{ ok: number; limited: number; other: unknown[] }> {
  const { chain, tokenState, indexer, batchWatcher } = server.services;
  const loops: (() => Promise<unknown>)[] = [
    () => chain.rawRpc("eth_blockNumber", []),
    () => chain.rawRpc("eth_chainId", []),
    () => chain.rawRpc("eth_getBlockByNumber", ["latest", false]),
    () => chain.provider.getBlockNumber(),
    // ethers sends concurrent calls as one batch: a batch of N costs N.
    () => Promise.all([chain.usdx.totalSupply(), chain.usdx.paused(), chain.provider.getBlockNumber()]),
    () => tokenState.token(),
    () => indexer.syncOnce(),
    () => batchWatcher.runOnce(),
  ];
  const deadline = Date.now() + ms;
  const outcome = { ok: 0, limited: 0, other: [] as unknown[] };
  await Promise.all(
    loops.map(async (loop) => {
      while (Date.now() < deadline) {
        let pause = 20; // a loop's own work between two reads (and no spinning on a cached answer)
        try {
          await loop();
          outcome.ok++;
        } catch (error) {
          if (error instanceof RpcRateLimitedError) outcome.limited++;
          else outcome.other.push(error);
          pause = 100; // a loop defers after a failure
        }
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }),
  );
  return outcome;
}

describe("One RPC request budget for every loop (a proxy plays the provider)", function () {
  this.timeout(120_000);
  let proxy: ProviderProxy;

  before(async () => {
    proxy = await new ProviderProxy(stack().rpcUrl).start();
  });
  after(async () => {
    await proxy.stop();
  });
  beforeEach(() => {
    proxy.seen.length = 0;
    proxy.settings = {};
  });

  it(`RPC_REQUESTS_PER_SECOND=${RATE}: many concurrent calls from several loops reach the provider spaced to the budget (no second holds more than the rate plus the bucket's one-second burst)`, async () => {
    const server = await startTestServer({ RPC_URL: proxy.url, RPC_REQUESTS_PER_SECOND: String(RATE) });
    try {
      const from = Date.now();
      const outcome = await severalLoops(server, 4000);
      expect(outcome.other, "failures other than the budget's refusal").to.deep.equal([]);
      expect(outcome.ok, "calls answered").to.be.at.least(10);
      const spent = proxy.seen.filter((s) => s.at >= from);
      expect(spent.length, "requests sent").to.be.at.least(10);
      // The bucket holds one second of requests: a second may see its burst plus the rate (and one
      // more where the burst's requests reached the proxy a few ms after they were let through).
      expect(busiestSecond(proxy.seen, from), "calls in the busiest second").to.be.at.most(2 * RATE + 1);
      // Over the whole run the rate holds: a burst, then RATE a second.
      const seconds = (spent[spent.length - 1].at - spent[0].at) / 1000;
      const calls = spent.reduce((sum, s) => sum + s.methods.length, 0);
      expect(calls, `${calls} calls in ${seconds.toFixed(1)} s`).to.be.at.most(RATE + Math.ceil(seconds * RATE) + 1);
      const budget = server.services.chain.transport.budget.status();
      expect(budget.waits, "requests that waited their turn").to.be.greaterThan(0);
    } finally {
      await server.close();
    }
  });

  it("a 429 with Retry-After lowers the rate for a while: callers keep going at the lower rate instead of all stopping, and the metrics and /api/monitoring say so", async () => {
    const configured = 10;
    const server = await startTestServer({ RPC_URL: proxy.url, RPC_REQUESTS_PER_SECOND: String(configured) });
    try {
      proxy.seen.length = 0;
      proxy.settings = { refuseNext: 1, retryAfter: String(RETRY_AFTER_S) };
      const outcome = await severalLoops(server, 4000);
      expect(outcome.other, "failures other than the budget's refusal").to.deep.equal([]);
      const refused = proxy.seen.find((s) => s.status === 429);
      expect(refused, "the provider's 429").to.not.equal(undefined);
      // Within the provider's Retry-After, calls went on (a stop-all cool-down sent none)... The
      // first half second is left out: requests let through before the 429 came back were still on their way.
      const windowMs = 3000;
      const during = proxy.seen.filter((s) => s.at > refused!.at + IN_FLIGHT_MS && s.at < refused!.at + IN_FLIGHT_MS + windowMs);
      const calls = during.reduce((sum, s) => sum + s.methods.length, 0);
      const lowered = configured / 2;
      expect(calls, "calls sent during the Retry-After").to.be.at.least(lowered);
      // ...at half the rate: at most a second's burst at the lower rate (where the loops paused and
      // the bucket refilled) plus the lower rate; the configured rate would have let twice that through.
      expect(calls, "calls during the Retry-After").to.be.at.most(lowered + (windowMs / 1000) * lowered + 1);
      expect(busiestSecond(during), "calls in the busiest second after the 429").to.be.at.most(2 * lowered + 1);
      // Most callers were answered rather than refused.
      expect(outcome.ok, `answered (${outcome.limited} refused for rate)`).to.be.greaterThan(outcome.limited);

      const status = server.services.chain.transport.budget.status();
      expect(status).to.deep.include({ configuredPerSecond: configured, allowedPerSecond: configured / 2 });
      expect(status.lowered).to.not.equal(null);

      const metrics = await call<string>(server, "GET", "/api/metrics");
      expect(metrics.status).to.equal(200);
      expect(metrics.body).to.match(new RegExp(`^usdx_rpc_budget_allowed_requests_per_second ${configured / 2}$`, "m"));
      expect(metrics.body).to.match(new RegExp(`^usdx_rpc_budget_configured_requests_per_second ${configured}$`, "m"));
      expect(metrics.body).to.match(/^usdx_rpc_budget_lowered_until_seconds \d+(\.\d+)?$/m);
      const spentTotal = Number(/^usdx_rpc_budget_spent_requests_total (\d+)$/m.exec(metrics.body)?.[1]);
      expect(spentTotal, "spent in the metrics").to.be.at.least(proxy.seen.length);
      expect(Number(/^usdx_rpc_budget_spent_requests_per_second (\S+)$/m.exec(metrics.body)?.[1])).to.be.greaterThan(0);
      expect(Number(/^usdx_rpc_budget_lowerings_total (\d+)$/m.exec(metrics.body)?.[1])).to.equal(1);

      const monitoring = await call(server, "GET", "/api/monitoring");
      expect(monitoring.status).to.equal(200);
      const budget = monitoring.body.rpcBudget as Record<string, unknown>;
      expect(budget).to.deep.include({ plan: "custom", configuredPerSecond: configured, allowedPerSecond: configured / 2 });
      expect(Date.parse(budget.loweredUntil as string)).to.be.within(
        refused!.at + RETRY_AFTER_S * 1000 - 500,
        refused!.at + RETRY_AFTER_S * 1000 + 2000,
      );
      expect(budget.spentTotal as number).to.be.at.least(proxy.seen.length);
      expect(budget.spentPerSecond as number).to.be.greaterThan(0);
      expect(budget.waits as number).to.be.greaterThan(0);
    } finally {
      await server.close();
    }
  });

  it("the local chain's default is no limit: nothing waits, and /api/monitoring says so", async () => {
    const server = await startTestServer({ RPC_URL: proxy.url });
    try {
      await severalLoops(server, 1000);
      const monitoring = await call(server, "GET", "/api/monitoring");
      expect(monitoring.body.rpcBudget).to.deep.include({
        plan: "unlimited",
        configuredPerSecond: null,
        allowedPerSecond: null,
        loweredUntil: null,
        waits: 0,
      });
    } finally {
      await server.close();
    }
  });
});
