/**
 * A Safe pays a batch (issue 28 section 4): a job whose payer is the Operations Safe, each chunk
 * proposed as a MultiSend of approve and pay, approved and executed by two owners, and followed by
 * the job as it follows chunks a wallet sends; every refusal that keeps each recipient paid once.
 */
import { expect } from "chai";
import { hexlify, randomBytes } from "ethers";
import { USDX__factory, BatchPayments__factory } from "@bindings";
import type { RunningServer } from "../src/index";
import { call, randomAddress, seeded, startTestServer, type BatchPlan } from "./helpers";
import { deployment, execute, expectRefused, owner, safeSuite, safeNonce, sign } from "./safesHelpers";
import { multiSendSafeTx, rejectionSafeTx, safeTxHash, type SafeTx } from "@common/safe";
import { chunkCalls, chunkSafeTx } from "@common/safeBatch";

type SafePlan = BatchPlan & { payerIsSafe: boolean; multiSendCallOnly: string | null; token: string };

describe("/api/safes and /api/batch: a Safe pays a batch", () => {
  let server: RunningServer;
  let token: string;
  const api = safeSuite((s, t) => {
    server = s;
    token = t;
  });

  const where = () => ({ token: server.services.chain.manifest.proxy, batchPayments: server.services.chain.manifest.batchPayments });
  const settle = async (s = server) => {
    await s.services.indexer.syncOnce();
    await s.services.batchWatcher.runOnce();
  };
  /** A job of `amounts` (USDX) to new addresses, paid from `payer` (the Operations Safe unless said). */
  async function start(amounts: string[], payer = deployment().safe, s = server): Promise<SafePlan> {
    const recipients = amounts.map((amount) => ({ address: randomAddress(), amount }));
    const answer = await call(s, "POST", "/api/batch/execute", { token, body: { recipients, payer } });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(201);
    return answer.body as SafePlan;
  }
  const chunkOf = (plan: SafePlan, index = 0) => {
    const c = plan.chunks[index];
    return { recipients: c.recipients, amounts: c.amounts.map(BigInt), total: BigInt(c.total), reference: c.reference };
  };
  /** The chunk's SafeTx at `nonce`, signed by `by` and proposed. */
  async function propose(tx: SafeTx, by = owner("minter"), s = server) {
    const { safe } = deployment();
    return call(s, "POST", `/api/safes/${safe}/proposals`, { token, body: { tx, signature: await sign(by, safe, tx) } });
  }
  const detail = async (jobId: string, s = server) => (await call(s, "GET", `/api/batch/${jobId}`, { token })).body;

  it("proposes a 3-row job's chunk, approved and executed by two owners: the watcher marks it paid and each recipient is paid exactly once", async () => {
    const { safe } = deployment();
    const plan = await start(["1.5", "2", "3"]);
    expect(plan).to.include({ payerIsSafe: true, multiSendCallOnly: deployment().safeContracts.multiSendCallOnly });
    expect(plan.chunks).to.have.length(1);
    const tx = chunkSafeTx(plan.multiSendCallOnly!, where(), chunkOf(plan), await safeNonce(safe));

    const proposed = await propose(tx);
    expect(proposed.status, JSON.stringify(proposed.body)).to.equal(201);
    expect(proposed.body.proposal.description).to.equal(`Pay 3 recipients 6.50 USDX (chunk 1 of 1 of batch ${plan.jobId.slice(0, 8)})`);
    const waiting = await detail(plan.jobId);
    expect(waiting.job).to.include({ status: "processing", payerIsSafe: true });
    expect(waiting.chunks[0]).to.deep.include({ status: "pending" });
    expect(waiting.chunks[0].proposal).to.deep.equal({ safeTxHash: safeTxHash(31337, safe, tx), nonce: 0, state: "pending" });

    const hash = safeTxHash(31337, safe, tx);
    expect((await api.approve(safe, hash, await sign(owner("approver"), safe, tx))).body.proposal.confirmations).to.equal(2);
    await execute(safe, tx, [owner("approver"), owner("minter")]);
    await settle();

    const paid = await detail(plan.jobId);
    expect(paid.job).to.include({ status: "completed", recipientsPaid: 3 });
    expect(paid.recipients.map((r: { status: string }) => r.status)).to.deep.equal(["paid", "paid", "paid"]);
    const usdx = USDX__factory.connect(where().token, server.services.chain.provider);
    for (const [i, recipient] of plan.chunks[0].recipients.entries()) {
      const received = await usdx.queryFilter(usdx.filters.Transfer(undefined, recipient));
      expect(received.map((e) => [e.args.from, e.args.value])).to.deep.equal([[safe, BigInt(plan.chunks[0].amounts[i])]]);
    }
    const batch = BatchPayments__factory.connect(where().batchPayments, server.services.chain.provider);
    expect(await batch.queryFilter(batch.filters.BatchPaid(plan.chunks[0].reference))).to.have.length(1);
    expect((await api.list(safe)).body.proposals[0]).to.include({ state: "executed" });

    // Paid: the same chunk is refused at the next nonce, so nobody is paid twice.
    await expectRefused(
      server,
      () => propose(chunkSafeTx(plan.multiSendCallOnly!, where(), chunkOf(plan), 1)),
      409,
      /^Chunk 1 of 1 of batch [0-9a-f]{8} is already paid, by transaction 0x[0-9a-f]{64}: it is not paid again\.$/,
    );
  });

  it("a job paid from a wallet is no Safe's: no MultiSendCallOnly in its plan", async () => {
    const wallet = await start(["1"], seeded("alice").address);
    expect(wallet).to.include({ payerIsSafe: false, multiSendCallOnly: null });
  });

  describe("refuses, and stores nothing", () => {
    it("a delegatecall of anything but MultiSendCallOnly, and a MultiSend that calls other contracts", async () => {
      const { token: usdx } = deployment();
      const plan = await start(["1"]);
      const calls = chunkCalls(where(), chunkOf(plan));
      const elsewhere = multiSendSafeTx(usdx, calls, 0);
      await expectRefused(
        server,
        () => propose(elsewhere),
        400,
        `A delegatecall (operation 1) would run ${usdx}'s code as the Safe: the only contract a proposal may delegatecall is MultiSendCallOnly (${plan.multiSendCallOnly}), to pay a batch chunk.`,
      );
      const stranger = randomAddress();
      const otherTarget = multiSendSafeTx(plan.multiSendCallOnly!, [calls[0], { to: stranger, data: calls[1].data }], 0);
      await expectRefused(
        server,
        () => propose(otherTarget),
        400,
        "A MultiSend proposal must pay exactly one batch chunk, and this one does not: its calls must be USDX's approve, then BatchPayments' pay.",
      );
      const three = multiSendSafeTx(plan.multiSendCallOnly!, [...calls, calls[0]], 0);
      await expectRefused(
        server,
        () => propose(three),
        400,
        "A MultiSend proposal must pay exactly one batch chunk, and this one does not: it packs 3 calls, not exactly an approve and a pay.",
      );
    });

    it("a pay whose recipients, amounts or reference differ from the chunk, and an approve of more than the chunk", async () => {
      const plan = await start(["1", "2"]);
      const chunk = chunkOf(plan);
      const m = plan.multiSendCallOnly!;
      const differs = new RegExp(
        `^The pay's recipients or amounts differ from chunk 1 of 1 of batch ${plan.jobId.slice(0, 8)} as planned \\(2 recipients, 3 USDX\\): a chunk is paid exactly as the server planned it\\.$`,
      );
      const swapped = { ...chunk, recipients: [chunk.recipients[1], chunk.recipients[0]] };
      await expectRefused(server, () => propose(chunkSafeTx(m, where(), swapped, 0)), 400, differs);
      const more = { ...chunk, amounts: [chunk.amounts[0], chunk.amounts[1] + 1n], total: chunk.total + 1n };
      await expectRefused(server, () => propose(chunkSafeTx(m, where(), more, 0)), 400, differs);
      const reference = hexlify(randomBytes(32));
      await expectRefused(
        server,
        () => propose(chunkSafeTx(m, where(), { ...chunk, reference }, 0)),
        400,
        /^The pay's reference 0x[0-9a-f]{8}\.\.\.[0-9a-f]{6} is no batch chunk's: start the batch on the Payments screen with the Safe as payer, and propose the chunks it plans\.$/,
      );
      const [approve, pay] = chunkCalls(where(), { ...chunk, total: chunk.total * 2n });
      expect(approve.data).to.not.equal(chunkCalls(where(), chunk)[0].data);
      await expectRefused(
        server,
        () => propose(multiSendSafeTx(m, [approve, pay], 0)),
        400,
        "A MultiSend proposal must pay exactly one batch chunk, and this one does not: its approve is for 6.00 USDX, not the pay's total of 3.00 USDX.",
      );
    });

    it("a chunk of a job paid from a wallet, and a second proposal of a chunk while one is pending (409)", async () => {
      const byWallet = await start(["1"], seeded("alice").address);
      // The wallet's job has no MultiSendCallOnly in its plan; the Safe's does.
      const m = deployment().safeContracts.multiSendCallOnly;
      await expectRefused(
        server,
        () => propose(chunkSafeTx(m, where(), chunkOf(byWallet), 0)),
        400,
        `Batch ${byWallet.jobId.slice(0, 8)} is paid from ${seeded("alice").address}, not from the Operations Safe: only its payer's proposals pay it.`,
      );

      const plan = await start(["1"]);
      const first = chunkSafeTx(m, where(), chunkOf(plan), 0);
      expect((await propose(first)).status).to.equal(201);
      await expectRefused(
        server,
        () => propose(chunkSafeTx(m, where(), chunkOf(plan), 1), owner("admin")),
        409,
        new RegExp(
          `^Chunk 1 of 1 of batch ${plan.jobId.slice(0, 8)} already has a proposal waiting for approvals \\(0x[0-9a-f]{8}\\.\\.\\.[0-9a-f]{6}, nonce 0\\): approve that one, or reject it before proposing the chunk again\\.$`,
        ),
      );
    });

    it("a chunk the Safe cannot pay: more than its balance", async () => {
      const big = await call(server, "POST", "/api/batch/execute", {
        token,
        body: { recipients: [{ address: randomAddress(), amount: "1000000" }], payer: deployment().safe },
      });
      expect(big.status).to.equal(400);
      expect(big.body.error).to.match(/^Insufficient balance: 0x[0-9a-fA-F]{40} holds [\d.]+ USDX and this batch needs 1000000 USDX\.$/);
    });
  });

  it("a replaced proposal leaves its chunk unsent: it may be proposed again, and the job's window counts it unsent again", async () => {
    const { safe } = deployment();
    const quick = await startTestServer({ BATCH_SUBMIT_WINDOW_MS: "1500" });
    try {
      const waiting = await start(["1"], safe, quick);
      const never = await start(["2"], safe, quick);
      const m = waiting.multiSendCallOnly!;
      expect((await propose(chunkSafeTx(m, where(), chunkOf(waiting), 0), owner("minter"), quick)).status).to.equal(201);
      await new Promise((resolve) => setTimeout(resolve, 1600));
      await settle(quick);
      // Owners approve over hours: a chunk whose proposal waits is not 'never sent'.
      expect((await detail(waiting.jobId, quick)).job).to.include({ status: "processing" });
      expect((await detail(never.jobId, quick)).job).to.include({
        status: "failed",
      });
      expect((await detail(never.jobId, quick)).job.error).to.match(/^Chunk 1 of 1 was never sent: no transaction was reported within /);

      // The owners reject it (an empty call at its nonce, executed): it is replaced, and the chunk unsent again.
      await execute(safe, rejectionSafeTx(safe, 0), [owner("admin"), owner("approver")]);
      await call(quick, "GET", `/api/safes/${safe}/proposals`, { token });
      await settle(quick);
      const after = await detail(waiting.jobId, quick);
      expect(after.chunks[0].proposal).to.include({ state: "replaced" });
      expect(after.job).to.include({ status: "failed" });
    } finally {
      await quick.close();
    }
    // On a server whose window is not over, a replaced proposal's chunk is proposed again.
    const plan = await start(["1"]);
    const m = plan.multiSendCallOnly!;
    const nonce = Number(await safeNonce(safe));
    expect((await propose(chunkSafeTx(m, where(), chunkOf(plan), nonce))).status).to.equal(201);
    await execute(safe, rejectionSafeTx(safe, nonce), [owner("admin"), owner("approver")]);
    const again = await propose(chunkSafeTx(m, where(), chunkOf(plan), nonce + 1));
    expect(again.status, JSON.stringify(again.body)).to.equal(201);
  });
});
