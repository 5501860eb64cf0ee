import { expect } from "chai";
import { readManifest } from "@common/manifestFile";
import { payFreshAddresses } from "../../bench/lib/payments";
import { connectChain } from "../src/chain/client";
import { openDatabase, type DatabaseHandle } from "../src/db/client";
import { chainEvents, indexedBlocks, indexerState } from "../src/db/schema";
import { createLogger } from "../src/lib/logger";
import { BACKFILL_CONFIRMATIONS, ExplorerBackfill, type BackfillOptions } from "../src/services/indexing/backfill";
import { EventIndexer } from "../src/services/indexing/indexer";
import { ExplorerStandIn, type StandInSettings } from "./explorerStandIn";
import { chainKeys, indexKeys, provider, revert, signer, snapshot, stack, startTestServer, testConfig } from "./helpers";
import { rpc } from "./stack";

const API_KEY = "TESTKEY0123456789ABCDEFGHIJKLMNOPQ";
// Below Etherscan's 1,000, so that a few thousand events are cut and paged many times over.
const CAP = 50;

/** The database each index is built in, emptied before each (opening one costs seconds). */
let database: DatabaseHandle;

/** One index built from scratch: by RPC alone, or backfilled through the stand-in first. */
async function buildIndex(explorer: { standIn?: Partial<StandInSettings>; backfill?: Partial<BackfillOptions> } | null) {
  const config = testConfig();
  const lines: string[] = [];
  const log = createLogger("info", { write: (line: string) => void lines.push(line) });
  const db = database.db;
  await db.transaction(async (tx) => {
    await tx.delete(chainEvents);
    await tx.delete(indexedBlocks);
    await tx.delete(indexerState);
  });
  const chain = connectChain(config);
  const standIn = explorer
    ? await new ExplorerStandIn(stack().rpcUrl, { apiKey: API_KEY, chainId: 31337, cap: CAP, ...explorer.standIn }).start()
    : null;
  try {
    const options = {
      apiUrl: standIn?.url ?? "",
      apiKey: API_KEY,
      chainId: 31337,
      minBlocks: 1,
      callsPerSecond: 1000,
      pageSize: CAP,
      retryMs: 5,
    };
    const backfill = standIn ? new ExplorerBackfill(db, chain, { ...options, ...explorer?.backfill }, log) : null;
    const indexer = new EventIndexer(db, chain, config.indexer, log, false, backfill);
    await indexer.syncOnce();
    const rows = await db.select().from(chainEvents).orderBy(chainEvents.blockNumber, chainEvents.logIndex);
    const [state] = await db.select().from(indexerState);
    return { rows, keys: await indexKeys(db), checkpoint: state.checkpointBlock, lines, standIn, backfill };
  } finally {
    await standIn?.stop();
    chain.provider.destroy();
  }
}

describe("Explorer backfill (INDEXER_BACKFILL=explorer)", function () {
  // Each test builds an index from scratch, twice over for some (a loaded machine takes minutes).
  this.timeout(180_000);
  let start: string;
  let rpcOnly: Awaited<ReturnType<typeof buildIndex>>;
  /** Events the backfill should read: those at or below its last block (BACKFILL_CONFIRMATIONS behind the head). */
  let belowSeam: number;
  let head: number;

  before(async function () {
    this.timeout(300_000);
    start = await snapshot();
    const manifest = readManifest("localhost", { DEPLOYMENTS_DIR: stack().deploymentsDir });
    // A few thousand Transfers in a handful of blocks (400 a block, far past the cut of 50), with
    // stretches of empty blocks between them, then enough blocks for them to sit below the seam.
    for (let i = 0; i < 6; i++) {
      await payFreshAddresses(await signer(0), manifest, {
        txs: 1,
        perTx: 400,
        reference: `backfill-${i}`,
        amount: (_t, j) => BigInt(j + 1),
      });
      await rpc(stack().rpcUrl, "hardhat_mine", ["0x64"]);
    }
    await rpc(stack().rpcUrl, "hardhat_mine", [`0x${(BACKFILL_CONFIRMATIONS * 2).toString(16)}`]);
    head = await provider().getBlockNumber();
    const logs = await provider().getLogs({
      address: [manifest.proxy, manifest.batchPayments],
      fromBlock: 0,
      toBlock: head - BACKFILL_CONFIRMATIONS,
    });
    belowSeam = logs.length;
    database = await openDatabase(testConfig().database);
    rpcOnly = await buildIndex(null);
    expect(rpcOnly.keys).to.deep.equal(await chainKeys());
  });

  after(async () => {
    await database?.close();
    await revert(start);
  });

  it("fills the history from the explorer, cut pages split and one full block paged, into the index an RPC-only index holds", async () => {
    const filled = await buildIndex({});
    expect(filled.rows).to.deep.equal(rpcOnly.rows);
    expect(filled.checkpoint).to.equal(rpcOnly.checkpoint);
    // Every event up to the seam came from the explorer; RPC indexed only the last blocks.
    expect(filled.backfill!.events).to.equal(belowSeam);
    expect(filled.standIn!.counted.ok).to.be.greaterThan(belowSeam / CAP);
    // A block of 400 Transfers was paged through with page/offset.
    expect(filled.standIn!.asked.some((q) => q.page > 1 && q.fromBlock === q.toBlock)).to.equal(true);
  });

  it("waits out the explorer's rate-limit answer and still fills the whole history from it", async () => {
    const filled = await buildIndex({ standIn: { rateLimitEvery: 3 } });
    expect(filled.standIn!.counted.rateLimited).to.be.greaterThan(0);
    expect(filled.backfill!.rateLimited).to.equal(filled.standIn!.counted.rateLimited);
    expect(filled.backfill!.events).to.equal(belowSeam);
    expect(filled.rows).to.deep.equal(rpcOnly.rows);
    expect(filled.lines.join("\n")).not.to.include("backfill stopped");
  });

  it("stops at a bad key with a clear line, and RPC indexing still completes the index", async () => {
    const filled = await buildIndex({ standIn: { apiKey: "another key" } });
    expect(filled.backfill!.events).to.equal(0);
    expect(filled.rows).to.deep.equal(rpcOnly.rows);
    const stopped = filled.lines.map((l) => JSON.parse(l)).find((l) => /backfill stopped/.test(l.msg));
    expect(stopped?.reason).to.equal("the explorer refused: Invalid API Key");
  });

  it("a key refused in the middle leaves only whole windows stored, and RPC indexing completes the index from there", async () => {
    const filled = await buildIndex({ standIn: { refuseKeyFrom: 20 } });
    expect(filled.backfill!.events).to.be.greaterThan(0);
    expect(filled.backfill!.events).to.be.lessThan(belowSeam);
    expect(filled.rows).to.deep.equal(rpcOnly.rows);
  });

  it("the seam check catches an explorer whose newest block has another hash than the chain's, and RPC reads it again", async () => {
    const seamBlock = head - BACKFILL_CONFIRMATIONS;
    const manifest = readManifest("localhost", { DEPLOYMENTS_DIR: stack().deploymentsDir });
    const logs = await provider().getLogs({ address: [manifest.proxy, manifest.batchPayments], fromBlock: 0, toBlock: seamBlock });
    const newest = logs[logs.length - 1].blockNumber;
    const filled = await buildIndex({ standIn: { forgedBlocks: new Set([newest]) } });
    expect(filled.rows).to.deep.equal(rpcOnly.rows);
    expect(filled.lines.join("\n")).to.include("the explorer's newest block is not the chain's");
  });

  it("never writes the API key to the log, even where the explorer's refusal quotes the request", async () => {
    const filled = await buildIndex({
      standIn: { refuseKeyFrom: 5, rateLimitEvery: 2, keyRefusal: (q) => `Invalid API Key (request: ${q.toString()})` },
    });
    const log = filled.lines.join("\n");
    expect(log).to.include("Invalid API Key (request: ");
    expect(log).not.to.include(API_KEY);
    expect(filled.rows).to.deep.equal(rpcOnly.rows);
  });

  it("runs in the server when INDEXER_BACKFILL=explorer, through ETHERSCAN_API_URL with ETHERSCAN_API_KEY", async () => {
    const standIn = await new ExplorerStandIn(stack().rpcUrl, { apiKey: API_KEY, chainId: 31337 }).start();
    try {
      const server = await startTestServer({
        INDEXER_BACKFILL: "explorer",
        ETHERSCAN_API_KEY: API_KEY,
        ETHERSCAN_API_URL: standIn.url,
        INDEXER_BACKFILL_MIN_BLOCKS: "1",
        ETHERSCAN_CALLS_PER_SECOND: "100",
      });
      try {
        expect(await indexKeys(server.services.db.db)).to.deep.equal(await chainKeys());
        expect(server.services.indexer.backfill!.events).to.equal(belowSeam);
        expect(standIn.counted.ok).to.equal(server.services.indexer.backfill!.requests);
      } finally {
        await server.close();
      }
    } finally {
      await standIn.stop();
    }
  });
});
