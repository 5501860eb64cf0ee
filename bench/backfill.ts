/**
 * Explorer backfill bench (`npm run bench:backfill`): a first index of a long history read from
 * Etherscan's logs API (the stand-in, server/test/explorerStandIn.ts, with Etherscan's real limits:
 * 1,000 logs a call, 5 calls a second on the free plan, its own rate-limit answer past that), then
 * the last blocks by RPC through a counting proxy. Prints the explorer's requests, the RPC
 * requests, the seconds, and whether the index equals an RPC-only index of the same chain; beside
 * them, what the same history costs by RPC on a free plan's 10-block eth_getLogs range. Loopback only.
 *   BENCH_EVENTS (default 100000): events written, in batch payments of 500 recipients.
 *   BENCH_GAP_BLOCKS (default 10000): empty blocks mined after each payment, so the history spans
 *     millions of blocks as a token's first year does (2.6 million on Sepolia).
 */
import { JsonRpcProvider, MaxUint256, encodeBytes32String } from "ethers";
import { BatchPayments__factory, USDX__factory } from "@bindings";
import { readManifest } from "@common/manifestFile";
import { connectChain } from "../server/src/chain/client";
import { loadConfig } from "../server/src/config";
import { openDatabase } from "../server/src/db/client";
import type { RunningServer } from "../server/src/index";
import { createLogger } from "../server/src/lib/logger";
import { BACKFILL_CONFIRMATIONS, ExplorerBackfill } from "../server/src/services/indexing/backfill";
import { EventIndexer } from "../server/src/services/indexing/indexer";
import { ExplorerStandIn } from "../server/test/explorerStandIn";
import { ProviderProxy } from "../server/test/providerProxy";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { deployAndSeed, nodeAnswers, startHardhatNode } from "../scripts/lib/stack/parts";
import { QUIET_ENV, freePort, stopProcess, waitFor } from "../scripts/lib/stack/processes";
import type { Stack } from "../server/test/stack";
import { formatTable } from "@common/textTable";
import { indexFingerprint } from "./catchUp";
import { randomAddress } from "./lib/payments";
import { benchServerEnv } from "./lib/serverEnv";

const TARGET_EVENTS = Number(process.env.BENCH_EVENTS || 100_000);
const GAP_BLOCKS = Number(process.env.BENCH_GAP_BLOCKS ?? 10_000);
const RECIPIENTS_PER_TX = 500; // 500 Transfers + 1 BatchPaid per transaction
/** Etherscan's free plan. */
const EXPLORER_CALLS_PER_SECOND = 5;
/** A free plan's eth_getLogs range (Alchemy's on Ethereum and its testnets): the RPC-only comparison. */
const FREE_PLAN_RANGE = 10;
const API_KEY = "BENCHKEY0123456789ABCDEFGHIJKLMNOP";

/** An index built in a fresh in-memory database; answers its fingerprint and how long syncing took. */
async function buildIndex(env: Record<string, string>, withBackfill: ExplorerStandIn | null) {
  const config = loadConfig(env);
  const db = await openDatabase(config.database);
  const chain = connectChain(config);
  const log = createLogger("info", { write: (line: string) => void (JSON.parse(line).level >= 40 && process.stdout.write(`  ${line}`)) });
  try {
    const backfill = withBackfill
      ? new ExplorerBackfill(db.db, chain, { ...config.indexer.backfill!, apiUrl: withBackfill.url }, log.child({ component: "backfill" }))
      : null;
    const indexer = new EventIndexer(db.db, chain, config.indexer, log, false, backfill);
    const t = Date.now();
    await indexer.syncOnce();
    const ms = Date.now() - t;
    const fingerprint = await indexFingerprint({ services: { db } } as unknown as RunningServer);
    return { ms, fingerprint, backfill, checkpoint: indexer.status().checkpoint! };
  } finally {
    chain.provider.destroy();
    await db.close();
  }
}

/** A Hardhat node, deployed and seeded as the test stack's; no Auth emulator (nothing here signs in). */
async function startChain(): Promise<Stack> {
  const dir = mkdtempSync(path.join(tmpdir(), "usdx-bench-backfill-"));
  const rpcPort = await freePort();
  const rpcUrl = `http://127.0.0.1:${rpcPort}`;
  const node = startHardhatNode({ host: "127.0.0.1", port: rpcPort, env: { ...process.env, ...QUIET_ENV }, output: "ignore" }).child;
  await waitFor("Hardhat node", nodeAnswers(rpcUrl), 60_000, { child: node });
  const deploymentsDir = path.join(dir, "deployments");
  await deployAndSeed({
    env: { ...process.env, ...QUIET_ENV, LOCAL_RPC_PORT: String(rpcPort), DEPLOYMENTS_DIR: deploymentsDir },
    output: "capture",
  });
  return {
    rpcUrl,
    rpcPort,
    deploymentsDir,
    // The settings want one; nothing here signs in.
    emulatorHost: "127.0.0.1:9",
    async stop() {
      await stopProcess(node);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function main() {
  console.log("Starting a Hardhat node (deployed and seeded)...");
  const stack = await startChain();
  try {
    const provider = new JsonRpcProvider(stack.rpcUrl, 31337, { staticNetwork: true, cacheTimeout: -1 });
    const manifest = readManifest("localhost", { DEPLOYMENTS_DIR: stack.deploymentsDir });
    const payer = await provider.getSigner(0); // the seeded admin holds 100,000 USDX
    const txs = Math.ceil(TARGET_EVENTS / (RECIPIENTS_PER_TX + 1));
    console.log(
      `Writing ${txs} batch payments of ${RECIPIENTS_PER_TX} recipients (${txs * (RECIPIENTS_PER_TX + 1)} events), ${GAP_BLOCKS} empty blocks after each...`,
    );
    let t = Date.now();
    const usdx = USDX__factory.connect(manifest.proxy, payer);
    const batch = BatchPayments__factory.connect(manifest.batchPayments, payer);
    await (await usdx.approve(manifest.batchPayments, MaxUint256)).wait();
    for (let i = 0; i < txs; i++) {
      const recipients = Array.from({ length: RECIPIENTS_PER_TX }, randomAddress);
      const pay = await batch.pay(
        recipients,
        recipients.map((_, j) => BigInt(1e12) + BigInt(j)),
        encodeBytes32String(`backfill-${i}`),
        { gasLimit: 16_000_000 },
      );
      await pay.wait();
      if (GAP_BLOCKS > 0) await provider.send("hardhat_mine", [`0x${GAP_BLOCKS.toString(16)}`]);
    }
    // Enough blocks above the last payment for it to sit below the backfill's last block.
    await provider.send("hardhat_mine", [`0x${(BACKFILL_CONFIRMATIONS * 2).toString(16)}`]);
    const writeSeconds = (Date.now() - t) / 1000;
    const head = await provider.getBlockNumber();
    const blocks = head - manifest.deploymentBlock + 1;
    console.log(`  written in ${writeSeconds.toFixed(1)} s: ${blocks} blocks from the deployment to the head`);

    const env = { ...benchServerEnv(stack), INDEXER_DEPLOYMENT_CHECK_MS: "300000", MOCK_BANK: "off" };
    console.log("Indexing by RPC alone, directly on the node (the reference index)...");
    t = Date.now();
    // Wide ranges: the reference only has to be right, and the node answers any range.
    const reference = await buildIndex({ ...env, INDEXER_BATCH_BLOCKS: "100000" }, null);
    console.log(`  ${reference.fingerprint.events} events in ${(reference.ms / 1000).toFixed(1)} s`);

    console.log(`Backfilling through the Etherscan stand-in (1,000 logs a call, ${EXPLORER_CALLS_PER_SECOND} calls a second)...`);
    const standIn = await new ExplorerStandIn(stack.rpcUrl, {
      apiKey: API_KEY,
      chainId: 31337,
      cap: 1000,
      callsPerSecond: EXPLORER_CALLS_PER_SECOND,
    }).start();
    const proxy = await new ProviderProxy(stack.rpcUrl, {}).start();
    let filled: Awaited<ReturnType<typeof buildIndex>>;
    try {
      filled = await buildIndex(
        {
          ...env,
          RPC_URL: proxy.url,
          INDEXER_BACKFILL: "explorer",
          ETHERSCAN_API_KEY: API_KEY,
          ETHERSCAN_CALLS_PER_SECOND: String(EXPLORER_CALLS_PER_SECOND),
          INDEXER_BACKFILL_MIN_BLOCKS: "1",
        },
        standIn,
      );
    } finally {
      await standIn.stop();
      await proxy.stop();
    }
    const same =
      filled.fingerprint.digest === reference.fingerprint.digest &&
      filled.fingerprint.events === reference.fingerprint.events &&
      filled.checkpoint === reference.checkpoint;
    const seconds = filled.ms / 1000;
    const rpcFloor = Math.ceil(blocks / FREE_PLAN_RANGE);
    const backfill = filled.backfill!;
    console.log(`\nExplorer backfill of ${filled.fingerprint.events} events over ${blocks} blocks\n`);
    console.log(
      formatTable(
        ["figure", "measured", "beside it"],
        [
          ["explorer requests", String(standIn.total), `${standIn.counted.rateLimited} of them the rate-limit answer`],
          ["events from the explorer", String(backfill.events), `the rest (${filled.fingerprint.events - backfill.events}) by RPC`],
          [
            "RPC requests",
            String(proxy.seen.length),
            `${rpcFloor} by RPC alone on a ${FREE_PLAN_RANGE}-block range (blocks / ${FREE_PLAN_RANGE}), ${(rpcFloor / (proxy.seen.length + standIn.total)).toFixed(0)}x the backfill's requests`,
          ],
          [
            "seconds",
            seconds.toFixed(1),
            `${(standIn.total / EXPLORER_CALLS_PER_SECOND).toFixed(1)} s: the explorer requests at ${EXPLORER_CALLS_PER_SECOND} a second`,
          ],
          [
            "index equals the chain",
            same ? "yes" : "NO",
            `the RPC-only index: ${reference.fingerprint.events} events, digest ${reference.fingerprint.digest.slice(0, 12)}`,
          ],
        ],
      ),
    );
    console.log(
      `\n  requests: HTTP requests each answered; the backfill stops ${BACKFILL_CONFIRMATIONS} blocks behind the head and RPC indexes the rest.` +
        `\n  Writing the chain took ${writeSeconds.toFixed(0)} s; the RPC-only reference index (directly on the node, 100,000-block ranges) ${(reference.ms / 1000).toFixed(1)} s.`,
    );
    if (!same) {
      console.log(
        `\nThe backfilled index holds ${filled.fingerprint.events} events (digest ${filled.fingerprint.digest}), the RPC-only index ${reference.fingerprint.events} (${reference.fingerprint.digest}).`,
      );
      process.exitCode = 1;
    }
  } finally {
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
