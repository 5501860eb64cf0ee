/**
 * Idle RPC bench (`npm run bench:rpc-idle`): what the API server costs a hosted RPC key while
 * nobody uses it. Every call is money on a provider's key, so the figure is named and held:
 * at most TARGET_PER_MINUTE calls a minute with Sepolia's settings (the indexer polling every 6 s,
 * 5 confirmations, the deployment checked every 5 minutes, the mock bank off) on a chain that mines
 * a block every 12 s. The server runs in this process against a Hardhat node; its transport
 * counts every JSON-RPC call by method. Loopback only; prints figures.
 * Then the same time again while ~1,000 GET /api/health a second arrive (issue 29: a public request
 * must not reach the provider), and it prints the provider's calls a second in both and their ratio.
 * BENCH_WS=1 gives the server the node's WebSocket endpoint (RPC_WS_URL): its pushed heads wake the
 * loops instead of their polling (issue 30's goal: at most WS_TARGET_PER_MINUTE calls a minute); the
 * subscription's messages are no HTTP calls and are counted apart (some plans bill them per message).
 *   BENCH_IDLE_SECONDS (default 60), BENCH_BLOCK_MS (default 12000), BENCH_HEALTH_PER_SECOND (default 1000), BENCH_WS.
 */
import { formatTable } from "@common/textTable";
import { startServer } from "../server/src/index";
import { createLogger } from "../server/src/lib/logger";
import { testConfig } from "../server/test/helpers";
import { rpc, startStack } from "../server/test/stack";

const SECONDS = Number(process.env.BENCH_IDLE_SECONDS || 60);
const BLOCK_MS = Number(process.env.BENCH_BLOCK_MS || 12_000);
const HEALTH_PER_SECOND = Number(process.env.BENCH_HEALTH_PER_SECOND || 1000);
/** Health calls sent per tick of the load (every 100 ms); past this many unanswered, a tick sends none (the bench measures the provider, not the server's queue). */
const HEALTH_TICK_MS = 100;
const MAX_IN_FLIGHT = 2000;
/**
 * The figure held, issue 30's goal polling: 10 indexer steps a minute at 1 call each (the tip; a
 * poll that finds the same tip is done), plus 5 new blocks a minute at 1 call each (the confirmed
 * block's logs, by the hash its tip read gave), and the deployment check's 2 calls every 5 minutes:
 * about 15.4.
 */
const TARGET_PER_MINUTE = 20;
/** Issue 30's goal with pushed heads: the loops step once a head, and poll only as a safety net. */
const WS_TARGET_PER_MINUTE = 6;
const WS = process.env.BENCH_WS === "1";

async function main(): Promise<void> {
  console.log("Starting a Hardhat node (deployed and seeded) and the Auth emulator...");
  const stack = await startStack();
  (globalThis as { usdxStack?: unknown }).usdxStack = stack;
  try {
    const config = testConfig({
      // Sepolia's defaults (server/src/config/index.ts), on the local node.
      INDEXER_POLL_MS: "6000",
      INDEXER_CONFIRMATIONS: "5",
      INDEXER_DEPLOYMENT_CHECK_MS: "300000",
      MOCK_BANK: "off",
      // The Hardhat node answers WebSocket on its HTTP port.
      ...(WS ? { RPC_WS_URL: stack.rpcUrl.replace(/^http/, "ws") } : {}),
    });
    const server = await startServer(config, createLogger("silent"));
    const mining = setInterval(() => void rpc(stack.rpcUrl, "evm_mine").catch(() => undefined), BLOCK_MS);
    try {
      // Let the first catch-up pass, then count from a clean start.
      await server.services.indexer.syncOnce();
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const heads = server.services.heads;
      if (WS && !heads?.live) throw new Error("BENCH_WS=1, but the server's heads subscription is not live.");
      const before = server.services.chain.transport.snapshot();
      const headsBefore = heads ? { ...heads.counts } : null;
      console.log(`Idle for ${SECONDS} s, a block every ${BLOCK_MS / 1000} s...`);
      await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
      const after = server.services.chain.transport.snapshot();
      const headsAfter = heads ? { ...heads.counts } : null;
      const methods = Object.keys(after.calls).sort();
      const rows = methods
        .map((m) => [m, after.calls[m] - (before.calls[m] ?? 0)] as const)
        .filter(([, n]) => n > 0)
        .map(([m, n]) => [m, String(n), ((n * 60) / SECONDS).toFixed(1)]);
      const total = methods.reduce((sum, m) => sum + after.calls[m] - (before.calls[m] ?? 0), 0);
      const perMinute = (total * 60) / SECONDS;
      const how = WS ? "heads pushed over WebSocket" : "heads polled";
      console.log(`\nRPC calls at idle over ${SECONDS} s (Sepolia's settings, ${how}, a block every ${BLOCK_MS / 1000} s)\n`);
      console.log(formatTable(["method", "calls", "a minute"], [...rows, ["all", String(total), perMinute.toFixed(1)]]));
      if (headsBefore && headsAfter) {
        const d = (k: keyof typeof headsAfter) => headsAfter[k] - headsBefore[k];
        console.log(
          `\nWebSocket messages (not HTTP calls): ${d("received")} received (${d("heads")} heads), ${d("sent")} sent, ${d("connections")} new sockets: ${((d("received") * 60) / SECONDS).toFixed(1)} received a minute`,
        );
      }
      const target = WS ? WS_TARGET_PER_MINUTE : TARGET_PER_MINUTE;
      const met = perMinute <= target;
      console.log(
        `\nidle RPC calls (${how}): ${perMinute.toFixed(1)} a minute; target at most ${target}: ratio ${(perMinute / target).toFixed(3)}: ${met ? "met" : "MISSED"}`,
      );
      if (!met) process.exitCode = 1;

      // The same time again, while health checks arrive: what they cost the provider.
      console.log(`\nAgain for ${SECONDS} s, while ${HEALTH_PER_SECOND} GET /api/health a second arrive...`);
      const load = await healthLoad(server.url, SECONDS * 1000, () => server.services.chain.transport.snapshot());
      const total2 = Object.values(load.calls).reduce((a, b) => a + b, 0);
      const idlePerSecond = total / SECONDS;
      const loadPerSecond = total2 / SECONDS;
      console.log(
        formatTable(
          ["window", "health calls a second", "provider calls", "provider calls a second"],
          [
            ["idle", "0", String(total), idlePerSecond.toFixed(3)],
            [`health load`, (load.answered / SECONDS).toFixed(0), String(total2), loadPerSecond.toFixed(3)],
          ],
        ),
      );
      const ratio = idlePerSecond === 0 ? (loadPerSecond === 0 ? 1 : Infinity) : loadPerSecond / idlePerSecond;
      console.log(
        `\nprovider calls a second under health load / at idle: ${loadPerSecond.toFixed(3)} / ${idlePerSecond.toFixed(3)} = ratio ${ratio.toFixed(2)} (${load.answered} health calls answered, ${load.failed} failed)`,
      );
      const statusRows = Object.entries(load.statuses).sort(([a], [b]) => a.localeCompare(b));
      console.log(
        `\nhealth answers by status\n\n${formatTable(
          ["status", "health calls"],
          statusRows.map(([s, n]) => [s, String(n)]),
        )}`,
      );
    } finally {
      clearInterval(mining);
      await server.close();
    }
  } finally {
    await stack.stop();
  }
}

/** Sends GET /api/health at HEALTH_PER_SECOND for `ms`; the provider calls the transport counted meanwhile, by method. */
async function healthLoad(
  baseUrl: string,
  ms: number,
  snapshot: () => { calls: Record<string, number> },
): Promise<{ answered: number; failed: number; statuses: Record<string, number>; calls: Record<string, number> }> {
  const before = snapshot();
  let inFlight = 0;
  let answered = 0;
  let failed = 0;
  // Every answer by status, and requests that got none: what a failed health check said.
  const statuses: Record<string, number> = {};
  const note = (status: string) => (statuses[status] = (statuses[status] ?? 0) + 1);
  const perTick = Math.round((HEALTH_PER_SECOND * HEALTH_TICK_MS) / 1000);
  const tick = setInterval(() => {
    if (inFlight > MAX_IN_FLIGHT) return;
    for (let i = 0; i < perTick; i++) {
      inFlight++;
      fetch(`${baseUrl}/api/health`)
        .then(async (res) => {
          await res.arrayBuffer();
          note(String(res.status));
          if (res.ok) answered++;
          else failed++;
        })
        .catch(() => {
          note("no answer");
          failed++;
        })
        .finally(() => inFlight--);
    }
  }, HEALTH_TICK_MS);
  await new Promise((resolve) => setTimeout(resolve, ms));
  clearInterval(tick);
  const after = snapshot();
  const calls: Record<string, number> = {};
  for (const m of Object.keys(after.calls)) calls[m] = after.calls[m] - (before.calls[m] ?? 0);
  while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 50));
  return { answered, failed, statuses, calls };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
