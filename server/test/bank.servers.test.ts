/**
 * The mock bank (/api/bank) on servers each test starts: the spec's default timings, a deposit
 * carried across restarts (server A to B to C on one database), and the bank turned off.
 */
import { expect } from "chai";
import { rmSync } from "node:fs";
import { eq } from "drizzle-orm";
import { deposits } from "../src/db/schema";
import type { RunningServer } from "../src/index";
import { FAST, address, expectExact, mintsTo, sleep, units, usdx } from "./bankHelpers";
import { call, emailUser, provider, revert, snapshot, startTestServer, until } from "./helpers";
import { migratedDataDir } from "./dataDirs";

const OFF = "The mock bank is off on this server (MOCK_BANK=off).";

describe("Mock bank (/api/bank)", () => {
  let chainSnapshot: string;

  before(async () => {
    chainSnapshot = await snapshot();
  });
  after(async () => {
    await revert(chainSnapshot);
  });

  /**
   * `read()` says `expected` when it was answered before `deadline`. Past it (a busy machine delayed
   * the answer) the state may rightly have moved on: the lower bounds below (never before 5 s, 3 s,
   * 8 s) are what hold the timings then.
   */
  async function expectAnsweredBefore(deadline: number, read: () => Promise<string>, expected: string): Promise<void> {
    const status = await read();
    if (Date.now() < deadline) expect(status).to.equal(expected);
  }

  it("runs at the spec's timings by default: verified after 5 s; processing after 3 s, completed after 8 s", async function () {
    this.timeout(40_000);
    const slow = await startTestServer();
    try {
      const user = await emailUser();
      const post = (p: string, body: unknown) => call(slow, "POST", `/api/bank${p}`, { token: user.idToken, body });
      const get = (p: string) => call(slow, "GET", `/api/bank${p}`, { token: user.idToken });
      const target = address();
      await post("/wallets", { name: "Main", address: target });

      const created = (await post("/accounts", { name: "Slow", type: "checking", accountNumber: "4444", routingNumber: "021000021" })).body
        .account;
      expect(Date.parse(created.verifyAt) - Date.parse(created.createdAt)).to.equal(5000);
      const early = await post("/deposits", { bankAccountId: created.id, amount: "6.09" });
      expect(early.status).to.equal(400);
      expect(early.body.error).to.equal(
        "Invalid Deposit: the bank account 'Slow' is not verified yet; you can deposit from it once it is verified, a few seconds after it was added.",
      );

      await sleep(Date.parse(created.createdAt) + 4500 - Date.now());
      await expectAnsweredBefore(Date.parse(created.verifyAt), async () => (await get("/accounts")).body.accounts[0].status, "pending");
      await until(
        "verified",
        async () => (await get("/accounts")).body.accounts[0],
        (a) => a.status === "verified",
      );
      expect(Date.now()).to.be.at.least(Date.parse(created.createdAt) + 5000);

      const amount = units("6.09");
      await expectExact(amount);
      const deposit = (await post("/deposits", { bankAccountId: created.id, amount: "6.09" })).body.deposit;
      expect(Date.parse(deposit.processingAt) - Date.parse(deposit.timestamp)).to.equal(3000);
      expect(Date.parse(deposit.completeAt) - Date.parse(deposit.timestamp)).to.equal(8000);
      const start = Date.parse(deposit.timestamp);
      const read = async () => (await get(`/deposits/${deposit.id}`)).body.deposit;

      await sleep(start + 2700 - Date.now());
      await expectAnsweredBefore(start + 3000, async () => (await read()).status, "pending");
      await until("processing", read, (d) => d.status !== "pending");
      expect(Date.now()).to.be.at.least(start + 3000);
      await sleep(start + 7500 - Date.now());
      await expectAnsweredBefore(start + 8000, async () => `${(await read()).status}, ${await usdx().balanceOf(target)}`, "processing, 0");
      const done = await until("completed", read, (d) => d.status === "completed");
      expect(Date.parse(done.completedAt)).to.be.at.least(start + 8000);
      expect(await usdx().balanceOf(target)).to.equal(amount);
    } finally {
      await slow.close();
    }
  });

  describe("restart", () => {
    let dir: string;
    beforeEach(async () => {
      dir = await migratedDataDir("usdx-bank-");
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    const TIMINGS = { ...FAST, BANK_COMPLETE_MS: "1500" };

    /** A user with a verified account and a fresh primary wallet on `s`. */
    async function setUp(s: RunningServer) {
      const user = await emailUser();
      const post = (p: string, body: unknown) => call(s, "POST", `/api/bank${p}`, { token: user.idToken, body });
      const target = address();
      expect((await post("/wallets", { name: "Main", address: target })).status).to.equal(201);
      const account = (
        await post("/accounts", { name: "Restart", type: "checking", accountNumber: "12345678", routingNumber: "021000021" })
      ).body.account;
      await until(
        "verified",
        async () => (await call(s, "GET", "/api/bank/accounts", { token: user.idToken })).body.accounts[0],
        (a) => a.status === "verified",
      );
      return { user, target, account, post };
    }

    const readOn = (s: RunningServer, user: { idToken: string }, id: number) =>
      call(s, "GET", `/api/bank/deposits/${id}`, { token: user.idToken }).then((a) => a.body.deposit);

    it("completes on server B a deposit server A left unfinished, minting once", async () => {
      const amount = units("8.12");
      await expectExact(amount);
      const a = await startTestServer({ ...TIMINGS, PGLITE_DIR: dir });
      let user: { idToken: string };
      let target: string;
      let id: number;
      try {
        const s = await setUp(a);
        ({ user, target } = s);
        const answer = await s.post("/deposits", { bankAccountId: s.account.id, amount: "8.12" });
        expect(answer.status).to.equal(201);
        id = answer.body.deposit.id;
      } finally {
        await a.close();
      }
      await sleep(1700); // past completeAt while no server runs
      expect(await usdx().balanceOf(target)).to.equal(0n);

      const b = await startTestServer({ ...TIMINGS, PGLITE_DIR: dir });
      try {
        const done = await until(
          "completed on B",
          () => readOn(b, user, id),
          (d) => d.status === "completed" || d.status === "failed",
        );
        expect(done.status).to.equal("completed");
        expect(await usdx().balanceOf(target)).to.equal(amount);
        expect(await mintsTo(target)).to.deep.equal([amount]);
      } finally {
        await b.close();
      }
    });

    it("sends again the stored mint (same hash and nonce) that server A signed but could not send; a recorded-late mint is never repeated", async () => {
      const amount = units("14.21");
      await expectExact(amount);
      const a = await startTestServer({ ...TIMINGS, PGLITE_DIR: dir });
      let user: { idToken: string };
      let target: string;
      let id: number;
      let stored: { signedTx: string | null; txHash: string | null };
      try {
        const s = await setUp(a);
        ({ user, target } = s);
        // The node stops answering sends: the mint is signed and stored, then A stops.
        a.services.chain.provider.broadcastTransaction = async () => {
          throw new Error("simulated: the node did not answer");
        };
        id = (await s.post("/deposits", { bankAccountId: s.account.id, amount: "14.21" })).body.deposit.id;
        const [row] = await until(
          "signed",
          () => a.services.db.db.select().from(deposits).where(eq(deposits.id, id)),
          ([r]) => r.signedTx !== null,
        );
        stored = { signedTx: row.signedTx, txHash: row.txHash };
        expect(row.status).to.equal("processing");
      } finally {
        await a.close();
      }
      expect(await provider().getTransactionReceipt(stored.txHash!)).to.equal(null);
      expect(await usdx().balanceOf(target)).to.equal(0n);

      const b = await startTestServer({ ...TIMINGS, PGLITE_DIR: dir });
      try {
        const done = await until(
          "completed on B",
          () => readOn(b, user, id),
          (d) => d.status === "completed" || d.status === "failed",
        );
        expect(done).to.include({ status: "completed", txHash: stored.txHash });
        const [row] = await b.services.db.db.select().from(deposits).where(eq(deposits.id, id));
        expect(row.signedTx).to.equal(stored.signedTx);
        expect((await provider().getTransactionReceipt(stored.txHash!))!.status).to.equal(1);
        expect(await usdx().balanceOf(target)).to.equal(amount);
        expect(await mintsTo(target)).to.deep.equal([amount]);

        // As if B had crashed after sending, before recording the receipt.
        await b.services.bank.stop();
        await b.services.db.db.update(deposits).set({ status: "processing", completedAt: null }).where(eq(deposits.id, id));
      } finally {
        await b.close();
      }

      const c = await startTestServer({ ...TIMINGS, PGLITE_DIR: dir });
      try {
        const done = await until(
          "completed on C",
          () => readOn(c, user, id),
          (d) => d.status !== "processing",
        );
        expect(done).to.include({ status: "completed", txHash: stored.txHash });
        expect(await usdx().balanceOf(target)).to.equal(amount);
        expect(await mintsTo(target)).to.deep.equal([amount]);
      } finally {
        await c.close();
      }
    });
  });

  it("answers 503 on every bank route when the bank is off (MOCK_BANK=off)", async () => {
    const off = await startTestServer({ ...FAST, MOCK_BANK: "off" });
    try {
      const user = await emailUser();
      for (const [method, p] of [
        ["GET", "/accounts"],
        ["POST", "/accounts"],
        ["GET", "/wallets"],
        ["POST", "/wallets"],
        ["GET", "/deposits"],
        ["POST", "/deposits"],
        ["DELETE", "/accounts/1"],
      ] as const) {
        const answer = await call(off, method, `/api/bank${p}`, { token: user.idToken, body: method === "POST" ? {} : undefined });
        expect(answer.status, `${method} ${p}`).to.equal(503);
        expect(answer.body).to.deep.equal({ success: false, error: OFF });
      }
      expect(off.services.bank.enabled).to.equal(false);
    } finally {
      await off.close();
    }
  });
});
