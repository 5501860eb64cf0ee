/**
 * The security review's ownership checks (issue 7, item 4; docs/SECURITY.md): one user can never read
 * or change another's data, on any route that takes an id, in lists and exports, or by naming
 * another uid in a body. The contacts, bank and batchJobs tests refuse another user's rows route by
 * route; this file takes every route at once against one owner's rows.
 */
import { expect } from "chai";
import { eq, inArray } from "drizzle-orm";
import { bankAccounts, bankWallets, batchChunks, batchJobs, contacts, deposits } from "../src/db/schema";
import type { RunningServer } from "../src/index";
import { call, emailUser, randomAddress, startTestServer } from "./helpers";
import { expectRefusal } from "./securityHelpers";
import type { BankAccount, BankWallet } from "@common/apiTypes";

describe("Security review", () => {
  describe("one user can never read or change another's data", () => {
    let server: RunningServer;
    let owner: { idToken: string; uid: string };
    let intruder: { idToken: string; uid: string };
    const mine: { contact?: number; account?: number; wallet?: number; deposit?: number; job?: string } = {};
    let intruderAccount: number;

    before(async () => {
      // Accounts verify at once; deposits stay pending for an hour, so nothing is minted.
      server = await startTestServer({ BANK_VERIFY_MS: "0", BANK_PROCESSING_MS: "3600000" });
      owner = await emailUser();
      intruder = await emailUser();
      const as = (user: { idToken: string }) => (method: string, path: string, body?: unknown) =>
        call(server, method, path, { token: user.idToken, body });

      for (const [user, save] of [
        [owner, (id: number) => (mine.account = id)],
        [intruder, (id: number) => (intruderAccount = id)],
      ] as const) {
        const account = await as(user)("POST", "/api/bank/accounts", {
          name: "Checking",
          type: "checking",
          accountNumber: "000123456789",
          routingNumber: "021000021",
        });
        expect(account.status, JSON.stringify(account.body)).to.equal(201);
        save(account.body.account.id);
        const wallet = await as(user)("POST", "/api/bank/wallets", { name: "Main", address: randomAddress() });
        expect(wallet.status, JSON.stringify(wallet.body)).to.equal(201);
        if (user === owner) mine.wallet = wallet.body.wallet.id;
        // BANK_VERIFY_MS=0: the account is verified when it is next read.
        const accounts = await as(user)("GET", "/api/bank/accounts");
        expect(accounts.body.accounts[0].status).to.equal("verified");
      }
      const contact = await as(owner)("POST", "/api/contacts", { name: "Secret", address: randomAddress(), notes: "private" });
      expect(contact.status).to.equal(201);
      mine.contact = contact.body.contact.id;
      const deposit = await as(owner)("POST", "/api/bank/deposits", { bankAccountId: mine.account, amount: "5" });
      expect(deposit.status, JSON.stringify(deposit.body)).to.equal(201);
      mine.deposit = deposit.body.deposit.id;
      const job = await as(owner)("POST", "/api/batch/execute", { recipients: [{ name: "Payee", address: randomAddress(), amount: "1" }] });
      expect(job.status, JSON.stringify(job.body)).to.equal(201);
      mine.job = job.body.jobId;
    });
    after(async () => {
      await server.close();
    });

    /** Everything the database holds for the owner: it must come out of every test exactly as it went in. */
    async function ownersRows() {
      const db = server.services.db.db;
      const jobs = await db.select().from(batchJobs).where(eq(batchJobs.uid, owner.uid));
      return {
        contacts: await db.select().from(contacts).where(eq(contacts.uid, owner.uid)),
        accounts: await db.select().from(bankAccounts).where(eq(bankAccounts.uid, owner.uid)),
        wallets: await db.select().from(bankWallets).where(eq(bankWallets.uid, owner.uid)),
        deposits: await db.select().from(deposits).where(eq(deposits.uid, owner.uid)),
        jobs,
        chunks: await db
          .select()
          .from(batchChunks)
          .where(
            inArray(
              batchChunks.jobId,
              jobs.map((j) => j.id),
            ),
          ),
      };
    }

    /** An answer with `id` written as <id>, so answers about two different ids can be compared. */
    const withoutId = (body: unknown, id: string | number) =>
      JSON.parse(JSON.stringify(body).replace(new RegExp(`\\b${id}\\b`, "g"), "<id>"));

    it("answers the owner's ids on every route exactly as ids that do not exist (404), and changes nothing", async () => {
      const MISSING_SERIAL = 2_147_483_647;
      const MISSING_JOB = "00000000-0000-4000-8000-000000000000";
      const tx = { chunkIndex: 0, txHash: `0x${"ab".repeat(32)}` };
      const cases: {
        route: string;
        method: string;
        path: (id: number | string) => string;
        owned: number | string;
        missing: number | string;
        body?: (id: number | string) => unknown;
      }[] = [
        {
          route: "edit a contact",
          method: "PATCH",
          path: (id) => `/api/contacts/${id}`,
          owned: mine.contact!,
          missing: MISSING_SERIAL,
          body: () => ({ name: "Mine now" }),
        },
        { route: "delete a contact", method: "DELETE", path: (id) => `/api/contacts/${id}`, owned: mine.contact!, missing: MISSING_SERIAL },
        {
          route: "remove a bank account",
          method: "DELETE",
          path: (id) => `/api/bank/accounts/${id}`,
          owned: mine.account!,
          missing: MISSING_SERIAL,
        },
        {
          route: "make a wallet primary",
          method: "POST",
          path: (id) => `/api/bank/wallets/${id}/primary`,
          owned: mine.wallet!,
          missing: MISSING_SERIAL,
        },
        {
          route: "remove a wallet",
          method: "DELETE",
          path: (id) => `/api/bank/wallets/${id}`,
          owned: mine.wallet!,
          missing: MISSING_SERIAL,
        },
        { route: "read a deposit", method: "GET", path: (id) => `/api/bank/deposits/${id}`, owned: mine.deposit!, missing: MISSING_SERIAL },
        {
          route: "deposit from another's bank account",
          method: "POST",
          path: () => "/api/bank/deposits",
          owned: mine.account!,
          missing: MISSING_SERIAL,
          body: (id) => ({ bankAccountId: id, amount: "5" }),
        },
        {
          route: "deposit into another's wallet",
          method: "POST",
          path: () => "/api/bank/deposits",
          owned: mine.wallet!,
          missing: MISSING_SERIAL,
          body: (id) => ({ bankAccountId: intruderAccount, walletId: id, amount: "5" }),
        },
        { route: "read a batch job", method: "GET", path: (id) => `/api/batch/${id}`, owned: mine.job!, missing: MISSING_JOB },
        {
          route: "read a batch report (recipients)",
          method: "GET",
          path: (id) => `/api/batch/${id}?offset=0&limit=10`,
          owned: mine.job!,
          missing: MISSING_JOB,
        },
        {
          route: "export a batch job's recipients",
          method: "GET",
          path: (id) => `/api/batch/${id}/export`,
          owned: mine.job!,
          missing: MISSING_JOB,
        },
        {
          route: "report a batch transaction",
          method: "POST",
          path: (id) => `/api/batch/${id}/transactions`,
          owned: mine.job!,
          missing: MISSING_JOB,
          body: () => tx,
        },
      ];
      const before = await ownersRows();
      const depositsBefore = (await server.services.db.db.select().from(deposits)).length;
      for (const c of cases) {
        const theirs = await call(server, c.method, c.path(c.owned), { token: intruder.idToken, body: c.body?.(c.owned) });
        const nobodys = await call(server, c.method, c.path(c.missing), { token: intruder.idToken, body: c.body?.(c.missing) });
        expectRefusal(theirs, 404);
        expect(withoutId(theirs.body, c.owned), c.route).to.deep.equal(withoutId(nobodys.body, c.missing));
      }
      expect(await ownersRows()).to.deep.equal(before);
      expect((await server.services.db.db.select().from(deposits)).length, "no deposit was created").to.equal(depositsBefore);
      // And the owner still sees everything as it was.
      expect((await call(server, "GET", `/api/batch/${mine.job}`, { token: owner.idToken })).status).to.equal(200);
      expect((await call(server, "GET", `/api/bank/deposits/${mine.deposit}`, { token: owner.idToken })).status).to.equal(200);
    });

    it("lists, exports and reports only the intruder's own rows", async () => {
      const get = (path: string) => call(server, "GET", path, { token: intruder.idToken });
      expect((await get("/api/contacts")).body.contacts).to.deep.equal([]);
      expect((await get("/api/contacts/export")).body).to.equal('"Name","Address","Notes"\r\n');
      expect((await get("/api/bank/accounts")).body.accounts.map((a: BankAccount) => a.id)).to.deep.equal([intruderAccount]);
      expect((await get("/api/bank/wallets")).body.wallets.map((w: BankWallet) => w.id)).not.to.include(mine.wallet);
      expect((await get("/api/bank/deposits")).body.deposits).to.deep.equal([]);
      expect((await get("/api/batch")).body.jobs).to.deep.equal([]);
      expect((await get("/api/batch/status")).body).to.deep.equal({ success: true, data: null });
      // The owner's own status is their job: the empty answers above are not an empty database.
      expect((await call(server, "GET", "/api/batch/status", { token: owner.idToken })).body.data.jobId).to.equal(mine.job);
    });

    it("files what a user creates under their own uid, whatever uid the body claims", async () => {
      const claims = { uid: owner.uid, userId: owner.uid, owner: owner.uid };
      const post = (path: string, body: object) => call(server, "POST", path, { token: intruder.idToken, body: { ...body, ...claims } });
      const before = await ownersRows();
      const contact = await post("/api/contacts", { name: "Planted", address: randomAddress() });
      const account = await post("/api/bank/accounts", {
        name: "Planted",
        type: "savings",
        accountNumber: "11112222",
        routingNumber: "021000021",
      });
      const wallet = await post("/api/bank/wallets", { name: "Planted", address: randomAddress() });
      const job = await post("/api/batch/execute", { recipients: [{ address: randomAddress(), amount: "1" }] });
      for (const answer of [contact, account, wallet, job]) expect(answer.status, JSON.stringify(answer.body)).to.equal(201);

      const db = server.services.db.db;
      expect((await db.select().from(contacts).where(eq(contacts.id, contact.body.contact.id)))[0].uid).to.equal(intruder.uid);
      expect((await db.select().from(bankAccounts).where(eq(bankAccounts.id, account.body.account.id)))[0].uid).to.equal(intruder.uid);
      expect((await db.select().from(bankWallets).where(eq(bankWallets.id, wallet.body.wallet.id)))[0].uid).to.equal(intruder.uid);
      expect((await db.select().from(batchJobs).where(eq(batchJobs.id, job.body.jobId)))[0].uid).to.equal(intruder.uid);
      expect(await ownersRows()).to.deep.equal(before);
    });
  });
});
