import { expect } from "chai";
import { MaxUint256, getAddress, hexlify, randomBytes, zeroPadValue, toBeHex } from "ethers";
import { BatchPayments__factory, USDX__factory } from "@bindings";
import { readManifest } from "@common/manifestFile";
import { startServer, type RunningServer } from "../src/index";
import { createLogger } from "../src/lib/logger";
import { chainKeys, provider, revert, seeded, snapshot, stack, testConfig } from "./helpers";
import { BATCH_REFUSALS, PROVIDERS, ProviderProxy } from "./providerProxy";
import { RandomRefusals, prng } from "./randomRefusals";
import { rpc } from "./stack";

/**
 * Issue 30, item 2: ranges that adapt never skip or repeat an event. For each seed a provider (the
 * proxy, randomRefusals.ts) refuses eth_getLogs in its own pattern: a block-range limit, a results
 * limit, refusals of any range at random, each in one provider's words, with or without a named
 * range or limit. A server started on that proxy indexes the chain from scratch, and its index must
 * equal the one a server makes reading the node directly, row for row; the ranges it stored must
 * follow each other from the deployment block to the head, none twice.
 *
 * Seeds 1 to 25 by default; USDX_RANGES_SEEDS=<from>-<to> (or one number) tries others. A failure
 * names its seed: USDX_RANGES_SEEDS=<seed> plays that pattern again.
 */

const SEEDS = (() => {
  const asked = process.env.USDX_RANGES_SEEDS;
  if (!asked) return Array.from({ length: 25 }, (_, i) => i + 1);
  const [from, to = from] = asked.split("-").map(Number);
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
})();

/** Every stored event, each field that a provider could lose or change, in order. */
async function indexRows(server: RunningServer): Promise<string[]> {
  const answer = (await server.services.db.db.execute(
    `select block_number, log_index, block_hash, block_time, transaction_hash, contract, event_name, args::text as args,
       from_address, to_address, account
     from chain_events order by block_number, log_index`,
  )) as unknown as { rows: Record<string, unknown>[] };
  return answer.rows.map((r) => Object.values(r).join("|"));
}

/**
 * A server on `rpcUrl` with a new database (testConfig's: in memory on PGlite, where an emptied one
 * is reused, server/src/db/memoryDatabases.ts; a new database in the PostgreSQL pass), indexed up to the chain's head; closed after `use`. */
async function indexedThrough<T>(rpcUrl: string, use: (server: RunningServer) => Promise<T>): Promise<T> {
  const config = testConfig({ RPC_URL: rpcUrl, INDEXER_BATCH_BLOCKS: String(MAX_SPAN), INDEXER_POLL_MS: "50" });
  const started = Date.now();
  const server = await startServer(config, createLogger(config.logLevel));
  if (process.env.USDX_RANGES_VERBOSE) console.log(`    server started in ${Date.now() - started} ms`);
  try {
    const head = await provider().getBlockNumber();
    // Until caught up: an indexer may stop a sync early (a refusal it waits out); a failed sync fails the seed.
    for (let i = 0; i < 200 && (server.services.indexer.status().checkpoint ?? -1) < head; i++) await server.services.indexer.syncOnce();
    expect(server.services.indexer.status().checkpoint, "the checkpoint after catching up").to.equal(head);
    if (process.env.USDX_RANGES_VERBOSE) console.log(`    indexed in ${Date.now() - started} ms`);
    return await use(server);
  } finally {
    await server.close();
  }
}

/** Blocks the indexer asks for at most (INDEXER_BATCH_BLOCKS of these servers). */
const MAX_SPAN = 64;
/** Empty blocks at the end: room for a span shrunk to one block to double back to MAX_SPAN (1 + 2 + ... + 64). */
const EMPTY_TAIL = 130;

describe("Ranges that adapt (a server indexing through a provider proxy)", function () {
  this.timeout(300_000);
  let chainSnapshot: string;
  let proxy: ProviderProxy;
  /** What a server reading the node directly stores. */
  let expected: string[] = [];
  let deploymentBlock = 0;
  let head = 0;
  /** The most logs one block holds. */
  let densest = 0;

  before(async () => {
    chainSnapshot = await snapshot();
    const alice = seeded("alice");
    const manifest = readManifest("localhost", { DEPLOYMENTS_DIR: stack().deploymentsDir });
    deploymentBlock = manifest.deploymentBlock;
    const token = USDX__factory.connect(manifest.proxy, alice);
    const batch = BatchPayments__factory.connect(manifest.batchPayments, alice);
    await (await token.approve(manifest.batchPayments, MaxUint256)).wait();
    // A few hundred blocks: single transfers, batch payments (up to 12 Transfers and a BatchPaid in
    // one block), and stretches of empty blocks between them. The same history on every run.
    const random = prng(30);
    const someone = () => getAddress(hexlify(randomBytes(20)));
    for (let i = 0; i < 36; i++) {
      if (random() < 0.4) {
        const recipients = Array.from({ length: 2 + Math.floor(random() * 11) }, someone);
        const amounts = recipients.map((_, j) => BigInt(j + 1) * 10n ** 15n);
        await (await batch.pay(recipients, amounts, zeroPadValue(toBeHex(i + 1), 32))).wait();
      } else {
        await (await token.transfer(someone(), 10n ** 15n)).wait();
      }
      const gap = Math.floor(random() * 20);
      if (gap > 0) await rpc(stack().rpcUrl, "hardhat_mine", [toBeHex(gap)]);
    }
    // An empty stretch at the end, where a span shrunk for a dense stretch has room to grow back.
    await rpc(stack().rpcUrl, "hardhat_mine", [toBeHex(EMPTY_TAIL)]);
    head = await provider().getBlockNumber();
    const perBlock = new Map<string, number>();
    for (const key of await chainKeys()) perBlock.set(key.split("-")[0], (perBlock.get(key.split("-")[0]) ?? 0) + 1);
    densest = Math.max(...perBlock.values());
    expected = await indexedThrough(stack().rpcUrl, indexRows);
    // The direct index itself holds every log of the chain.
    expect(expected.map((r) => r.split("|").slice(0, 3).join("-")).sort()).to.deep.equal(await chainKeys());
    expect(head - deploymentBlock, "blocks of history").to.be.above(200);
    proxy = await new ProviderProxy(stack().rpcUrl).start();
  });
  after(async () => {
    await proxy?.stop();
    await revert(chainSnapshot);
  });

  describe("random refusal patterns: the index equals the chain (property)", () => {
    for (const seed of SEEDS) {
      it(`seed ${seed}: the index made through the refusing provider equals the chain's`, async function () {
        proxy.seen.length = 0;
        const judge = new RandomRefusals(seed, densest);
        proxy.settings = { judge };
        // Says how to play this pattern again, whatever fails below.
        const replay = `seed ${seed} (USDX_RANGES_SEEDS=${seed}; pattern ${JSON.stringify(judge.pattern)})`;
        try {
          const rows = await indexedThrough(proxy.url, indexRows);
          const asked = proxy.seen.flatMap((s) => s.logs ?? []);
          const stored = asked.filter((l) => !l.refused);
          if (process.env.USDX_RANGES_VERBOSE)
            console.log(
              `    ${JSON.stringify(judge.pattern)}: ${proxy.seen.length} requests, ${asked.length} eth_getLogs, ${stored.length} stored, refusals ${JSON.stringify(judge.refused)}; spans ${stored.map((l) => l.to - l.from + 1).join(",")}`,
            );
          expect(rows.length, "events stored").to.equal(expected.length);
          expect(rows, "the index, row for row").to.deep.equal(expected);
          // The ranges answered follow each other from the deployment block to the head: no gap, none twice.
          expect(stored[0]?.from, "the first range's start").to.equal(deploymentBlock);
          for (let i = 1; i < stored.length; i++)
            expect(stored[i].from, `range ${i} (${stored[i].from}-${stored[i].to}) after ${stored[i - 1].to}`).to.equal(
              stored[i - 1].to + 1,
            );
          expect(stored.at(-1)?.to, "the last range's end").to.equal(head);
        } catch (error) {
          console.log(`    failed: ${replay}; refusals ${JSON.stringify(judge.refused)}`);
          throw error;
        } finally {
          proxy.settings = {};
        }
      });
    }
  });

  /** The eth_getLogs the proxy answered or refused, in order. */
  const logsAsked = () => proxy.seen.flatMap((seen) => seen.logs ?? []);
  const span = (l: { from: number; to: number }) => l.to - l.from + 1;

  describe("start at the configured maximum, shrink when refused, grow back after a results limit", () => {
    beforeEach(() => {
      proxy.settings = {};
      proxy.seen.length = 0;
    });
    afterEach(() => {
      proxy.settings = {};
    });

    it("asks for INDEXER_BATCH_BLOCKS blocks first, and the named range's length after a refusal that names one", async () => {
      proxy.settings = { logs: PROVIDERS.alchemy(20) };
      await indexedThrough(proxy.url, async () => undefined);
      const asked = logsAsked();
      expect(span(asked[0]), "the first eth_getLogs").to.equal(MAX_SPAN);
      expect(asked[0].refused).to.equal(true);
      expect(span(asked[1]), "after Alchemy named a 20-block range").to.equal(20);
      // A block-range limit holds further on: it is not asked over again and again.
      expect(asked.filter((l) => l.refused).length, "refusals").to.be.at.most(3);
    });

    it("after a results refusal the span shrinks for the dense stretch, and grows back to the maximum over empty blocks", async () => {
      proxy.settings = { logs: PROVIDERS.infuraResults(densest) };
      await indexedThrough(proxy.url, async () => undefined);
      const asked = logsAsked();
      const firstRefusal = asked.findIndex((l) => l.refused);
      expect(firstRefusal, "a results refusal").to.be.at.least(0);
      expect(span(asked[firstRefusal + 1]), "the next request").to.be.below(span(asked[firstRefusal]));
      // Over the empty tail the span is back at the maximum.
      const lastRefusal = asked.map((l) => l.refused).lastIndexOf(true);
      const after = asked.slice(lastRefusal + 1);
      expect(
        after.some((l) => span(l) === MAX_SPAN),
        `spans after the last refusal: ${after.map(span).join(", ")}`,
      ).to.equal(true);
    });

    it("an answer too large that names nothing (halving) still ends with the whole index and a span back at the maximum", async () => {
      proxy.settings = { logs: PROVIDERS.responseTooLarge(densest) };
      const rows = await indexedThrough(proxy.url, indexRows);
      expect(rows).to.deep.equal(expected);
      const asked = logsAsked();
      expect(
        asked.some((l) => l.refused),
        "refusals",
      ).to.equal(true);
      expect(span(asked.at(-1)!) === MAX_SPAN || asked.slice(-4).some((l) => span(l) === MAX_SPAN), "the span at the end").to.equal(true);
    });
  });

  describe("a provider that refuses JSON-RPC batches (item 1's fallback)", () => {
    beforeEach(() => {
      proxy.settings = {};
      proxy.seen.length = 0;
    });
    afterEach(() => {
      proxy.settings = {};
    });

    it("answers a batch with one error object, as a provider without batches does, and single requests as usual", async () => {
      proxy.settings = { batches: false };
      const post = (body: unknown) =>
        fetch(proxy.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      const batchAnswer = await post([
        { jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] },
        { jsonrpc: "2.0", id: 2, method: "eth_chainId", params: [] },
      ]);
      expect(batchAnswer.status).to.equal(400);
      expect(await batchAnswer.json()).to.deep.equal({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request" } });
      const single = await post({ jsonrpc: "2.0", id: 3, method: "eth_blockNumber", params: [] });
      expect(single.status).to.equal(200);
      expect(((await single.json()) as { result: string }).result).to.match(/^0x/);
      proxy.settings = { batches: BATCH_REFUSALS.tooMany };
      const tooMany = await post([{ jsonrpc: "2.0", id: 4, method: "eth_blockNumber", params: [] }]);
      expect(tooMany.status).to.equal(200);
      expect(((await tooMany.json()) as { error: { message: string } }).error.message).to.contain("in the batch");
    });

    // Enable with item 1's fallback: today the server's ethers provider batches its reads and fails
    // on the refusal ("server response 400").
    it("the server indexes the whole history through it, and the index equals the chain", async () => {
      proxy.settings = { batches: false };
      const rows = await indexedThrough(proxy.url, indexRows);
      expect(rows).to.deep.equal(expected);
      // It fell back to single requests: after the refusals, every request came alone.
      const refusedBatches = proxy.seen.filter((s) => s.batchRefused);
      const lastRefused = proxy.seen.lastIndexOf(refusedBatches.at(-1)!);
      expect(
        proxy.seen.slice(lastRefused + 1).every((s) => s.methods.length === 1),
        "requests after the fallback",
      ).to.equal(true);
    });
  });
});
