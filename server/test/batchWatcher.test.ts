import { expect } from "chai";
import { eq } from "drizzle-orm";
import { HDNodeWallet, type JsonRpcProvider, type TransactionRequest, getAddress, hexlify, keccak256, randomBytes } from "ethers";
import { BatchPayments__factory, USDX__factory } from "@bindings";
import type { ChunkDetail, RecipientDetail } from "@common/apiTypes";
import { batchChunks, batchJobs } from "../src/db/schema";
import type { RunningServer } from "../src/index";
import { POKE_GAP_MS, TX_CHECKS_PER_STEP } from "../src/services/batch/watcher";
import { BatchPlan, call, emailUser, PlanChunk, provider, revert, seeded, snapshot, startTestServer, walletUser } from "./helpers";

/**
 * Issue 13, part 3: the watcher shares its node lookups fairly between users and jobs, finds
 * payments from the index alone, closes failed jobs, and a burst of reports costs one step.
 */

const randomAddress = () => getAddress(hexlify(randomBytes(20)));
const randomHash = () => hexlify(randomBytes(32));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Counts the node lookups the watcher makes (receipts, transactions, calls), by transaction hash. */
function countLookups(server: RunningServer) {
  const p: JsonRpcProvider = server.services.chain.provider;
  const seen: string[] = [];
  const original = { getTransactionReceipt: p.getTransactionReceipt, getTransaction: p.getTransaction, call: p.call };
  p.getTransactionReceipt = (hash: string) => {
    seen.push(`receipt:${hash.toLowerCase()}`);
    return original.getTransactionReceipt.call(p, hash);
  };
  p.getTransaction = (hash: string) => {
    seen.push(`tx:${hash.toLowerCase()}`);
    return original.getTransaction.call(p, hash);
  };
  p.call = (tx: TransactionRequest) => {
    seen.push("call");
    return original.call.call(p, tx);
  };
  return {
    seen,
    receipts: () => seen.filter((s) => s.startsWith("receipt:")).map((s) => s.slice("receipt:".length)),
    reset: () => seen.splice(0),
    restore: () => Object.assign(p, original),
  };
}

const payChunk = async (server: RunningServer, from: HDNodeWallet, chunk: PlanChunk) => {
  const { proxy, batchPayments } = server.services.chain.manifest;
  await (await USDX__factory.connect(proxy, from).approve(batchPayments, chunk.total)).wait();
  const tx = await BatchPayments__factory.connect(batchPayments, from).pay(chunk.recipients, chunk.amounts, chunk.reference);
  await tx.wait();
  return tx.hash.toLowerCase();
};

/** A pay call that the node mines and that reverts (no allowance), signed with a fixed gas limit so no estimate refuses it first. */
const revertedPay = async (server: RunningServer, from: HDNodeWallet, chunk: PlanChunk) => {
  const { proxy, batchPayments } = server.services.chain.manifest;
  await (await USDX__factory.connect(proxy, from).approve(batchPayments, 0)).wait();
  const unsigned = await BatchPayments__factory.connect(batchPayments, from).pay.populateTransaction(
    chunk.recipients,
    chunk.amounts,
    chunk.reference,
  );
  const raw = await from.signTransaction(await from.populateTransaction({ ...unsigned, gasLimit: 300_000 }));
  await provider()
    .broadcastTransaction(raw)
    .catch(() => undefined);
  return keccak256(raw);
};

describe("batch watcher: fair shares, payments from the index, closed jobs, coalesced reports", () => {
  let chainSnapshot: string;
  before(async () => {
    chainSnapshot = await snapshot();
  });
  after(async () => {
    await revert(chainSnapshot);
  });

  describe("a user with hundreds of reported random hashes", () => {
    let server: RunningServer;
    before(async () => {
      server = await startTestServer({ BATCH_CHUNK_SIZE: "1", USER_BATCH_REPORTS_PER_MINUTE: "100000" });
      // Steps are taken by hand here, one at a time.
      await server.services.batchWatcher.stop();
    });
    after(async () => {
      await server.close();
    });

    const report = (token: string, jobId: string, chunkIndex: number, txHash: string) =>
      call(server, "POST", `/api/batch/${jobId}/transactions`, { token, body: { chunkIndex, txHash } });

    it("delays nobody else's chunk beyond one step, and a step's node lookups are bounded and shared round robin", async function () {
      this.timeout(180_000);
      // User A: 5 jobs (the most in progress at once) of 60 one-recipient chunks, each reported with a hash no node knows.
      const flood = await emailUser();
      const floodHashes = new Map<string, string>(); // hash -> job
      for (let j = 0; j < 5; j++) {
        const recipients = Array.from({ length: 60 }, () => randomAddress());
        const plan = (await call(server, "POST", "/api/batch/execute", { token: flood.idToken, body: { recipients, amount: "1" } }))
          .body as BatchPlan;
        expect(plan.chunks).to.have.length(60);
        for (let i = 0; i < 60; i += 10) {
          await Promise.all(
            plan.chunks.slice(i, i + 10).map(async (c) => {
              const hash = randomHash();
              floodHashes.set(hash, plan.jobId);
              expect((await report(flood.idToken, plan.jobId, c.index, hash)).status).to.equal(200);
            }),
          );
        }
      }

      // User B pays a chunk for real and reports it; user C reports a transaction that reverted.
      const alice = seeded("alice");
      const aliceToken = (await walletUser(server, alice as never)).idToken;
      const paid = (
        await call(server, "POST", "/api/batch/execute", {
          token: aliceToken,
          body: { recipients: [{ address: randomAddress(), amount: "1" }] },
        })
      ).body as BatchPlan;
      const paidHash = await payChunk(server, alice, paid.chunks[0]);
      expect((await report(aliceToken, paid.jobId, 0, paidHash)).status).to.equal(200);
      const carol = seeded("carol");
      const carolToken = (await walletUser(server, carol as never)).idToken;
      const refused = (
        await call(server, "POST", "/api/batch/execute", {
          token: carolToken,
          body: { recipients: [{ address: randomAddress(), amount: "1" }] },
        })
      ).body as BatchPlan;
      const revertedHash = await revertedPay(server, carol, refused.chunks[0]);
      expect((await report(carolToken, refused.jobId, 0, revertedHash)).status).to.equal(200);

      await server.services.indexer.syncOnce();
      const lookups = countLookups(server);
      try {
        await server.services.batchWatcher.runOnce();
        const b = (await call(server, "GET", `/api/batch/${paid.jobId}`, { token: aliceToken })).body;
        expect(b.job).to.include({ status: "completed", recipientsPaid: 1, txHash: paidHash });
        const c = (await call(server, "GET", `/api/batch/${refused.jobId}`, { token: carolToken })).body;
        expect(c.job.status).to.equal("failed");
        expect(c.job.error).to.match(new RegExp(`^Chunk 1 of 1: Transaction ${revertedHash} reverted: `));

        // B's chunk cost no lookup (its payment is in the index); C's one; A's the rest of the step's share.
        const first = lookups.receipts();
        expect(first.length).to.be.at.most(TX_CHECKS_PER_STEP);
        expect(first).to.include(revertedHash);
        expect(first).not.to.include(paidHash);
        const floodFirst = first.filter((h) => floodHashes.has(h));
        expect(floodFirst).to.have.length(TX_CHECKS_PER_STEP - 1);
        // Round robin over A's five jobs: none gets more than one lookup above another.
        const perJob = new Map<string, number>();
        for (const h of floodFirst) perJob.set(floodHashes.get(h)!, (perJob.get(floodHashes.get(h)!) ?? 0) + 1);
        expect(perJob.size).to.equal(5);
        expect(Math.max(...perJob.values()) - Math.min(...perJob.values())).to.be.at.most(1);
        expect(lookups.seen.length).to.be.at.most(3 * TX_CHECKS_PER_STEP);

        // The next step looks at A's chunks not looked at yet.
        lookups.reset();
        await server.services.batchWatcher.runOnce();
        const second = lookups.receipts();
        expect(second).to.have.length(TX_CHECKS_PER_STEP);
        expect(second.filter((h) => floodFirst.includes(h))).to.deep.equal([]);
      } finally {
        lookups.restore();
      }
    });
  });

  describe("a reported payment mined on a new fork the indexer has not seen yet", () => {
    let server: RunningServer;
    before(async () => {
      server = await startTestServer({ BATCH_CHUNK_SIZE: "2", INDEXER_POLL_MS: "600000" });
      await server.services.batchWatcher.stop();
    });
    after(async () => {
      await server.close();
    });

    it("is not judged unpaid from the old fork's index: it is confirmed once the indexer has rewound", async () => {
      const alice = seeded("alice");
      const token = (await walletUser(server, alice as never)).idToken;
      const recipients = [0, 1].map((i) => ({ address: randomAddress(), amount: `${i + 1}` }));
      const plan = (await call(server, "POST", "/api/batch/execute", { token, body: { recipients } })).body as BatchPlan;
      // The old fork: longer than the new one will be, all indexed.
      const fork = await snapshot();
      await provider().send("hardhat_mine", ["0x8"]);
      await server.services.indexer.syncOnce();
      // The new fork: the payment is mined below the index's checkpoint, which the indexer has not checked again.
      await revert(fork);
      const hash = await payChunk(server, alice, plan.chunks[0]);
      expect((await provider().getTransactionReceipt(hash))!.blockNumber).to.be.at.most(server.services.indexer.status().checkpoint!);
      const report = await call(server, "POST", `/api/batch/${plan.jobId}/transactions`, { token, body: { chunkIndex: 0, txHash: hash } });
      expect(report.status).to.equal(200);
      await server.services.batchWatcher.runOnce();
      const chunk = async () => (await call(server, "GET", `/api/batch/${plan.jobId}`, { token })).body.chunks[0] as ChunkDetail;
      expect(await chunk(), "judged from the old fork's index").to.include({ status: "submitted", txHash: hash });
      // The indexer's next step rewinds and indexes the new fork: the watcher finds the payment.
      await server.services.indexer.syncOnce();
      await server.services.batchWatcher.runOnce();
      expect(await chunk()).to.include({ status: "confirmed", txHash: hash });
    });
  });

  describe("a failed job past its submit window", () => {
    let server: RunningServer;
    before(async () => {
      server = await startTestServer({ BATCH_CHUNK_SIZE: "1", BATCH_SUBMIT_WINDOW_MS: "1500" });
      await server.services.batchWatcher.stop();
    });
    after(async () => {
      await server.close();
    });

    it("is closed: its chunks are no longer looked up or reported, its recipients read 'unpaid', and only the job's payer can still pay a chunk", async () => {
      const alice = seeded("alice");
      const mallory = seeded("bob");
      const token = (await walletUser(server, alice as never)).idToken;
      const recipients = [0, 1].map((i) => ({ address: randomAddress(), amount: `${i + 1}` }));
      const plan = (await call(server, "POST", "/api/batch/execute", { token, body: { recipients } })).body as BatchPlan;
      const lost = randomHash();
      expect(
        (await call(server, "POST", `/api/batch/${plan.jobId}/transactions`, { token, body: { chunkIndex: 0, txHash: lost } })).status,
      ).to.equal(200);
      await sleep(1600);
      await server.services.indexer.syncOnce();
      await server.services.batchWatcher.runOnce();

      let detail = (await call(server, "GET", `/api/batch/${plan.jobId}`, { token })).body;
      expect(detail.job.status).to.equal("failed");
      const error = "Chunk 2 of 2 was never sent: no transaction was reported within 1.5 seconds of starting the batch.";
      expect(detail.job.error).to.equal(error);
      expect(detail.job.chunks).to.deep.equal({ total: 2, confirmed: 0, submitted: 0, failed: 2 });
      expect(detail.chunks.map((c: ChunkDetail) => [c.status, c.txHash])).to.deep.equal([
        ["closed", lost],
        ["closed", null],
      ]);
      expect(detail.chunks[1].error).to.equal("Not paid: the batch failed and was closed 1.5 seconds after it started.");
      expect(detail.recipients.map((r: RecipientDetail) => r.status)).to.deep.equal(["unpaid", "unpaid"]);

      // No more lookups of its reported transaction.
      const lookups = countLookups(server);
      try {
        await server.services.batchWatcher.runOnce();
        await server.services.batchWatcher.runOnce();
        expect(lookups.seen).to.deep.equal([]);
      } finally {
        lookups.restore();
      }
      // No more reports.
      const late = await call(server, "POST", `/api/batch/${plan.jobId}/transactions`, {
        token,
        body: { chunkIndex: 1, txHash: randomHash() },
      });
      expect(late.status).to.equal(409);
      expect(late.body).to.deep.equal({
        success: false,
        error:
          "Chunk 1 is closed: this batch failed and was not completed within 1.5 seconds of starting, so its transactions are no longer followed (a payment of it from the batch's wallet is still recognised on the chain). Start a new batch for the recipients not paid.",
      });
      const stored = await server.services.db.db
        .select()
        .from(batchChunks)
        .where(eq(batchChunks.jobId, plan.jobId))
        .orderBy(batchChunks.index);
      expect(stored.map((c) => [c.status, c.txHash])).to.deep.equal([
        ["closed", lost],
        ["closed", null],
      ]);

      // A copy from another wallet changes nothing; the job's own wallet still pays a closed chunk.
      await payChunk(server, mallory, plan.chunks[1]);
      await server.services.indexer.syncOnce();
      await server.services.batchWatcher.runOnce();
      expect((await call(server, "GET", `/api/batch/${plan.jobId}`, { token })).body.chunks[1].status).to.equal("closed");
      const late1 = await payChunk(server, alice, plan.chunks[1]);
      await server.services.indexer.syncOnce();
      await server.services.batchWatcher.runOnce();
      detail = (await call(server, "GET", `/api/batch/${plan.jobId}`, { token })).body;
      expect(detail.chunks.map((c: ChunkDetail) => [c.status, c.txHash])).to.deep.equal([
        ["closed", lost],
        ["confirmed", late1],
      ]);
      expect(detail.recipients.map((r: RecipientDetail) => r.status)).to.deep.equal(["unpaid", "paid"]);
      expect(detail.job).to.include({ status: "failed", error, recipientsPaid: 1 });
      const [job] = await server.services.db.db.select().from(batchJobs).where(eq(batchJobs.id, plan.jobId));
      expect(job.status).to.equal("failed");
    });
  });

  describe("a burst of reports", () => {
    let server: RunningServer;
    before(async () => {
      // The watcher's own interval is long: only reports wake it.
      server = await startTestServer({ BATCH_CHUNK_SIZE: "1", INDEXER_POLL_MS: "60000", USER_BATCH_REPORTS_PER_MINUTE: "100000" });
    });
    after(async () => {
      await server.close();
    });

    it("costs a step per POKE_GAP_MS at most, not one per report", async function () {
      this.timeout(60_000);
      const user = await emailUser();
      const recipients = Array.from({ length: 40 }, () => randomAddress());
      const plan = (await call(server, "POST", "/api/batch/execute", { token: user.idToken, body: { recipients, amount: "1" } }))
        .body as BatchPlan;
      const watcher = server.services.batchWatcher;
      await sleep(300); // the start's first step is over
      let steps = 0;
      // step is private: reached by name. The watcher's ticker calls this.step(), so the counting one runs.
      const step = watcher["step"];
      watcher["step"] = function (this: unknown) {
        steps++;
        return step.call(watcher);
      };
      const started = Date.now();
      // Reported as a dashboard with several tabs might: a few at a time.
      for (let i = 0; i < plan.chunks.length; i += 4) {
        const answers = await Promise.all(
          plan.chunks.slice(i, i + 4).map((c) =>
            call(server, "POST", `/api/batch/${plan.jobId}/transactions`, {
              token: user.idToken,
              body: { chunkIndex: c.index, txHash: randomHash() },
            }),
          ),
        );
        for (const a of answers) expect(a.status).to.equal(200);
      }
      const elapsed = Date.now() - started;
      // Every step the reports asked for has run once the count stays still.
      for (let before = -1; before !== steps;) {
        before = steps;
        await sleep(4 * POKE_GAP_MS);
      }
      watcher["step"] = step;
      expect(steps).to.be.at.least(1);
      expect(steps, `${steps} steps for 40 reports in ${elapsed} ms`).to.be.at.most(Math.ceil(elapsed / POKE_GAP_MS) + 2);
    });
  });
});
