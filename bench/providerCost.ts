/**
 * What following the chain costs a hosted provider (`npm run bench:provider`; issue 30's figures).
 * The chain: its seed, then BENCH_DENSE_PAYMENTS batch payments of 10 recipients, one a block (about
 * 11 events in every block: the dense stretch), written once. For each provider profile (the test
 * proxy, server/test/providerProxy.ts, in front of the node: its eth_getLogs range, 40 ms a request,
 * a free plan's odd 429) and each checkout of the server (this one; with BENCH_BEFORE=<dir>, also
 * the server code checked out there, the same proxy and chain, one after the other):
 *   1. a fresh server (its own process, an in-memory index, Sepolia's indexer settings but no
 *      confirmations) indexes the whole chain from the deployment: requests for the dense stretch;
 *   2. BENCH_EMPTY_BLOCKS (20,000) empty blocks are mined at once, and the same server catches up
 *      on them: requests and seconds;
 *   and its index must then equal the chain's (every event by block, position and block hash).
 * The chain is put back (evm_revert) between runs, so each server sees the same blocks.
 * "Requests" are HTTP requests the provider answered (a batch is one; its calls are counted too);
 * the floor is the blocks over the plan's range: one eth_getLogs a range and nothing else.
 * Prints each figure beside its goal. Loopback only.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { JsonRpcProvider } from "ethers";
import { readManifest } from "@common/manifestFile";
import { seededAccount } from "@common/seedAccounts";
import { formatTable } from "@common/textTable";
import { startProcess, stopProcess, waitFor } from "../scripts/lib/stack/processes";
import { FIREBASE_PROJECT } from "../scripts/lib/stack/parts";
import { PROVIDERS, ProviderProxy, type ProxySettings } from "../server/test/providerProxy";
import { freePort, rpc as nodeRpc, startStack, type Stack } from "../server/test/stack";
import { payFreshAddresses } from "./lib/payments";

const DENSE_PAYMENTS = Number(process.env.BENCH_DENSE_PAYMENTS || 1000);
const EMPTY_BLOCKS = Number(process.env.BENCH_EMPTY_BLOCKS || 20_000);
const BEFORE = process.env.BENCH_BEFORE ? path.resolve(process.env.BENCH_BEFORE) : null;
const LATENCY_MS = 40;
/** The goals of issue 30: requests at most 1.1 times the floor; the catch-up 3 times faster than before. */
const FLOOR_RATIO_GOAL = 1.1;
const SPEED_GOAL = 3;

interface Profile {
  key: string;
  name: string;
  range: number;
  proxy: ProxySettings;
}

const PROFILES: Profile[] = [
  {
    key: "free",
    name: "free plan (10-block eth_getLogs, a 429 every 97th request)",
    range: 10,
    proxy: { logs: PROVIDERS.alchemy(10), latencyMs: LATENCY_MS, rateLimitEvery: 97, retryAfter: "1" },
  },
  {
    key: "paid",
    name: "paid plan (2,000-block eth_getLogs)",
    range: 2000,
    proxy: { logs: PROVIDERS.alchemy(2000), latencyMs: LATENCY_MS },
  },
];

interface Stretch {
  requests: number;
  calls: number;
  seconds: number;
  blocks: number;
}

interface Run {
  code: "before" | "after";
  profile: Profile;
  dense: Stretch;
  empty: Stretch;
  equal: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A call to the node, tried again once: a kept-alive socket the node closed while idle fails the first try. */
async function rpc<T = unknown>(url: string, method: string, params: unknown[] = []): Promise<T> {
  try {
    return await nodeRpc<T>(url, method, params);
  } catch {
    await sleep(100);
    return nodeRpc<T>(url, method, params);
  }
}

async function main(): Promise<void> {
  console.log("Starting a Hardhat node (deployed and seeded) and the Auth emulator...");
  const stack = await startStack();
  const node = new JsonRpcProvider(stack.rpcUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
  const manifest = readManifest("localhost", { DEPLOYMENTS_DIR: stack.deploymentsDir });
  try {
    console.log(`Writing ${DENSE_PAYMENTS} batch payments of 10 recipients, one a block...`);
    const denseFrom = (await node.getBlockNumber()) + 1;
    const payer = await node.getSigner(seededAccount("alice").index);
    await payFreshAddresses(payer, manifest, { txs: DENSE_PAYMENTS, perTx: 10, reference: "dense", amount: () => 1n });
    const denseTo = await node.getBlockNumber();
    const chain = await chainKeys(node, [manifest.proxy, manifest.batchPayments], manifest.deploymentBlock, denseTo);
    console.log(`  blocks ${denseFrom}..${denseTo}: ${chain.length} events since the deployment`);
    const runs: Run[] = [];
    for (const profile of PROFILES) {
      for (const code of BEFORE ? (["before", "after"] as const) : (["after"] as const)) {
        const snapshot = await rpc<string>(stack.rpcUrl, "evm_snapshot");
        try {
          runs.push(await measure(stack, profile, code, manifest.deploymentBlock, chain));
        } finally {
          await rpc(stack.rpcUrl, "evm_revert", [snapshot]);
        }
      }
    }
    report(runs);
  } finally {
    node.destroy();
    await stack.stop();
  }
}

/** One server's two catch-ups through one profile's proxy. */
async function measure(stack: Stack, profile: Profile, code: Run["code"], deploymentBlock: number, chain: string[]): Promise<Run> {
  const proxy = await new ProviderProxy(stack.rpcUrl, profile.proxy).start();
  const port = await freePort();
  const root = code === "before" ? BEFORE! : path.resolve(__dirname, "..");
  const url = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), "usdx-bench-provider-"));
  let stopped = false;
  process.stdout.write(`  ${profile.key}, the ${code === "before" ? "code before" : "code now"}: indexing from the deployment... `);
  const started = Date.now();
  const { child, output } = startProcess(
    process.execPath,
    ["-r", "ts-node/register/transpile-only", path.join(root, "server", "src", "index.ts")],
    {
      cwd: root,
      output: "capture",
      group: false,
      env: {
        ...process.env,
        NETWORK: "localhost",
        RPC_URL: proxy.url,
        DEPLOYMENTS_DIR: stack.deploymentsDir,
        PGLITE_DIR: dataDir,
        FIREBASE_AUTH_EMULATOR_HOST: stack.emulatorHost,
        FIREBASE_PROJECT_ID: FIREBASE_PROJECT,
        SERVER_HOST: "127.0.0.1",
        SERVER_PORT: String(port),
        DASHBOARD_DIST: "off",
        MOCK_BANK: "off",
        INDEXER_POLL_MS: "1000",
        INDEXER_CONFIRMATIONS: "0",
        INDEXER_DEPLOYMENT_CHECK_MS: "300000",
        INDEXER_BATCH_BLOCKS: String(profile.range),
        LOG_LEVEL: "warn",
      },
    },
  );
  try {
    const head = Number(await rpc<string>(stack.rpcUrl, "eth_blockNumber"));
    await waitFor("the server's first catch-up", async () => (await checkpoint(url)) >= head, 30 * 60_000, { child, intervalMs: 100 });
    const dense: Stretch = { ...counts(proxy, 0), seconds: (Date.now() - started) / 1000, blocks: head - deploymentBlock + 1 };
    console.log(`${dense.seconds.toFixed(1)} s (the process's start included)`);
    await sleep(1500); // a poll or two at the head, counted in neither stretch
    const mark = proxy.seen.length;
    process.stdout.write(`  ${profile.key}, the ${code === "before" ? "code before" : "code now"}: ${EMPTY_BLOCKS} empty blocks... `);
    await rpc(stack.rpcUrl, "hardhat_mine", [`0x${EMPTY_BLOCKS.toString(16)}`]);
    const t = Date.now();
    await waitFor("the catch-up", async () => (await checkpoint(url)) >= head + EMPTY_BLOCKS, 60 * 60_000, { child, intervalMs: 50 });
    const empty: Stretch = { ...counts(proxy, mark), seconds: (Date.now() - t) / 1000, blocks: EMPTY_BLOCKS };
    console.log(`${empty.seconds.toFixed(1)} s`);
    await stopProcess(child);
    stopped = true;
    const stored = await indexKeys(dataDir);
    return { code, profile, dense, empty, equal: stored.join() === chain.join() };
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${output()}`, { cause: error });
  } finally {
    if (!stopped) await stopProcess(child);
    await proxy.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function counts(proxy: ProviderProxy, from: number): { requests: number; calls: number } {
  const seen = proxy.seen.slice(from);
  return { requests: seen.length, calls: seen.reduce((n, s) => n + s.methods.length, 0) };
}

async function checkpoint(url: string): Promise<number> {
  const answer = await fetch(`${url}/api/health`).catch(() => null);
  if (!answer) return -1;
  const body = (await answer.json().catch(() => ({}))) as { indexer?: { checkpoint?: number | null } };
  return body.indexer?.checkpoint ?? -1;
}

/** Every event the index in `dataDir` holds, as block-position-hash keys in order (the server stopped). */
async function indexKeys(dataDir: string): Promise<string[]> {
  const db = new PGlite(dataDir);
  try {
    const { rows } = await db.query<{ key: string }>(
      "select block_number || '-' || log_index || '-' || block_hash as key from chain_events order by block_number, log_index",
    );
    return rows.map((r) => r.key);
  } finally {
    await db.close();
  }
}

/** The same keys for the chain's logs of the two contracts. */
async function chainKeys(node: JsonRpcProvider, addresses: string[], from: number, to: number): Promise<string[]> {
  const logs = (await node.send("eth_getLogs", [
    { address: addresses, fromBlock: `0x${from.toString(16)}`, toBlock: `0x${to.toString(16)}` },
  ])) as {
    blockNumber: string;
    logIndex: string;
    blockHash: string;
  }[];
  return logs.map((l) => `${Number(l.blockNumber)}-${Number(l.logIndex)}-${l.blockHash}`);
}

function report(runs: Run[]): void {
  const per10k = (s: Stretch, n: number) => (s.requests * 10_000) / n;
  console.log(`\nFollowing the chain through a hosted provider's plan (requests: HTTP requests; a batch is one)\n`);
  const rows = runs.flatMap((r) => {
    const floorEmpty = Math.ceil(r.empty.blocks / r.profile.range);
    const floorDense = Math.ceil(r.dense.blocks / r.profile.range);
    return [
      [
        r.profile.key,
        r.code,
        `${r.dense.blocks} blocks from the deployment, dense`,
        String(r.dense.requests),
        String(r.dense.calls),
        String(floorDense),
        (r.dense.requests / floorDense).toFixed(2),
        r.dense.seconds.toFixed(1),
      ],
      [
        r.profile.key,
        r.code,
        `${r.empty.blocks} empty blocks`,
        String(r.empty.requests),
        String(r.empty.calls),
        String(floorEmpty),
        (r.empty.requests / floorEmpty).toFixed(2),
        r.empty.seconds.toFixed(1),
      ],
    ];
  });
  console.log(formatTable(["plan", "code", "stretch", "requests", "calls", "floor", "of floor", "seconds"], rows));
  console.log();
  for (const r of runs.filter((x) => x.code === "after")) {
    const emptyRatio = r.empty.requests / Math.ceil(r.empty.blocks / r.profile.range);
    const denseRatio = r.dense.requests / Math.ceil(r.dense.blocks / r.profile.range);
    console.log(
      `goal (${r.profile.key}): requests over empty blocks at most ${FLOOR_RATIO_GOAL}x the floor: ${emptyRatio.toFixed(2)}x (${per10k(r.empty, r.empty.blocks).toFixed(0)} per 10,000 blocks): ${emptyRatio <= FLOOR_RATIO_GOAL ? "met" : "MISSED"}`,
    );
    console.log(
      `goal (${r.profile.key}): requests over the dense stretch at most ${FLOOR_RATIO_GOAL}x the floor: ${denseRatio.toFixed(2)}x: ${denseRatio <= FLOOR_RATIO_GOAL ? "met" : "MISSED"}`,
    );
    const before = runs.find((x) => x.code === "before" && x.profile.key === r.profile.key);
    if (before) {
      const speed = before.empty.seconds / r.empty.seconds;
      console.log(
        `goal (${r.profile.key}): the empty catch-up at least ${SPEED_GOAL}x faster than the code before: ${before.empty.seconds.toFixed(1)} s -> ${r.empty.seconds.toFixed(1)} s = ${speed.toFixed(2)}x: ${r.profile.key !== "free" || speed >= SPEED_GOAL ? "met" : "MISSED"}`,
      );
    }
  }
  const unequal = runs.filter((r) => !r.equal);
  console.log(
    unequal.length === 0
      ? "every index equals the chain: met"
      : `index differs from the chain: ${unequal.map((r) => `${r.profile.key} ${r.code}`).join(", ")}: MISSED`,
  );
  if (unequal.length > 0) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
