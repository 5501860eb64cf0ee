import { expect } from "chai";
import { eq } from "drizzle-orm";
import { rmSync } from "node:fs";
import { HDNodeWallet, Signature, getAddress, hexlify, keccak256, parseUnits, randomBytes } from "ethers";
import { BatchPayments__factory, USDX__factory } from "@bindings";
import { PERMIT_TYPES, permitDomain } from "@common/permit";
import type { ChunkDetail, ChunkPlan, JobSummary } from "@common/apiTypes";
import { batchJobs, batchRecipients } from "../src/db/schema";
import type { RunningServer } from "../src/index";
import { BatchPlan, call, emailUser, provider, revert, seeded, snapshot, startTestServer, walletUser } from "./helpers";
import { migratedDataDir } from "./dataDirs";

const randomAddress = () => getAddress(hexlify(randomBytes(20)));
const usd = (amount: string) => parseUnits(amount, 18);

describe("batch payment jobs: /api/batch/execute, transactions, status, history", () => {
  let server: RunningServer;
  let chainSnapshot: string;
  let alice: HDNodeWallet;
  let aliceToken: string;
  let other: string;

  before(async () => {
    chainSnapshot = await snapshot();
    // Chunks of 5, so a dozen recipients need three transactions.
    server = await startTestServer({ BATCH_CHUNK_SIZE: "5" });
    alice = seeded("alice");
    aliceToken = (await walletUser(server, alice as never)).idToken;
    other = (await emailUser()).idToken;
  });
  after(async () => {
    await server.close();
    await revert(chainSnapshot);
  });

  const usdx = () => USDX__factory.connect(server.services.chain.manifest.proxy, alice);
  const batchContract = () => BatchPayments__factory.connect(server.services.chain.manifest.batchPayments, alice);
  const execute = (body: unknown, token = aliceToken, s = server) => call(s, "POST", "/api/batch/execute", { token, body });
  const report = (jobId: string, chunkIndex: number, txHash: string, token = aliceToken, s = server) =>
    call(s, "POST", `/api/batch/${jobId}/transactions`, { token, body: { chunkIndex, txHash } });
  const status = (token = aliceToken, s = server) => call(s, "GET", "/api/batch/status", { token });
  /** Lets the indexer read the newest blocks and the watcher act on them. */
  const settle = async (s = server) => {
    await s.services.indexer.syncOnce();
    await s.services.batchWatcher.runOnce();
  };
  /** Approves the chunk's total and pays it, as a wallet without the permit path would. */
  const pay = async (chunk: BatchPlan["chunks"][number]) => {
    await (await usdx().approve(server.services.chain.manifest.batchPayments, chunk.total)).wait();
    const tx = await batchContract().pay(chunk.recipients, chunk.amounts, chunk.reference);
    await tx.wait();
    return tx.hash;
  };

  /** The wallet's permit for `value` to the batch contract, as the dashboard asks for it. */
  async function permit(value: bigint) {
    const token = usdx();
    const nonce = await token.nonces(alice.address);
    const deadline = BigInt(Math.floor(Date.now() / 1000) + 3600);
    const domain = permitDomain(31337, await token.getAddress(), await token.name());
    const spender = server.services.chain.manifest.batchPayments;
    const sig = Signature.from(await alice.signTypedData(domain, PERMIT_TYPES, { owner: alice.address, spender, value, nonce, deadline }));
    return { deadline, v: sig.v, r: sig.r, s: sig.s };
  }

  it("plans a job of different amounts in chunks, is paid chunk by chunk, and marks every recipient paid", async () => {
    const recipients = Array.from({ length: 12 }, (_, i) => ({ name: `Payee ${i}`, address: randomAddress(), amount: `${i + 1}.${i}5` }));
    const started = await execute({ recipients });
    expect(started.status).to.equal(201);
    expect(started.body).to.include({ success: true, status: "processing", totalAmount: "83.22" });
    const plan = started.body as BatchPlan;
    expect(plan.batchContract).to.equal(server.services.chain.manifest.batchPayments);
    expect(plan.chunks.map((c) => c.recipients.length)).to.deep.equal([5, 5, 2]);
    expect(plan.chunks[1].recipients[0]).to.equal(recipients[5].address);
    expect(plan.chunks[1].amounts[0]).to.equal(usd("6.55").toString());
    expect(new Set(plan.chunks.map((c) => c.reference)).size).to.equal(3);

    const before = await Promise.all(recipients.map((r) => usdx().balanceOf(r.address)));
    // The first chunk with the dashboard's path: one permit for the whole job, then pay.
    const signed = await permit(BigInt(plan.totalAmountRaw));
    const c0 = plan.chunks[0];
    const tx0 = await batchContract().payWithPermit(
      c0.recipients,
      c0.amounts,
      c0.reference,
      plan.totalAmountRaw,
      signed.deadline,
      signed.v,
      signed.r,
      signed.s,
    );
    await tx0.wait();
    const recorded = await report(plan.jobId, 0, tx0.hash);
    expect(recorded.status).to.equal(200);
    expect(recorded.body.chunk).to.include({ index: 0, status: "submitted", txHash: tx0.hash });
    await settle();
    let now = await status();
    expect(now.body.data).to.include({
      jobId: plan.jobId,
      status: "processing",
      recipients: 12,
      recipientsPaid: 5,
      txHash: tx0.hash,
      amount: null,
    });
    expect(now.body.data.chunks).to.deep.equal({ total: 3, confirmed: 1, submitted: 0, failed: 0 });

    const tx1 = await pay(plan.chunks[1]);
    const tx2 = await pay(plan.chunks[2]);
    await report(plan.jobId, 1, tx1);
    await report(plan.jobId, 2, tx2);
    await settle();
    now = await status();
    expect(now.body.data).to.include({ status: "completed", recipientsPaid: 12, totalAmount: "83.22", payer: alice.address, error: null });
    expect(now.body.data.txHashes).to.deep.equal([tx0.hash, tx1, tx2]);

    const after = await Promise.all(recipients.map((r) => usdx().balanceOf(r.address)));
    recipients.forEach((r, i) => {
      const rise = after[i] - before[i];
      // A rebasing balance may show up to two base units less than was sent: the amount is turned
      // into shares and back, rounding down each way.
      expect(rise >= usd(r.amount) - 2n && rise <= usd(r.amount), `${r.name} received ${rise}`).to.equal(true);
    });

    const detail = await call(server, "GET", `/api/batch/${plan.jobId}`, { token: aliceToken });
    expect(detail.status).to.equal(200);
    expect(detail.body.chunks.map((c: ChunkDetail) => c.status)).to.deep.equal(["confirmed", "confirmed", "confirmed"]);
    expect(detail.body.recipients[11]).to.deep.include({
      position: 11,
      chunkIndex: 2,
      name: "Payee 11",
      amount: "12.115",
      status: "paid",
      txHash: tx2,
    });
    const history = await call(server, "GET", "/api/batch", { token: aliceToken });
    expect(history.body.jobs.map((j: JobSummary) => j.jobId)).to.include(plan.jobId);

    // Reporting the same transaction again changes nothing; another transaction for a paid chunk is refused.
    expect((await report(plan.jobId, 2, tx2)).status).to.equal(200);
    const again = await report(plan.jobId, 2, tx1);
    expect(again.status).to.equal(409);
    expect(again.body.error).to.match(/already paid/);
  });

  it("still takes the spec's form: a list of addresses and one amount", async () => {
    const addresses = [randomAddress(), randomAddress()];
    const started = await execute({ recipients: addresses, amount: "2.5" });
    expect(started.status).to.equal(201);
    expect(started.body.chunks[0].amounts).to.deep.equal([usd("2.5").toString(), usd("2.5").toString()]);
    await report(started.body.jobId, 0, await pay(started.body.chunks[0]));
    await settle();
    expect((await status()).body.data).to.include({ status: "completed", amount: "2.5", totalAmount: "5", recipients: 2 });
  });

  it("learns the payer from the chain when the user signed in by email, and pays a chunk nobody reported", async () => {
    const started = await execute({ recipients: [{ address: randomAddress(), amount: "1" }] }, other);
    expect(started.status).to.equal(201);
    expect(started.body.totalAmount).to.equal("1");
    await pay(started.body.chunks[0]);
    await settle();
    const job = (await status(other)).body.data;
    expect(job).to.include({ status: "completed", payer: alice.address, recipientsPaid: 1 });
  });

  it("fails a chunk whose transaction reverted, with the contract's error in words, and lets it be tried again", async () => {
    const started = await execute({ recipients: [{ address: randomAddress(), amount: "3" }] });
    const plan = started.body as BatchPlan;
    const c0 = plan.chunks[0];
    await (await usdx().approve(plan.batchContract, 0)).wait();
    // Signed with a fixed gas limit, so no estimate refuses it first; the node mines it and it reverts.
    const unsigned = await batchContract().pay.populateTransaction(c0.recipients, c0.amounts, c0.reference);
    const raw = await alice.signTransaction(await alice.populateTransaction({ ...unsigned, gasLimit: 300_000 }));
    const reverted = { hash: keccak256(raw) };
    await provider()
      .broadcastTransaction(raw)
      .catch(() => undefined);
    expect((await provider().getTransactionReceipt(reverted.hash))?.status).to.equal(0);
    await report(plan.jobId, 0, reverted.hash);
    await settle();
    let job = (await status()).body.data;
    expect(job.status).to.equal("failed");
    expect(job.error).to.match(new RegExp(`^Chunk 1 of 1: Transaction ${reverted.hash} reverted: `));
    expect(job.error).to.match(/allowance/i);

    const retry = await pay(c0);
    await report(plan.jobId, 0, retry);
    expect((await status()).body.data.status).to.equal("processing");
    await settle();
    job = (await status()).body.data;
    expect(job).to.include({ status: "completed", txHash: retry, error: null });
  });

  it("fails a chunk whose reported transaction paid something else, or paid other amounts under its reference", async () => {
    const started = await execute({ recipients: [{ address: randomAddress(), amount: "4" }] });
    const plan = started.body as BatchPlan;
    const unrelated = await (await usdx().transfer(randomAddress(), usd("1"))).wait();
    await report(plan.jobId, 0, unrelated!.hash);
    await settle();
    let job = (await status()).body.data;
    expect(job.status).to.equal("failed");
    expect(job.error).to.match(
      /did not pay this chunk: it has no BatchPaid event with the chunk's reference \(it was not sent to the batch payment contract\)/,
    );

    const c0 = plan.chunks[0];
    await (await usdx().approve(plan.batchContract, usd("5"))).wait();
    const tampered = await (await batchContract().pay(c0.recipients, [usd("5")], c0.reference)).wait();
    await report(plan.jobId, 0, tampered!.hash);
    await settle();
    job = (await status()).body.data;
    expect(job.status).to.equal("failed");
    expect(job.error).to.match(/paid other recipients or amounts than planned/);
    const [row] = await server.services.db.db.select().from(batchRecipients).where(eqJob(plan.jobId));
    expect(row.status).to.equal("pending");
  });

  it("refuses a batch it cannot pay before anything is stored, saying why", async () => {
    const count = async () => (await server.services.db.db.select().from(batchJobs)).length;
    const stored = await count();
    const cases: [unknown, RegExp][] = [
      [{ recipients: [] }, /^No valid recipients found/],
      [
        {
          recipients: [
            { address: "0x1234", amount: "1" },
            { address: randomAddress(), amount: "0" },
          ],
        },
        /recipient 1: Invalid Ethereum address .*recipient 2: Invalid amount/,
      ],
      [
        { recipients: [{ address: randomAddress(), amount: "1.0000000000000000001" }] },
        /Invalid amount \('1.0000000000000000001' has 19 decimals/,
      ],
      [{ recipients: [{ address: randomAddress(), amount: 5 }] }, /^Invalid request body/],
      [{ recipients: "everyone" }, /^Invalid request body/],
      [{ recipients: [{ address: randomAddress(), amount: "1" }], payer: "nobody" }, /^payer: /],
      [
        { recipients: [{ address: randomAddress(), amount: "1000000" }], payer: alice.address },
        /^Insufficient balance: .* holds .* USDX and this batch needs 1000000 USDX\.$/,
      ],
      [{ recipients: [{ address: randomAddress(), amount: "1" }], payer: seededAccountAddress("dave") }, /is blocked: it cannot send USDX/],
    ];
    for (const [body, message] of cases) {
      const answer = await execute(body);
      expect(answer.status, JSON.stringify(body)).to.equal(400);
      expect(answer.body.success).to.equal(false);
      expect(answer.body.error).to.match(message);
    }
    const tooMany = await execute({
      recipients: Array.from({ length: 10_001 }, () => "0x000000000000000000000000000000000000dEaD"),
      amount: "1",
    });
    expect(tooMany.status).to.equal(400);
    expect(tooMany.body.error).to.equal("The batch has 10,001 recipients; at most 10,000 can be paid in one batch.");
    expect(await count()).to.equal(stored);
  });

  it("plans 10,000 recipients in one request under the 1 MB body limit", async () => {
    const recipients = Array.from({ length: 10_000 }, (_, i) => ({ name: `Employee ${i}`, address: randomAddress(), amount: "0.01" }));
    const body = JSON.stringify({ recipients });
    expect(body.length).to.be.below(1024 * 1024);
    const big = await startTestServer();
    try {
      const started = await execute(body, other, big);
      expect(started.status).to.equal(201);
      // The default chunk: as many as fit under the per-transaction gas cap.
      expect(started.body.chunks.map((c: ChunkPlan) => c.recipients.length).slice(0, 2)).to.deep.equal([564, 564]);
      expect(started.body.chunks).to.have.length(18);
      expect(started.body.totalAmount).to.equal("100");
    } finally {
      await big.close();
    }
  });

  it("keeps each user's jobs their own", async () => {
    const mine = (await execute({ recipients: [{ address: randomAddress(), amount: "1" }] })).body as BatchPlan;
    const theirs = await call(server, "GET", `/api/batch/${mine.jobId}`, { token: other });
    expect(theirs.status).to.equal(404);
    expect(theirs.body.error).to.equal(`No batch job ${mine.jobId} among yours.`);
    const hijack = await report(mine.jobId, 0, `0x${"ab".repeat(32)}`, other);
    expect(hijack.status).to.equal(404);
    const list = await call(server, "GET", "/api/batch", { token: other });
    expect(list.body.jobs.map((j: JobSummary) => j.jobId)).not.to.include(mine.jobId);
    const detail = await call(server, "GET", `/api/batch/${mine.jobId}`, { token: aliceToken });
    expect(detail.body.chunks[0]).to.include({ status: "pending", txHash: null });
  });

  it("checks what a transaction report says", async () => {
    const mine = (await execute({ recipients: [{ address: randomAddress(), amount: "1" }] })).body as BatchPlan;
    const bad: [string, unknown, number, RegExp][] = [
      [mine.jobId, { chunkIndex: 0, txHash: "0x1234" }, 400, /txHash: must be a transaction hash/],
      [mine.jobId, { chunkIndex: -1, txHash: `0x${"1".repeat(64)}` }, 400, /chunkIndex: must be 0 or more/],
      [mine.jobId, { chunkIndex: "0", txHash: `0x${"1".repeat(64)}` }, 400, /chunkIndex: must be a number/],
      [mine.jobId, { chunkIndex: 7, txHash: `0x${"1".repeat(64)}` }, 400, /no chunk 7/],
      ["not-a-job", { chunkIndex: 0, txHash: `0x${"1".repeat(64)}` }, 400, /id: must be a batch job id/],
    ];
    for (const [jobId, body, code, message] of bad) {
      const answer = await call(server, "POST", `/api/batch/${jobId}/transactions`, { token: aliceToken, body });
      expect(answer.status, JSON.stringify(body)).to.equal(code);
      expect(answer.body.error).to.match(message);
    }
    const newcomer = (await emailUser()).idToken;
    expect((await status(newcomer)).body).to.deep.equal({ success: true, data: null });
    expect((await call(server, "GET", "/api/batch", { token: newcomer })).body).to.deep.equal({
      success: true,
      jobs: [],
      nextBefore: null,
    });
    expect((await call(server, "GET", "/api/batch/status")).status).to.equal(401);
    expect((await call(server, "GET", "/api/batch/status", { token: "forged" })).status).to.equal(401);
  });

  it("fails a job whose chunk was never sent in time, and one whose transaction the chain never saw", async () => {
    const quick = await startTestServer({ BATCH_SUBMIT_WINDOW_MS: "1000", BATCH_TX_NOT_FOUND_MS: "1000" });
    try {
      const unsent = (await execute({ recipients: [{ address: randomAddress(), amount: "1" }] }, aliceToken, quick)).body as BatchPlan;
      const lost = (await execute({ recipients: [{ address: randomAddress(), amount: "1" }] }, other, quick)).body as BatchPlan;
      await report(lost.jobId, 0, `0x${"42".repeat(32)}`, other, quick);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      await settle(quick);
      const a = (await call(quick, "GET", `/api/batch/${unsent.jobId}`, { token: aliceToken })).body.job;
      expect(a.status).to.equal("failed");
      expect(a.error).to.equal("Chunk 1 of 1 was never sent: no transaction was reported within 1 second of starting the batch.");
      const b = (await call(quick, "GET", `/api/batch/${lost.jobId}`, { token: other })).body.job;
      expect(b.status).to.equal("failed");
      expect(b.error).to.match(/was not found on the chain .* it may have been dropped\. Send the chunk again\.$/);
    } finally {
      await quick.close();
    }
  });

  it("opens a paid chunk again when a rewind removes its block: the job is processing again and its recipients unpaid", async () => {
    const before = await snapshot();
    const recipients = Array.from({ length: 3 }, (_, i) => ({ address: randomAddress(), amount: `${i + 1}` }));
    const plan = (await execute({ recipients })).body as BatchPlan;
    await report(plan.jobId, 0, await pay(plan.chunks[0]));
    await settle();
    const paid = (await status()).body.data;
    expect(paid).to.include({ jobId: plan.jobId, status: "completed", recipientsPaid: 3 });

    // The block that paid it is gone (evm_revert drops its transaction too).
    await revert(before);
    await server.services.indexer.syncOnce();
    const reopened = await server.services.db.db.select().from(batchRecipients).where(eqJob(plan.jobId));
    expect(reopened.map((r) => r.status)).to.deep.equal(["pending", "pending", "pending"]);
    const [job] = await server.services.db.db.select().from(batchJobs).where(eq(batchJobs.id, plan.jobId));
    expect(job).to.include({ status: "processing", completedAt: null });
    expect((await status()).body.data).to.include({ jobId: plan.jobId, status: "processing", recipientsPaid: 0 });
  });

  it("carries a job across a server restart: chunks paid while it was down are found, nothing is counted twice", async () => {
    const dir = await migratedDataDir("usdx-batch-");
    try {
      const first = await startTestServer({ PGLITE_DIR: dir, BATCH_CHUNK_SIZE: "2" });
      const token = (await walletUser(first, alice as never)).idToken;
      const recipients = Array.from({ length: 5 }, (_, i) => ({ address: randomAddress(), amount: `${i + 1}` }));
      const plan = (await execute({ recipients }, token, first)).body as BatchPlan;
      await report(plan.jobId, 0, await pay(plan.chunks[0]), token, first);
      await settle(first);
      await first.close();

      // While the server is down the wallet pays chunk 1 and sends chunk 2 without reporting it.
      await pay(plan.chunks[1]);
      const tx2 = await pay(plan.chunks[2]);

      const second = await startTestServer({ PGLITE_DIR: dir, BATCH_CHUNK_SIZE: "2" });
      try {
        // The restarted watcher finds chunks 1 and 2 by their references, reported or not.
        await settle(second);
        const job = (await status(token, second)).body.data;
        expect(job).to.include({ jobId: plan.jobId, status: "completed", recipientsPaid: 5, totalAmount: "15" });
        expect(job.txHashes[2]).to.equal(tx2);
        // The late report of chunk 2 agrees with what was found, and pays nobody twice.
        expect((await report(plan.jobId, 2, tx2, token, second)).status).to.equal(200);
        await settle(second);
        const rows = await second.services.db.db.select().from(batchRecipients).where(eqJob(plan.jobId));
        expect(rows.filter((r) => r.status === "paid")).to.have.length(5);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const eqJob = (jobId: string) => eq(batchRecipients.jobId, jobId);

function seededAccountAddress(name: string): string {
  return seeded(name).address;
}
