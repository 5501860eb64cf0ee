import { expect } from "chai";
import { eq } from "drizzle-orm";
import { HDNodeWallet, getAddress, hexlify, parseUnits, randomBytes } from "ethers";
import { BatchPayments__factory, USDX__factory } from "@bindings";
import type { ChunkDetail, RecipientDetail } from "@common/apiTypes";
import { batchJobs, batchRecipients } from "../src/db/schema";
import type { RunningServer } from "../src/index";
import { BatchPlan, call, emailUser, PlanChunk, revert, seeded, snapshot, startTestServer, walletUser } from "./helpers";

/**
 * Issue 13, part 2: anyone can copy a pending chunk's paymentRef from the mempool and pay it first.
 * Such a payment never fails the chunk, never binds the job and never shows as the job's.
 */

const randomAddress = () => getAddress(hexlify(randomBytes(20)));
const usd = (amount: string) => parseUnits(amount, 18);

describe("batch payments: a copied payment reference (front-running)", () => {
  let server: RunningServer;
  let chainSnapshot: string;
  let alice: HDNodeWallet;
  // The front-runner: another holder who watches the mempool.
  let mallory: HDNodeWallet;
  let aliceToken: string;

  before(async () => {
    alice = seeded("alice");
    mallory = seeded("bob");
    chainSnapshot = await snapshot();
    server = await startTestServer({ BATCH_CHUNK_SIZE: "2" });
    aliceToken = (await walletUser(server, alice as never)).idToken;
  });
  after(async () => {
    await server.close();
    await revert(chainSnapshot);
  });

  const execute = (body: unknown, token = aliceToken) => call(server, "POST", "/api/batch/execute", { token, body });
  const report = (jobId: string, chunkIndex: number, txHash: string, token = aliceToken) =>
    call(server, "POST", `/api/batch/${jobId}/transactions`, { token, body: { chunkIndex, txHash } });
  const settle = async () => {
    await server.services.indexer.syncOnce();
    await server.services.batchWatcher.runOnce();
  };
  /** `from` approves and calls BatchPayments.pay itself, as anyone can. */
  const payAs = async (from: HDNodeWallet, recipients: string[], amounts: (string | bigint)[], reference: string) => {
    const { proxy, batchPayments } = server.services.chain.manifest;
    const total = amounts.reduce<bigint>((sum, a) => sum + BigInt(a), 0n);
    await (await USDX__factory.connect(proxy, from).approve(batchPayments, total)).wait();
    const tx = await BatchPayments__factory.connect(batchPayments, from).pay(recipients, amounts, reference);
    await tx.wait();
    return tx.hash.toLowerCase();
  };
  const payChunk = (from: HDNodeWallet, chunk: PlanChunk) => payAs(from, chunk.recipients, chunk.amounts, chunk.reference);

  /** Every answer the job's owner can read about it, as one text. */
  async function everything(jobId: string, token = aliceToken): Promise<string> {
    const answers = await Promise.all([
      call(server, "GET", `/api/batch/${jobId}`, { token }),
      call(server, "GET", "/api/batch/status", { token }),
      call(server, "GET", "/api/batch", { token }),
    ]);
    for (const a of answers) expect(a.status).to.equal(200);
    return JSON.stringify(answers.map((a) => a.body)).toLowerCase();
  }
  const detail = async (jobId: string, token = aliceToken) => (await call(server, "GET", `/api/batch/${jobId}`, { token })).body;

  it("a front-runner paying other recipients under the chunk's reference fails nothing and shows nowhere; the real payment pays the job", async () => {
    const recipients = [0, 1, 2].map((i) => ({ name: `Payee ${i}`, address: randomAddress(), amount: `${i + 1}` }));
    const plan = (await execute({ recipients, payer: alice.address })).body as BatchPlan;
    expect(plan.chunks).to.have.length(2);
    const [c0, c1] = plan.chunks;

    // Mallory copies both references: chunk 0's to pay herself, chunk 1's with the right recipients and wrong amounts.
    const copied0 = await payAs(mallory, [mallory.address], [1n], c0.reference);
    const copied1 = await payAs(mallory, c1.recipients, ["1"], c1.reference);
    await settle();
    let seen = await detail(plan.jobId);
    expect(seen.job).to.include({ status: "processing", error: null, payer: alice.address });
    expect(seen.chunks.map((c: ChunkDetail) => c.status)).to.deep.equal(["pending", "pending"]);

    // The real payments: chunk 0 reported by the dashboard, chunk 1 found by its reference alone.
    const real0 = await payChunk(alice, c0);
    expect((await report(plan.jobId, 0, real0)).status).to.equal(200);
    const real1 = await payChunk(alice, c1);
    await settle();

    seen = await detail(plan.jobId);
    expect(seen.job).to.include({ status: "completed", recipientsPaid: 3, error: null, payer: alice.address });
    expect(seen.chunks.map((c: ChunkDetail) => [c.status, c.txHash])).to.deep.equal([
      ["confirmed", real0],
      ["confirmed", real1],
    ]);
    expect(seen.recipients.map((r: RecipientDetail) => [r.status, r.txHash])).to.deep.equal([
      ["paid", real0],
      ["paid", real0],
      ["paid", real1],
    ]);
    const rows = await server.services.db.db.select().from(batchRecipients).where(eq(batchRecipients.jobId, plan.jobId));
    expect(rows).to.have.length(3);
    const all = await everything(plan.jobId);
    expect(all).to.include(real0).and.to.include(real1);
    expect(all).not.to.include(copied0);
    expect(all).not.to.include(copied1);
  });

  it("a front-runner's wrong payment does not bind a job whose payer is not known yet", async () => {
    const owner = await emailUser();
    const recipients = [{ address: randomAddress(), amount: "2" }];
    const plan = (await execute({ recipients }, owner.idToken)).body as BatchPlan;
    const c0 = plan.chunks[0];
    const copied = await payAs(mallory, [mallory.address], [usd("2")], c0.reference);
    await settle();
    let seen = await detail(plan.jobId, owner.idToken);
    expect(seen.job).to.include({ status: "processing", payer: null, error: null });
    expect(seen.chunks[0]).to.include({ status: "pending", txHash: null });

    const real = await payChunk(alice, c0);
    await settle();
    seen = await detail(plan.jobId, owner.idToken);
    expect(seen.job).to.include({ status: "completed", payer: alice.address, recipientsPaid: 1 });
    expect(seen.chunks[0]).to.include({ status: "confirmed", txHash: real });
    expect(await everything(plan.jobId, owner.idToken)).not.to.include(copied);
  });

  it("an exact copy paid from another wallet is ignored when the job's payer is known", async () => {
    const recipients = [0, 1].map((i) => ({ address: randomAddress(), amount: `${i + 3}` }));
    const plan = (await execute({ recipients, payer: alice.address })).body as BatchPlan;
    const c0 = plan.chunks[0];
    const copied = await payChunk(mallory, c0);
    await settle();
    expect((await detail(plan.jobId)).chunks[0]).to.include({ status: "pending", txHash: null });

    const real = await payChunk(alice, c0);
    await settle();
    const seen = await detail(plan.jobId);
    expect(seen.job).to.include({ status: "completed", payer: alice.address });
    expect(seen.chunks[0]).to.include({ status: "confirmed", txHash: real });
    expect(await everything(plan.jobId)).not.to.include(copied);
  });

  it("the owner's own reported transaction from another wallet, or with other amounts, still fails its chunk, which can then be paid", async () => {
    const recipients = [{ address: randomAddress(), amount: "1" }];
    const plan = (await execute({ recipients, payer: alice.address })).body as BatchPlan;
    const c0 = plan.chunks[0];
    // Sent from the wrong wallet (the dashboard would not, but a person may): reported, so it fails the chunk.
    const wrongWallet = await payChunk(mallory, c0);
    await report(plan.jobId, 0, wrongWallet);
    await settle();
    let seen = await detail(plan.jobId);
    expect(seen.job.status).to.equal("failed");
    expect(seen.chunks[0].error).to.equal(
      `Transaction ${wrongWallet} paid this chunk's reference from ${mallory.address}, but this batch is paid from ${alice.address}: only that wallet's payment counts.`,
    );
    // Paid again from the right wallet, reported or not: the failed chunk is paid.
    const real = await payChunk(alice, c0);
    await settle();
    seen = await detail(plan.jobId);
    expect(seen.job).to.include({ status: "completed", error: null });
    expect(seen.chunks[0]).to.include({ status: "confirmed", txHash: real });
  });

  it("known limit: an exact copy binds a job whose payer was not known, and from then on only that payer counts", async () => {
    const owner = await emailUser();
    const recipients = [0, 1, 2].map((i) => ({ address: randomAddress(), amount: `${i + 1}` }));
    const plan = (await execute({ recipients }, owner.idToken)).body as BatchPlan;
    const [c0, c1] = plan.chunks;
    // Mallory pays chunk 0 exactly as planned, from her own funds: the recipients are paid as planned.
    const copied = await payChunk(mallory, c0);
    await settle();
    let seen = await detail(plan.jobId, owner.idToken);
    expect(seen.job.payer).to.equal(mallory.address);
    expect(seen.chunks[0]).to.include({ status: "confirmed", txHash: copied });

    // Alice's payment of chunk 1 no longer counts for this job.
    const alices = await payChunk(alice, c1);
    await settle();
    seen = await detail(plan.jobId, owner.idToken);
    expect(seen.chunks[1]).to.include({ status: "pending", txHash: null });
    const [job] = await server.services.db.db.select().from(batchJobs).where(eq(batchJobs.id, plan.jobId));
    expect(job.payer).to.equal(mallory.address);
    expect(await everything(plan.jobId, owner.idToken)).not.to.include(alices);
  });
});
