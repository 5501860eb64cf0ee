/** The mock bank (/api/bank): sign-in on its routes, bank accounts, and the terms the deposit screen shows. */
import { expect } from "chai";
import { eq } from "drizzle-orm";
import { seededAccount } from "@common/seedAccounts";
import { bankAccounts, deposits } from "../src/db/schema";
import type { RunningServer } from "../src/index";
import { FAST, bankCalls, sleep } from "./bankHelpers";
import { call, emailUser, revert, signer, snapshot, startTestServer, until } from "./helpers";
import type { BankAccount } from "@common/apiTypes";

describe("Mock bank (/api/bank)", () => {
  let chainSnapshot: string;
  let server: RunningServer;
  let alice: { idToken: string; uid: string };
  let bob: { idToken: string; uid: string };

  before(async () => {
    chainSnapshot = await snapshot();
    server = await startTestServer(FAST);
    alice = await emailUser();
    bob = await emailUser();
  });
  after(async () => {
    await server?.close();
    await revert(chainSnapshot);
  });

  const { db, as, addAccount } = bankCalls(() => server);

  describe("sign-in", () => {
    for (const [method, p] of [
      ["GET", "/accounts"],
      ["POST", "/accounts"],
      ["GET", "/wallets"],
      ["POST", "/deposits"],
      ["DELETE", "/wallets/1"],
    ] as const) {
      it(`${method} ${p} answers 401 without a token and with a forged one, changing nothing`, async () => {
        const before = (await db().select().from(bankAccounts)).length + (await db().select().from(deposits)).length;
        const body = method === "POST" ? { name: "X", type: "checking", accountNumber: "12345678", routingNumber: "021000021" } : undefined;
        const none = await call(server, method, `/api/bank${p}`, { body });
        expect(none.status).to.equal(401);
        expect(none.body.error).to.match(/^Sign in first/);
        const forged = await call(server, method, `/api/bank${p}`, { body, token: "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.forged" });
        expect(forged.status).to.equal(401);
        expect(forged.body.error).to.equal("Your session token is not valid: sign in again.");
        expect((await db().select().from(bankAccounts)).length + (await db().select().from(deposits)).length).to.equal(before);
      });
    }
  });

  describe("bank accounts", () => {
    it("adds an account as pending, keeps only the last four digits, and verifies it when verifyAt passes", async () => {
      const answer = await as(alice).post("/accounts", {
        name: " Everyday ",
        type: "savings",
        accountNumber: "000123456789",
        routingNumber: "021000021",
      });
      expect(answer.status).to.equal(201);
      expect(answer.body.mock).to.equal(true);
      const account = answer.body.account;
      expect(account).to.include({ name: "Everyday", type: "savings", lastFour: "6789", status: "pending", verifiedAt: null });
      expect(Date.parse(account.verifyAt) - Date.parse(account.createdAt)).to.equal(300);
      expect(Object.keys(account).sort()).to.deep.equal([
        "createdAt",
        "id",
        "lastFour",
        "name",
        "status",
        "type",
        "verifiedAt",
        "verifyAt",
      ]);

      const [row] = await db().select().from(bankAccounts).where(eq(bankAccounts.id, account.id));
      expect(JSON.stringify(row)).not.to.include("123456789").and.not.to.include("021000021");

      const listed = await as(alice).get("/accounts");
      expect(listed.body.mock).to.equal(true);
      expect(listed.body.accounts.find((a: BankAccount) => a.id === account.id).status).to.equal("pending");
      const verified = await until(
        "verified",
        async () => (await as(alice).get("/accounts")).body.accounts.find((a: BankAccount) => a.id === account.id),
        (a) => a.status === "verified",
      );
      expect(Date.now()).to.be.at.least(Date.parse(account.verifyAt));
      expect(Date.parse(verified.verifiedAt)).to.be.at.least(Date.parse(account.verifyAt));
    });

    it("verifies by the worker too, without anyone listing", async () => {
      const account = await addAccount(alice, "Worker");
      await sleep(900);
      const [row] = await db().select().from(bankAccounts).where(eq(bankAccounts.id, account.id));
      expect(row.status).to.equal("verified");
    });

    const MISSING = "Missing Information: please provide the account name, type, account number and routing number";
    for (const [body, error] of [
      [{}, `${MISSING} (missing: name, type, accountNumber, routingNumber).`],
      [[], `${MISSING} (missing: name, type, accountNumber, routingNumber).`],
      [{ name: "A", type: "checking", accountNumber: "12345678" }, `${MISSING} (missing: routingNumber).`],
      [{ name: "  ", type: "checking", accountNumber: "12345678", routingNumber: "021000021" }, `${MISSING} (missing: name).`],
      [{ name: "A", type: null, accountNumber: "", routingNumber: "021000021" }, `${MISSING} (missing: type, accountNumber).`],
      [
        { name: "A", type: "brokerage", accountNumber: "12345678", routingNumber: "021000021" },
        "Invalid Bank Account: the type must be 'checking' or 'savings'.",
      ],
      [
        { name: "A", type: "checking", accountNumber: "123", routingNumber: "021000021" },
        "Invalid Bank Account: the account number must be 4 to 17 digits.",
      ],
      [
        { name: "A", type: "checking", accountNumber: "123456789012345678", routingNumber: "021000021" },
        "Invalid Bank Account: the account number must be 4 to 17 digits.",
      ],
      [
        { name: "A", type: "checking", accountNumber: "1234-5678", routingNumber: "021000021" },
        "Invalid Bank Account: the account number must be 4 to 17 digits.",
      ],
      [
        { name: "A", type: "checking", accountNumber: 12345678, routingNumber: "021000021" },
        "Invalid Bank Account: the account number must be text of 4 to 17 digits.",
      ],
      [
        { name: "A", type: "checking", accountNumber: "12345678", routingNumber: "02100002" },
        "Invalid Bank Account: the routing number must be exactly 9 digits.",
      ],
      [
        { name: "A", type: "checking", accountNumber: "12345678", routingNumber: "0210000211" },
        "Invalid Bank Account: the routing number must be exactly 9 digits.",
      ],
      [
        { name: "x".repeat(101), type: "checking", accountNumber: "12345678", routingNumber: "021000021" },
        "Invalid Bank Account: the account name must be at most 100 characters.",
      ],
    ] as const) {
      it(`answers 400 for ${JSON.stringify(body).slice(0, 90)} and stores nothing`, async () => {
        const before = (await db().select().from(bankAccounts)).length;
        const answer = await as(alice).post("/accounts", body);
        expect(answer.status).to.equal(400);
        expect(answer.body).to.deep.equal({ success: false, error });
        expect((await db().select().from(bankAccounts)).length).to.equal(before);
      });
    }

    it("removes an account without deposits; another user's account answers 404 like a missing one and stays", async () => {
      const mine = await addAccount(alice, "To remove");
      const theirs = await addAccount(bob, "Bob's");
      const foreign = await as(alice).del(`/accounts/${theirs.id}`);
      expect(foreign.status).to.equal(404);
      expect(foreign.body.error).to.equal(`Bank account ${theirs.id} was not found among your bank accounts.`);
      const missing = await as(alice).del("/accounts/999999");
      expect(missing.status).to.equal(404);
      expect(missing.body.error).to.equal("Bank account 999999 was not found among your bank accounts.");
      expect((await as(bob).get("/accounts")).body.accounts.map((a: BankAccount) => a.id)).to.include(theirs.id);
      expect((await as(alice).get("/accounts")).body.accounts.map((a: BankAccount) => a.id)).not.to.include(theirs.id);

      const removed = await as(alice).del(`/accounts/${mine.id}`);
      expect(removed.status).to.equal(200);
      expect(removed.body).to.deep.equal({ success: true, mock: true, id: mine.id });
      expect((await as(alice).get("/accounts")).body.accounts.map((a: BankAccount) => a.id)).not.to.include(mine.id);
      expect(await db().select().from(bankAccounts).where(eq(bankAccounts.id, mine.id))).to.have.length(0);
    });
  });

  it("tells the deposit screen its terms, and never the key", async () => {
    const answer = await as(alice).get("/terms");
    expect(answer.status).to.equal(200);
    expect(answer.body).to.deep.equal({
      success: true,
      mock: true,
      fee: "0.00",
      rate: "1",
      maxDeposit: "1000000.00",
      verifyMs: 300,
      processingMs: 300,
      completeMs: 800,
      minter: await (await signer(seededAccount("minter").index)).getAddress(),
      ...{ mode: "local", walletProofRequired: false, maxAccounts: 10, maxWallets: 10, faucet: null },
    });
  });
});
