/**
 * Replicas behind a load balancer (issue 15, part 4): three API servers (child processes of the real
 * entry point) on one PostgreSQL database, every request of the scenario through a round robin, so
 * a write lands on one replica and the read after it on another. A batch of 1,200 recipients and a
 * mock deposit each complete while the leader is SIGKILLed in the middle of them; afterwards the
 * index equals the chain, each recipient was paid once, the deposit minted once, and every replica
 * answers the same. PostgreSQL only: on PGlite one process owns the data directory, so the PGlite
 * pass does not load this file (server/test/.mocharc.json ignores it).
 */
import { expect } from "chai";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { HDNodeWallet, ZeroAddress, parseUnits } from "ethers";
import { and, eq, inArray } from "drizzle-orm";
import { BatchPayments__factory, USDX__factory } from "@bindings";
import { readManifest } from "@common/manifestFile";
import type { Deposit, RecipientDetail } from "@common/apiTypes";
import { DatabaseHandle, openDatabase } from "../src/db/client";
import { batchChunks, chainEvents, deposits } from "../src/db/schema";
import {
  BatchPlan,
  provider,
  randomAddress,
  request,
  revert,
  seeded,
  snapshot,
  stack,
  testConfig,
  testPostgres,
  until,
  untilIndexEqualsChain,
  walletUser,
} from "./helpers";
import { RoundRobin } from "./roundRobin";
import { killServerProcesses, ServerProcess, startServerProcess } from "./serverProcess";
import { rpc } from "./stack";

/** The bound on a takeover. */
const TAKEOVER_MS = 10_000;
const RECIPIENTS = 1_200;
/**
 * Every replica's settings: chunks of 100 (twelve transactions); a bank account verified at once, a
 * deposit processing 0.3 s after it is asked and minted from 2 s (time to stop the node's mining first).
 */
const ENV = { BATCH_CHUNK_SIZE: "100", BANK_VERIFY_MS: "0", BANK_PROCESSING_MS: "300", BANK_COMPLETE_MS: "2000" };
/** A multiple of 2.03 USD, which the seeded multiplier (1.015) converts to shares exactly: the balance is the amount. */
const DEPOSIT = "20.30";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const manifest = () => readManifest("localhost", { DEPLOYMENTS_DIR: stack().deploymentsDir });
const node = <T>(method: string, params: unknown[] = []) => rpc<T>(stack().rpcUrl, method, params);
const usdx = () => USDX__factory.connect(manifest().proxy, provider());

/** Whether a replica says it leads (asked directly: the one kind of request that skips the balancer). */
async function isLeader(replica: ServerProcess): Promise<boolean | null> {
  return request(replica, "GET", "/api/health").then(
    (a) => a.body.leader as boolean,
    () => null,
  );
}

/** The one replica of `replicas` that leads now. */
async function leaderOf(replicas: ServerProcess[]): Promise<ServerProcess> {
  const flags = await Promise.all(replicas.map(isLeader));
  expect(
    flags.filter((f) => f === true),
    "leaders",
  ).to.have.length(1);
  return replicas[flags.indexOf(true)];
}

/** Waits until exactly one of `replicas` leads, within the bound from `since`; logs how long it took. */
async function newLeader(replicas: ServerProcess[], since: number, what: string): Promise<ServerProcess> {
  const flags = await until(
    `a replica to lead after ${what}`,
    () => Promise.all(replicas.map(isLeader)),
    (f) => f.includes(true),
    TAKEOVER_MS - (Date.now() - since),
  );
  expect(
    flags.filter((f) => f === true),
    "leaders",
  ).to.have.length(1);
  console.log(`      (takeover after the SIGKILL ${what}: ${Date.now() - since} ms)`);
  return replicas[flags.indexOf(true)];
}

describe("Replicas: three API servers on one PostgreSQL database behind a round robin", function () {
  // Three replicas compiled by ts-node at once, 1,200 transfers indexed, two takeovers: on 2 busy cores, more than the default.
  this.timeout(150_000);
  let chainSnapshot: string;
  let dir: string;
  /** The test's own connection: assertions and waits only, never the scenario. */
  let db: DatabaseHandle;
  let balancer: RoundRobin;
  /** The replicas still running. */
  let alive: ServerProcess[] = [];
  let token: string;
  let alice: HDNodeWallet;
  const recipients = Array.from({ length: RECIPIENTS }, (_, i) => ({
    name: `Payee ${i}`,
    address: randomAddress(),
    amount: `0.${String((i % 99) + 1).padStart(2, "0")}`,
  }));
  let plan: BatchPlan;
  const hashes: string[] = [];
  let deposit: { id: number; walletAddress: string; txHash: string };

  before(async function () {
    if (!testPostgres()) return this.skip(); // PGlite: one process per data directory, no second replica
    chainSnapshot = await snapshot();
    alice = seeded("alice");
    dir = mkdtempSync(path.join(tmpdir(), "usdx-replicas-"));
    db = await openDatabase(testConfig({ PGLITE_DIR: dir }).database);
    alive = await Promise.all([0, 1, 2].map(() => startServerProcess(dir, ENV)));
    balancer = await RoundRobin.start(alive.map((r) => r.url));
  });
  after(async () => {
    if (!chainSnapshot) return;
    killServerProcesses();
    await node("evm_setAutomine", [true]); // whatever failed, the next file gets a mining node
    await balancer?.close();
    await db?.close();
    await revert(chainSnapshot);
    rmSync(dir, { recursive: true, force: true });
  });

  it("elect exactly one leader; a wallet sign-in through the balancer spans two replicas", async () => {
    const flags = await Promise.all(alive.map(isLeader));
    expect(
      flags.filter((f) => f === true),
      "leaders among three replicas",
    ).to.have.length(1);
    expect(flags.filter((f) => f === false)).to.have.length(2);
    // Signed in through the balancer: the nonce is issued by one replica and spent on the next.
    ({ idToken: token } = await walletUser(balancer, alice as never));
    const signIn = balancer.served.map((s) => s.replica);
    expect(new Set(signIn).size, "replicas that served the sign-in").to.equal(2);
  });

  it("a batch of 1,200 recipients completes while the leader is SIGKILLed in the middle: a new leader within 10 s, every chunk confirmed once", async () => {
    const { batchPayments } = manifest();
    const batch = BatchPayments__factory.connect(batchPayments, alice);
    const started = await request<BatchPlan>(balancer, "POST", "/api/batch/execute", { token, body: { recipients } });
    expect(started.status, JSON.stringify(started.body)).to.equal(201);
    plan = started.body;
    expect(plan.chunks.map((c) => c.recipients.length)).to.deep.equal(Array(12).fill(100));
    await (await USDX__factory.connect(manifest().proxy, alice).approve(batchPayments, plan.totalAmountRaw)).wait();
    const pay = async (i: number) => {
      const chunk = plan.chunks[i];
      // About 3 M gas for 100 new recipients: a fixed limit spares the node an estimate of each chunk.
      hashes[i] = (await (await batch.pay(chunk.recipients, chunk.amounts, chunk.reference, { gasLimit: 5_000_000 })).wait())!.hash;
    };
    const report = (i: number) =>
      request(balancer, "POST", `/api/batch/${plan.jobId}/transactions`, { token, body: { chunkIndex: i, txHash: hashes[i] } });
    const detail = () => request(balancer, "GET", `/api/batch/${plan.jobId}?limit=${RECIPIENTS}`, { token });

    for (let i = 0; i < 5; i++) {
      await pay(i);
      expect((await report(i)).status, `report of chunk ${i}`).to.equal(200);
    }
    await until("the leader to confirm chunks", detail, (a) => a.body.job?.chunks.confirmed >= 2);
    // Chunk 5 is mined and its report is on its way when the leader dies: its indexer is likely in
    // the middle of storing chunks 3 to 5, its watcher anywhere in a step.
    const leader = await leaderOf(alive);
    await pay(5);
    const inFlight = report(5);
    const killedAt = Date.now();
    await leader.kill("SIGKILL");
    alive = alive.filter((r) => r !== leader);
    const takeover = newLeader(alive, killedAt, "in the middle of the batch");
    // The killed replica comes back as a fourth process while the rest is paid, and joins the rotation.
    const rejoining = startServerProcess(dir, ENV);
    // An answer lost with the replica that had the report is a 502 from the balancer; any other is the replica's.
    expect([200, 502]).to.include((await inFlight).status);
    for (let i = 6; i < 12; i++) {
      await pay(i);
      expect((await report(i)).status, `report of chunk ${i}`).to.equal(200);
    }
    // The browser was never sure chunk 5's report arrived: it sends it again, and that is harmless.
    expect((await report(5)).status, "chunk 5 reported again").to.equal(200);
    await takeover;
    const rejoined = await rejoining;
    expect(await isLeader(rejoined), "a replica that rejoins follows").to.equal(false);
    alive.push(rejoined);
    balancer.add(rejoined.url);

    const done = (await until("the job to complete", detail, (a) => a.body.job?.status === "completed")).body;
    const total = recipients.reduce((sum, r) => sum + parseUnits(r.amount, 18), 0n);
    expect(done.job).to.include({
      status: "completed",
      recipients: RECIPIENTS,
      recipientsPaid: RECIPIENTS,
      totalAmountRaw: total.toString(),
      payer: alice.address,
      error: null,
    });
    expect(done.job.chunks).to.deep.equal({ total: 12, confirmed: 12, submitted: 0, failed: 0 });
    expect(done.job.txHashes).to.deep.equal(hashes);
    expect(done.recipients.map((r: RecipientDetail) => [r.position, r.address, r.status, r.txHash])).to.deep.equal(
      recipients.map((r, i) => [i, r.address, "paid", hashes[Math.floor(i / 100)]]),
    );
    // The rows themselves: twelve chunks, each once, each confirmed by its own transaction.
    const chunkRows = await db.db.select().from(batchChunks).where(eq(batchChunks.jobId, plan.jobId));
    expect(chunkRows.map((c) => [c.index, c.status, c.txHash]).sort((a, b) => Number(a[0]) - Number(b[0]))).to.deep.equal(
      hashes.map((h, i) => [i, "confirmed", h]),
    );
    // Writes were spread: the first five reports, sent in a row, went round all three replicas.
    const reporters = balancer.served.filter((s) => s.method === "POST" && s.path.endsWith("/transactions"));
    expect(new Set(reporters.map((s) => s.replica)).size, "replicas that recorded reports").to.be.at.least(3);
  });

  it("a mock deposit mints once while the leader is SIGKILLed with its signed mint in the node's pool, unmined", async () => {
    const bank = (method: string, p: string, body?: unknown) => request(balancer, method, `/api/bank${p}`, { token, body });
    const account = await bank("POST", "/accounts", {
      name: "Replicated",
      type: "checking",
      accountNumber: "000123456789",
      routingNumber: "021000021",
    });
    expect(account.status, JSON.stringify(account.body)).to.equal(201);
    const wallet = await bank("POST", "/wallets", { name: "Fresh", address: randomAddress() });
    expect(wallet.status, JSON.stringify(wallet.body)).to.equal(201);
    const asked = await bank("POST", "/deposits", {
      bankAccountId: account.body.account.id,
      amount: DEPOSIT,
      walletId: wallet.body.wallet.id,
    });
    expect(asked.status, JSON.stringify(asked.body)).to.equal(201);
    const { id, walletAddress } = asked.body.deposit;

    // Processing, not yet minted: the node stops mining, so the mint the leader signs and sends stays in its pool.
    await until(
      "the deposit to be processing",
      () => bank("GET", `/deposits/${id}`),
      (a) => a.body.deposit?.status === "processing",
      5000,
    );
    await node("evm_setAutomine", [false]);
    const row = async () => (await db.db.select().from(deposits).where(eq(deposits.id, id)))[0];
    expect((await row()).signedTx, "the mint was signed before the node stopped mining: the scenario's premise failed").to.equal(null);
    const signed = await until("the leader to store the signed mint", row, (r) => r.signedTx !== null, 10_000);
    const minter = seeded("minter").address;
    await until(
      "the mint to reach the node's pool",
      () => node<{ transactions: string[] }>("eth_getBlockByNumber", ["pending", false]),
      (b) => b.transactions.includes(signed.txHash!),
      5000,
    );
    expect(await provider().getTransactionReceipt(signed.txHash!), "mined before the kill").to.equal(null);

    const leader = await leaderOf(alive);
    const killedAt = Date.now();
    await leader.kill("SIGKILL");
    alive = alive.filter((r) => r !== leader);
    const successor = await newLeader(alive, killedAt, "with the mint unmined");
    expect((await request(successor, "GET", "/api/health")).body.mockBank.running).to.equal(true);
    // A few of the worker's steps (every 250 ms) on the new leader while the mint is still unmined:
    // it may send the stored transaction again, never sign another.
    await sleep(1000);
    expect(
      (await node<{ transactions: string[] }>("eth_getBlockByNumber", ["pending", false])).transactions,
      "the node's pool",
    ).to.deep.equal([signed.txHash]);
    expect(await provider().getTransactionCount(minter, "pending"), "the minter's nonces in use").to.equal(
      (await provider().getTransactionCount(minter, "latest")) + 1,
    );

    await node("evm_mine");
    await node("evm_setAutomine", [true]);
    const done = (
      await until(
        "the deposit to complete",
        () => bank("GET", `/deposits/${id}`),
        (a) => ["completed", "failed"].includes(a.body.deposit?.status),
      )
    ).body.deposit;
    expect(done).to.include({ status: "completed", txHash: signed.txHash, error: null, amount: DEPOSIT });
    deposit = { id, walletAddress, txHash: signed.txHash! };

    // Minted once: one Transfer from the zero address on chain, the same one in the index.
    const amount = parseUnits(DEPOSIT, 18);
    const mints = await usdx().queryFilter(usdx().filters.Transfer(ZeroAddress, walletAddress), manifest().deploymentBlock);
    expect(mints.map((l) => [l.transactionHash, l.args.value])).to.deep.equal([[signed.txHash, amount]]);
    expect(await usdx().balanceOf(walletAddress)).to.equal(amount);
    await untilIndexEqualsChain(db.db);
    const indexed = await db.db
      .select()
      .from(chainEvents)
      .where(and(eq(chainEvents.eventName, "Transfer"), eq(chainEvents.toAddress, walletAddress.toLowerCase())));
    expect(indexed.map((e) => [e.fromAddress, e.transactionHash, e.args.value])).to.deep.equal([
      [ZeroAddress, signed.txHash, amount.toString()],
    ]);
  });

  it("afterwards the index equals the chain, each recipient was paid once, and every surviving replica answers the same", async () => {
    await untilIndexEqualsChain(db.db);
    // One Transfer to each recipient in the index, for its amount; on chain the balance is that amount
    // (a rebasing balance may show up to two base units less than was sent), so nobody was paid twice.
    const received = await db.db
      .select({ to: chainEvents.toAddress, args: chainEvents.args })
      .from(chainEvents)
      .where(
        and(
          eq(chainEvents.eventName, "Transfer"),
          inArray(
            chainEvents.toAddress,
            recipients.map((r) => r.address.toLowerCase()),
          ),
        ),
      );
    expect(received).to.have.length(RECIPIENTS);
    const byRecipient = new Map(received.map((e) => [e.to, e.args.value]));
    expect(
      recipients.filter((r) => byRecipient.get(r.address.toLowerCase()) !== parseUnits(r.amount, 18).toString()).map((r) => r.name),
    ).to.deep.equal([]);
    const balances = await Promise.all(recipients.map((r) => usdx().balanceOf(r.address)));
    const wrong = recipients.filter((r, i) => balances[i] > parseUnits(r.amount, 18) || balances[i] < parseUnits(r.amount, 18) - 2n);
    expect(
      wrong.map((r) => r.name),
      "recipients whose balance is not their amount",
    ).to.deep.equal([]);
    const paid = await db.db.select().from(chainEvents).where(eq(chainEvents.eventName, "BatchPaid"));
    for (const chunk of plan.chunks)
      expect(
        paid.filter((e) => e.args.paymentRef === chunk.reference),
        `BatchPaid of chunk ${chunk.index}`,
      ).to.have.length(1);

    // Asked of each replica directly, at once: every answer a replica keeps checks the database
    // first (the index's head, the job's rows), so none may lag what the leader stored. Only
    // /api/health's checkpoint is a follower's poll (every INDEXER_POLL_MS, 100), so it may take a moment.
    const answers = async (replica: ServerProcess) => {
      const get = async (p: string) => {
        const a = await request(replica, "GET", p, { token });
        expect(a.status, `${replica.url}${p}: ${JSON.stringify(a.body).slice(0, 300)}`).to.equal(200);
        return a.body;
      };
      const [job, events, figures, depositList] = await Promise.all(
        [`/api/batch/${plan.jobId}?limit=${RECIPIENTS}`, "/api/events?limit=50", "/api/token", "/api/bank/deposits"].map(get),
      );
      return { job, events, figures, depositList };
    };
    const seen = await Promise.all(alive.map(answers));
    expect(alive).to.have.length(2);
    for (const [i, s] of seen.entries()) expect(s, `${alive[i].url} against ${alive[0].url}`).to.deep.equal(seen[0]);
    const head = await provider().getBlockNumber();
    const checkpoints = await until(
      "every replica's health to show the head",
      () => Promise.all(alive.map(async (r) => (await request(r, "GET", "/api/health")).body.indexer.checkpoint)),
      (c) => c.every((n: number) => n === head),
      2000,
    );
    expect(checkpoints).to.deep.equal(alive.map(() => head));

    // And what they agree on is the chain: the head, the supply, the newest event (the mint), the deposit, the job.
    const { job, events, figures, depositList } = seen[0];
    expect(figures).to.include({ totalSupply: (await usdx().totalSupply()).toString(), blockNumber: head });
    expect(events.events[0]).to.include({ transactionHash: deposit.txHash, name: "Transfer" });
    expect(depositList.deposits.map((d: Deposit) => [d.id, d.status, d.txHash])).to.deep.equal([[deposit.id, "completed", deposit.txHash]]);
    expect(job.job.status).to.equal("completed");
  });
});
