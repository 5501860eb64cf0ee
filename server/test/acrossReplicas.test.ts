/**
 * Caches and limits that hold across replicas (issue 15, part 3). Two API servers share one
 * PostgreSQL database: A leads (it runs the indexer, the batch watcher and the bank's worker) and B
 * follows. What either writes, the other answers at once; what either counts, the other counts too.
 * Both poll only once a minute (INDEXER_POLL_MS), so B's follower poll cannot be what makes it
 * current: only the check each cached read makes against the database can. The test drives A's
 * indexer and watcher one step at a time.
 */
import { expect } from "chai";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Wallet, formatUnits, getAddress, hexlify, parseUnits, randomBytes } from "ethers";
import { BatchPayments__factory, USDX__factory } from "@bindings";
import { readManifest } from "@common/manifestFile";
import type { BankAccount, ChunkDetail, Deposit, HistoryEntry, RecipientDetail } from "@common/apiTypes";
import { startServer, RunningServer } from "../src/index";
import { createLogger } from "../src/lib/logger";
import { BatchPlan, call, emailUser, revert, seeded, snapshot, stack, testConfig, testPostgres, walletUser } from "./helpers";

const manifest = () => readManifest("localhost", { DEPLOYMENTS_DIR: stack().deploymentsDir });
const randomAddress = () => getAddress(hexlify(randomBytes(20)));
const usd = (amount: string) => parseUnits(amount, 18);

// Small budgets, so that counting past them takes a few requests.
const AUTH_PER_MINUTE = 6;
const REPORTS_PER_MINUTE = 4;
const OPEN_BATCHES = 3;

describe("Across replicas: two servers on one PostgreSQL database", function () {
  let chainSnapshot: string;
  let dir: string;
  let a: RunningServer;
  let b: RunningServer;

  before(async function () {
    if (!testPostgres()) this.skip(); // PGlite: one process per data directory, no second replica
    chainSnapshot = await snapshot();
    dir = mkdtempSync(path.join(tmpdir(), "usdx-replicas-"));
    const settings = {
      PGLITE_DIR: dir, // in this pass: one PostgreSQL database for both
      INDEXER_POLL_MS: "60000",
      RATE_LIMIT_AUTH_PER_MINUTE: String(AUTH_PER_MINUTE),
      USER_BATCH_REPORTS_PER_MINUTE: String(REPORTS_PER_MINUTE),
      USER_MAX_OPEN_BATCHES: String(OPEN_BATCHES),
      BANK_VERIFY_MS: "0",
      BANK_PROCESSING_MS: "0",
      BANK_COMPLETE_MS: "0",
    };
    a = await startServer(testConfig(settings), createLogger("silent"));
    b = await startServer(testConfig(settings), createLogger("silent"));
    expect(a.services.leadership.status().leader, "A leads").to.equal(true);
    expect(b.services.leadership.status().leader, "B follows").to.equal(false);
    await a.services.indexer.syncOnce();
  });

  after(async () => {
    await b?.close();
    await a?.close();
    if (chainSnapshot) await revert(chainSnapshot);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("index reads: what the leader has just indexed, the follower answers at once, though it had the older answers cached", async () => {
    const receiver = randomAddress();
    const reads = ["/api/events?limit=5", "/api/token", "/api/stats/supply?points=5000", `/api/accounts/${receiver}/history`, "/api/roles"];
    // B answers (and keeps) each before the change.
    const before = await Promise.all(reads.map((p) => call(b, "GET", p)));
    for (const [i, answer] of before.entries()) expect(answer.status, reads[i]).to.equal(200);
    expect(before[3].body.items).to.deep.equal([]); // a fresh address

    const minter = USDX__factory.connect(manifest().proxy, seeded("minter"));
    const mint = await (await minter.mint(receiver, usd("7.5"))).wait();
    await a.services.indexer.syncOnce();
    const supply = await USDX__factory.connect(manifest().proxy, seeded("alice")).totalSupply();

    // No wait: B's next answers already hold the new block.
    const [events, token, chart, history] = await Promise.all(reads.slice(0, 4).map((p) => call(b, "GET", p)));
    expect(events.body.events[0].transactionHash).to.equal(mint!.hash);
    expect(token.body.totalSupply).to.equal(supply.toString());
    expect(token.body.blockNumber).to.be.at.least(mint!.blockNumber);
    expect(chart.body.points.at(-1).totalSupply).to.equal(formatUnits(supply, 18));
    expect(history.body.items.map((e: HistoryEntry) => e.hash)).to.deep.equal([mint!.hash]);
    // And the same answers as the leader's.
    for (const p of reads) expect((await call(b, "GET", p)).body, p).to.deep.equal((await call(a, "GET", p)).body);
  });

  it("a job's status written through one replica is read through the other at once: reported, then confirmed by the leader", async () => {
    const alice = seeded("alice");
    const { idToken } = await walletUser(a, alice as unknown as Wallet);
    const recipients = [randomAddress(), randomAddress()].map((address, i) => ({ name: `Payee ${i}`, address, amount: `${i + 1}.5` }));
    const started = await call(a, "POST", "/api/batch/execute", { token: idToken, body: { recipients } });
    expect(started.status, JSON.stringify(started.body)).to.equal(201);
    const plan = started.body as unknown as BatchPlan;
    const status = (server: RunningServer) => call(server, "GET", `/api/batch/${plan.jobId}?offset=0&limit=10`, { token: idToken });
    // B keeps its answer: pending, nothing reported.
    expect((await status(b)).body.chunks.map((c: ChunkDetail) => c.status)).to.deep.equal(["pending"]);

    await (await USDX__factory.connect(manifest().proxy, alice).approve(manifest().batchPayments, plan.totalAmountRaw)).wait();
    const chunk = plan.chunks[0];
    const paid = await (
      await BatchPayments__factory.connect(manifest().batchPayments, alice).pay(chunk.recipients, chunk.amounts, chunk.reference)
    ).wait();
    const reported = await call(a, "POST", `/api/batch/${plan.jobId}/transactions`, {
      token: idToken,
      body: { chunkIndex: 0, txHash: paid!.hash },
    });
    expect(reported.status).to.equal(200);
    const submitted = await status(b);
    expect(submitted.body.chunks.map((c: ChunkDetail) => [c.status, c.txHash])).to.deep.equal([["submitted", paid!.hash]]);
    expect(submitted.body.job.txHashes).to.deep.equal([paid!.hash]);

    // The leader's watcher confirms it: B says so at once, recipients paid.
    await a.services.indexer.syncOnce();
    await a.services.batchWatcher.runOnce();
    const done = await status(b);
    expect(done.body.job).to.include({ status: "completed", recipientsPaid: 2 });
    expect(done.body.recipients.map((r: RecipientDetail) => r.status)).to.deep.equal(["paid", "paid"]);
    expect(done.body).to.deep.equal((await status(a)).body);
  });

  it("a contact or a deposit written through one replica is read through the other at once", async () => {
    const user = await emailUser();
    const on = (server: RunningServer) => ({
      get: (p: string) => call(server, "GET", `/api${p}`, { token: user.idToken }),
      post: (p: string, body: unknown) => call(server, "POST", `/api${p}`, { token: user.idToken, body }),
      del: (p: string) => call(server, "DELETE", `/api${p}`, { token: user.idToken }),
    });
    const contact = await on(a).post("/contacts", { name: "Replica Payee", address: randomAddress() });
    expect(contact.status).to.equal(201);
    expect((await on(b).get("/contacts")).body.contacts).to.deep.equal([contact.body.contact]);
    expect((await on(b).del(`/contacts/${contact.body.contact.id}`)).status).to.equal(200);
    expect((await on(a).get("/contacts")).body.contacts).to.deep.equal([]);

    const account = await on(b).post("/bank/accounts", {
      name: "Everyday",
      type: "checking",
      accountNumber: "000123456789",
      routingNumber: "021000021",
    });
    expect(account.status).to.equal(201);
    expect((await on(a).get("/bank/accounts")).body.accounts.map((x: BankAccount) => x.id)).to.deep.equal([account.body.account.id]);
    expect((await on(a).post("/bank/wallets", { name: "Mine", address: randomAddress() })).status).to.equal(201);
    const deposit = await on(a).post("/bank/deposits", { bankAccountId: account.body.account.id, amount: "20.30" });
    expect(deposit.status, JSON.stringify(deposit.body)).to.equal(201);
    const id = deposit.body.deposit.id;
    expect((await on(b).get(`/bank/deposits/${id}`)).body.deposit.id).to.equal(id);
    expect((await on(b).get("/bank/deposits")).body.deposits.map((d: Deposit) => d.id)).to.deep.equal([id]);
    // As the leader's worker moves it, both say the same at every moment it is asked.
    for (let i = 0; i < 20; i++) {
      const [fromA, fromB] = [await on(a).get(`/bank/deposits/${id}`), await on(b).get(`/bank/deposits/${id}`)];
      expect(["pending", "processing", "completed"]).to.include(fromB.body.deposit.status);
      // A's answer came first: B's may be newer, never older.
      const order = ["pending", "processing", "completed"];
      expect(order.indexOf(fromB.body.deposit.status)).to.be.at.least(order.indexOf(fromA.body.deposit.status));
      if (fromA.body.deposit.status === "completed") {
        expect(fromB.body).to.deep.equal(fromA.body);
        return;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    expect.fail("the deposit did not complete within 4 s");
  });

  it("rate limits count across replicas: a client's budget is the same however its requests are spread", async () => {
    // One client of its own (the replicas believe the loopback proxy's X-Forwarded-For), so the sign-ins above do not count.
    const nonce = (server: RunningServer) => call(server, "POST", "/api/auth/nonce", { headers: { "x-forwarded-for": "203.0.113.7" } });
    const answers = [];
    for (let i = 0; i < AUTH_PER_MINUTE + 2; i++) answers.push((await nonce(i % 2 ? b : a)).status);
    // Six in the minute, three on each; the seventh and eighth refused on either replica.
    expect(answers).to.deep.equal([...Array(AUTH_PER_MINUTE).fill(200), 429, 429]);
    const refused = await nonce(b);
    expect(refused.body).to.deep.equal({
      success: false,
      error: "Too many sign-in requests from this address: wait a minute and try again.",
    });

    // A per-user limit: reports of chunk transactions, keyed on the user whatever the replica.
    const user = await emailUser();
    const job = await call(a, "POST", "/api/batch/execute", {
      token: user.idToken,
      body: { recipients: [{ address: randomAddress(), amount: "1" }] },
    });
    expect(job.status).to.equal(201);
    const report = (server: RunningServer) =>
      call(server, "POST", `/api/batch/${job.body.jobId}/transactions`, {
        token: user.idToken,
        body: { chunkIndex: 0, txHash: hexlify(randomBytes(32)) },
      });
    const reports = [];
    for (let i = 0; i < REPORTS_PER_MINUTE + 2; i++) reports.push((await report(i % 2 ? a : b)).status);
    expect(reports).to.deep.equal([...Array(REPORTS_PER_MINUTE).fill(200), 429, 429]);
  });

  it("per-user limits count across replicas: two jobs started at once on two replicas, one place left, one starts", async () => {
    const user = await emailUser();
    const start = (server: RunningServer) =>
      call(server, "POST", "/api/batch/execute", {
        token: user.idToken,
        body: { recipients: [{ address: randomAddress(), amount: "1" }] },
      });
    for (let i = 0; i < OPEN_BATCHES - 1; i++) expect((await start(i % 2 ? a : b)).status).to.equal(201);
    const atOnce = await Promise.all([start(a), start(b)]);
    expect(atOnce.map((r) => r.status).sort()).to.deep.equal([201, 429]);
    expect(atOnce.find((r) => r.status === 429)!.body.error).to.match(
      new RegExp(`^You have ${OPEN_BATCHES} batch payments in progress, the most allowed at once is ${OPEN_BATCHES}:`),
    );
    const listed = await call(a, "GET", "/api/batch", { token: user.idToken });
    expect(listed.body.jobs).to.have.length(OPEN_BATCHES);
  });
});
