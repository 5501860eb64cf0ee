import { expect } from "chai";
import { HDNodeWallet, getAddress, hexlify, parseUnits, randomBytes } from "ethers";
import { BatchPayments__factory, USDX__factory } from "@bindings";
import { readManifest } from "@common/manifestFile";
import { RequestBudget } from "../src/chain/rpcBudget";
import { RpcRateLimitedError, RpcTransport, retryAfterMs } from "../src/chain/rpcTransport";
import {
  BatchPlan,
  call,
  provider,
  revert,
  seeded,
  snapshot,
  stack,
  startTestServer,
  until,
  walletUser,
  chainKeys,
  indexKeys,
} from "./helpers";
import { PROVIDERS, ProviderProxy, type LogsRefusal } from "./providerProxy";
import { rpc } from "./stack";

/**
 * Issue 14, part 3: the server behind a hosted RPC provider. A proxy of ours (providerProxy.ts)
 * plays one in front of the test node: eth_getLogs refused over a range or a result count in each
 * provider's own words, 429s with and without Retry-After, 5xx pages, latency.
 */

const randomAddress = () => getAddress(hexlify(randomBytes(20)));

describe("Living with a hosted RPC provider (a proxy plays one in front of the node)", function () {
  this.timeout(120_000);
  let chainSnapshot: string;
  let proxy: ProviderProxy;
  let alice: HDNodeWallet;
  /** The most logs one block of the history holds. */
  let densest = 0;

  before(async () => {
    chainSnapshot = await snapshot();
    alice = seeded("alice");
    // History spread over thousands of blocks: transfers, 3,000 empty blocks, more transfers.
    const token = USDX__factory.connect(readManifest("localhost", { DEPLOYMENTS_DIR: stack().deploymentsDir }).proxy, alice);
    for (let i = 0; i < 3; i++) await (await token.transfer(randomAddress(), parseUnits(`${i + 1}`, 18))).wait();
    await rpc(stack().rpcUrl, "hardhat_mine", ["0xbb8"]);
    for (let i = 0; i < 3; i++) await (await token.transfer(randomAddress(), parseUnits(`${i + 1}`, 18))).wait();
    proxy = await new ProviderProxy(stack().rpcUrl).start();
    const perBlock = new Map<string, number>();
    for (const key of await chainKeys()) perBlock.set(key.split("-")[0], (perBlock.get(key.split("-")[0]) ?? 0) + 1);
    densest = Math.max(...perBlock.values());
  });
  after(async () => {
    await proxy.stop();
    await revert(chainSnapshot);
  });
  beforeEach(() => {
    proxy.seen.length = 0;
    proxy.settings = {};
  });

  // The words of each provider's refusal, and the span asked for next: logRanges.test.ts.

  describe("the indexer adapts its range and never skips or doubles a block", () => {
    // Made in each test: the results limit is the densest block's count, known once the history is written.
    const profiles: [string, () => LogsRefusal][] = [
      ["Alchemy, 500 blocks", () => PROVIDERS.alchemy(500)],
      ["Infura, a 700-block range", () => PROVIDERS.infuraRange(700)],
      // A block cannot be split, so the fewest results a provider may allow is the densest block's.
      ["Infura, as many results as the densest block holds", () => PROVIDERS.infuraResults(densest)],
      ["QuickNode, 900 blocks", () => PROVIDERS.quicknode(900)],
      ["Chainstack, 100 blocks", () => PROVIDERS.chainstack(100)],
      ["unknown words, 64 blocks", () => PROVIDERS.unknown(64)],
    ];
    for (const [name, make] of profiles) {
      it(`${name}: indexes the whole history through the proxy, and the index equals the chain`, async () => {
        const refusal = make();
        proxy.settings = { logs: refusal };
        const server = await startTestServer({ RPC_URL: proxy.url, INDEXER_BATCH_BLOCKS: "5000" });
        try {
          expect(await indexKeys(server.services.db.db)).to.deep.equal(await chainKeys());
          const asked = proxy.seen.flatMap((s) => s.logs ?? []);
          const refused = asked.filter((l) => l.refused);
          expect(refused.length, "refusals").to.be.greaterThan(0);
          // Each range stored once, in order, covering every block: no gap, no overlap.
          const stored = asked.filter((l) => !l.refused);
          for (let i = 1; i < stored.length; i++) expect(stored[i].from, `range ${i}`).to.equal(stored[i - 1].to + 1);
          // Named range limits are learned at once; unknown words cost a halving each; a results
          // limit is met again wherever the history is dense, as the span grows back.
          expect(refused.length).to.be.at.most(
            name.startsWith("Alchemy") || name.includes("range") || name.startsWith("QuickNode") ? 4 : 10,
          );
        } finally {
          await server.close();
        }
      });
    }
  });

  describe("429s, Retry-After and 5xx", () => {
    it("reads Retry-After as seconds or as a date", () => {
      expect(retryAfterMs("2")).to.equal(2000);
      expect(retryAfterMs("0.5")).to.equal(500);
      const now = Date.parse("2026-11-24T12:00:00Z");
      expect(retryAfterMs("Tue, 24 Nov 2026 12:00:03 GMT", now)).to.equal(3000);
      expect(retryAfterMs("soon")).to.equal(null);
      expect(retryAfterMs(undefined)).to.equal(null);
    });

    // Issue 30: a 429 no longer stops every caller; it lowers the request budget they share.
    it("the call a 429 refused waits out Retry-After (seconds, then a date); the other callers go on meanwhile, at half the rate", async () => {
      for (const retryAfter of ["1", "date:2000"]) {
        const transport = new RpcTransport(proxy.url, { requestBudget: new RequestBudget(20) });
        proxy.seen.length = 0;
        proxy.settings = { refuseNext: 1, retryAfter };
        const first = transport.call("eth_blockNumber", []);
        // Let the 429 arrive, then ask something else.
        await until(
          "the 429",
          async () => proxy.seen.length,
          (n) => n >= 1,
        );
        const second = transport.call("eth_chainId", []);
        await second;
        // The refused call still waits out its Retry-After: the budget is at half the rate meanwhile.
        expect(transport.budget.status().allowedPerSecond, retryAfter).to.equal(10);
        await first;
        const [refused, ...after] = proxy.seen;
        expect(refused.status).to.equal(429);
        const retried = after.find((s) => s.methods.includes("eth_blockNumber"))!;
        const other = after.find((s) => s.methods.includes("eth_chainId"))!;
        // A date has one-second resolution: its wait is within a second of what it said.
        const least = retryAfter === "1" ? 990 : 1000;
        expect(retried.at - refused.at, `${retryAfter}: the refused call's retry`).to.be.at.least(least);
        // The other caller was not held for the Retry-After: it went at its turn at the lowered rate.
        expect(other.at - refused.at, `${retryAfter}: the other caller`).to.be.below(least - 300);
      }
    });

    it("a Retry-After longer than a call may wait reaches the caller as RpcRateLimitedError, not a generic failure", async () => {
      const transport = new RpcTransport(proxy.url);
      proxy.settings = { refuseAll: true, retryAfter: "30" };
      const error = await transport.call("eth_blockNumber", []).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(RpcRateLimitedError);
      expect((error as RpcRateLimitedError).retryAfterMs).to.be.within(29_000, 30_000);
      expect(proxy.seen).to.have.length(1); // asked once, then kept away
    });

    // Issue 30: the 429s come as a provider's rate limit sends them (past a rate), not every n-th
    // request whatever the rate: those would drive the shared request budget down to its floor,
    // since a 429 lowers it (server/src/chain/rpcBudget.ts).
    it("429s past 10 calls a second (no Retry-After: backoff), every seventh a 5xx, 40 ms latency, Alchemy's range limit: a batch payment completes and the index equals the chain", async () => {
      proxy.settings = { callsPerSecond: 10, retryAfter: null, serverErrorEvery: 7, latencyMs: 40, logs: PROVIDERS.alchemy(500) };
      const server = await startTestServer({ RPC_URL: proxy.url, INDEXER_BATCH_BLOCKS: "2000", BATCH_CHUNK_SIZE: "2" });
      try {
        const token = (await walletUser(server, alice as never)).idToken;
        const recipients = [0, 1, 2].map((i) => ({ name: `Payee ${i}`, address: randomAddress(), amount: `${i + 1}` }));
        // A request whose chain read finds no turn in time answers 503 ("try again shortly"): a user tries again.
        const started = await until(
          "the batch to start",
          () => call(server, "POST", "/api/batch/execute", { token, body: { recipients, payer: alice.address } }),
          (answer) => answer.status !== 503,
          60_000,
        );
        expect(started.status, JSON.stringify(started.body)).to.equal(201);
        const plan = started.body as BatchPlan;
        const { proxy: usdx, batchPayments } = server.services.chain.manifest;
        // The wallet pays through its own connection (the node), as a browser wallet would.
        for (const chunk of plan.chunks) {
          const total = chunk.amounts.reduce((sum, a) => sum + BigInt(a), 0n);
          await (await USDX__factory.connect(usdx, alice).approve(batchPayments, total)).wait();
          const tx = await BatchPayments__factory.connect(batchPayments, alice).pay(chunk.recipients, chunk.amounts, chunk.reference);
          await tx.wait();
          const reported = await until(
            `chunk ${chunk.index} reported`,
            () =>
              call(server, "POST", `/api/batch/${plan.jobId}/transactions`, { token, body: { chunkIndex: chunk.index, txHash: tx.hash } }),
            (answer) => answer.status !== 503,
            60_000,
          );
          expect(reported.status, JSON.stringify(reported.body)).to.equal(200);
        }
        const job = await until(
          "the job to complete",
          async () => {
            await server.services.indexer.syncOnce().catch(() => undefined);
            await server.services.batchWatcher.runOnce().catch(() => undefined);
            return (await call(server, "GET", `/api/batch/${plan.jobId}`, { token })).body.job;
          },
          (j) => j?.status === "completed",
          60_000,
        );
        expect(job.recipientsPaid).to.equal(3);
        await server.services.indexer.syncOnce().catch(() => server.services.indexer.syncOnce());
        expect(await indexKeys(server.services.db.db)).to.deep.equal(await chainKeys());
        const statuses = new Set(proxy.seen.map((s) => s.status));
        expect([...statuses].sort()).to.deep.equal([200, 429, 503]);
        // What the transport counted is what the proxy answered.
        expect(server.services.chain.transport.snapshot().rateLimited).to.equal(proxy.seen.filter((s) => s.status === 429).length);
      } finally {
        await server.close();
      }
    });

    it("a key whose quota is spent: reads the index can answer still answer 200 (the token's figures from the index, saying so)", async () => {
      const server = await startTestServer({ RPC_URL: proxy.url });
      try {
        // No token answer was read yet, so none is cached for this state of the index.
        proxy.settings = { refuseAll: true, retryAfter: "60" };
        for (const path of [
          "/api/events?limit=5",
          "/api/roles",
          "/api/blocklist",
          "/api/stats/supply?points=10",
          `/api/accounts/${alice.address}/history?limit=5`,
        ]) {
          const answer = await call(server, "GET", path);
          expect(answer.status, `${path}: ${JSON.stringify(answer.body).slice(0, 200)}`).to.equal(200);
        }
        // The token's figures come from the index, as of its checkpoint, and say so; they equal the chain's.
        const token = await call(server, "GET", "/api/token");
        expect(token.status, JSON.stringify(token.body)).to.equal(200);
        const usdx = USDX__factory.connect(server.services.chain.manifest.proxy, provider());
        expect(token.body).to.include({
          source: "index",
          totalSupply: (await usdx.totalSupply()).toString(),
          totalShares: (await usdx.totalShares()).toString(),
          rewardMultiplier: (await usdx.rewardMultiplier()).toString(),
          paused: await usdx.paused(),
          blockNumber: server.services.indexer.status().checkpoint,
        });
        // The indexer's step fails and waits out the 60 s the provider asked for.
        const failed = await server.services.indexer.syncOnce().then(
          () => null,
          (e: unknown) => e,
        );
        expect(failed).to.be.instanceOf(RpcRateLimitedError);
      } finally {
        await server.close();
      }
    });
  });
});
