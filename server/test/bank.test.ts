import { expect } from "chai";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Wallet, ZeroAddress, parseUnits } from "ethers";
import { eq } from "drizzle-orm";
import { USDX__factory } from "@bindings";
import type { USDX } from "@bindings";
import { readManifest } from "@common/manifestFile";
import { seededAccount } from "@common/seedAccounts";
import { bankAccounts, bankWallets, deposits } from "../src/db/schema";
import type { RunningServer } from "../src/index";
import { call, emailUser, provider, revert, signer, snapshot, stack, startTestServer, until, walletUser } from "./helpers";
import { rpc } from "./stack";

// Short timings for most tests; one test runs the spec's defaults (5 s, 3 s, 8 s).
const FAST = { BANK_VERIFY_MS: "300", BANK_PROCESSING_MS: "300", BANK_COMPLETE_MS: "800" };
const OFF = "The mock bank is off on this server (MOCK_BANK=off).";
const PAUSED = "USDX is paused: no tokens can be transferred, minted or burned until it is unpaused.";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const usdx = (): USDX => USDX__factory.connect(readManifest("localhost", { DEPLOYMENTS_DIR: stack().deploymentsDir }).proxy, provider());
const address = () => Wallet.createRandom().address;
const units = (usd: string) => parseUnits(usd, 18);

/**
 * USDX rebases: a mint of `amount` adds amount*1e18/multiplier shares, rounded down. The amounts
 * below are multiples of 2.03 USD, which the seeded multiplier (1.015) converts exactly, so the
 * balance rises by exactly the amount; this guard fails the test if that premise stops holding.
 */
async function expectExact(amount: bigint) {
  const token = usdx();
  expect(await token.convertToTokens(await token.convertToShares(amount))).to.equal(amount);
}

async function mintsTo(to: string): Promise<bigint[]> {
  const token = usdx();
  const logs = await token.queryFilter(token.filters.Transfer(ZeroAddress, to));
  return logs.map((l) => l.args.value);
}

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

  const db = () => server.services.db.db;
  const as = (user: { idToken: string }) => ({
    get: (p: string) => call(server, "GET", `/api/bank${p}`, { token: user.idToken }),
    post: (p: string, body: unknown = {}) => call(server, "POST", `/api/bank${p}`, { token: user.idToken, body }),
    del: (p: string) => call(server, "DELETE", `/api/bank${p}`, { token: user.idToken }),
  });

  async function addAccount(user: { idToken: string }, name = "Everyday"): Promise<any> {
    const answer = await as(user).post("/accounts", { name, type: "checking", accountNumber: "000123456789", routingNumber: "021000021" });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(201);
    return answer.body.account;
  }

  async function verifiedAccount(user: { idToken: string }, name?: string): Promise<any> {
    const account = await addAccount(user, name);
    await until(
      "account verified",
      async () => (await as(user).get("/accounts")).body.accounts.find((a: any) => a.id === account.id),
      (a) => a.status === "verified",
    );
    return account;
  }

  async function addWallet(user: { idToken: string }, name: string, addr: string): Promise<any> {
    const answer = await as(user).post("/wallets", { name, address: addr });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(201);
    return answer.body.wallet;
  }

  const depositOf = (user: { idToken: string }, id: number) => as(user).get(`/deposits/${id}`).then((a) => a.body.deposit);

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
      const answer = await as(alice).post("/accounts", { name: " Everyday ", type: "savings", accountNumber: "000123456789", routingNumber: "021000021" });
      expect(answer.status).to.equal(201);
      expect(answer.body.mock).to.equal(true);
      const account = answer.body.account;
      expect(account).to.include({ name: "Everyday", type: "savings", lastFour: "6789", status: "pending", verifiedAt: null });
      expect(Date.parse(account.verifyAt) - Date.parse(account.createdAt)).to.equal(300);
      expect(Object.keys(account).sort()).to.deep.equal(["createdAt", "id", "lastFour", "name", "status", "type", "verifiedAt", "verifyAt"]);

      const [row] = await db().select().from(bankAccounts).where(eq(bankAccounts.id, account.id));
      expect(JSON.stringify(row)).not.to.include("123456789").and.not.to.include("021000021");

      const listed = await as(alice).get("/accounts");
      expect(listed.body.mock).to.equal(true);
      expect(listed.body.accounts.find((a: any) => a.id === account.id).status).to.equal("pending");
      const verified = await until(
        "verified",
        async () => (await as(alice).get("/accounts")).body.accounts.find((a: any) => a.id === account.id),
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
      [{ name: "A", type: "brokerage", accountNumber: "12345678", routingNumber: "021000021" }, "Invalid Bank Account: the type must be 'checking' or 'savings'."],
      [{ name: "A", type: "checking", accountNumber: "123", routingNumber: "021000021" }, "Invalid Bank Account: the account number must be 4 to 17 digits."],
      [{ name: "A", type: "checking", accountNumber: "123456789012345678", routingNumber: "021000021" }, "Invalid Bank Account: the account number must be 4 to 17 digits."],
      [{ name: "A", type: "checking", accountNumber: "1234-5678", routingNumber: "021000021" }, "Invalid Bank Account: the account number must be 4 to 17 digits."],
      [{ name: "A", type: "checking", accountNumber: 12345678, routingNumber: "021000021" }, "Invalid Bank Account: the account number must be text of 4 to 17 digits."],
      [{ name: "A", type: "checking", accountNumber: "12345678", routingNumber: "02100002" }, "Invalid Bank Account: the routing number must be exactly 9 digits."],
      [{ name: "A", type: "checking", accountNumber: "12345678", routingNumber: "0210000211" }, "Invalid Bank Account: the routing number must be exactly 9 digits."],
      [{ name: "x".repeat(101), type: "checking", accountNumber: "12345678", routingNumber: "021000021" }, "Invalid Bank Account: the account name must be at most 100 characters."],
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
      expect((await as(bob).get("/accounts")).body.accounts.map((a: any) => a.id)).to.include(theirs.id);
      expect((await as(alice).get("/accounts")).body.accounts.map((a: any) => a.id)).not.to.include(theirs.id);

      const removed = await as(alice).del(`/accounts/${mine.id}`);
      expect(removed.status).to.equal(200);
      expect(removed.body).to.deep.equal({ success: true, mock: true, id: mine.id });
      expect((await as(alice).get("/accounts")).body.accounts.map((a: any) => a.id)).not.to.include(mine.id);
      expect(await db().select().from(bankAccounts).where(eq(bankAccounts.id, mine.id))).to.have.length(0);
    });
  });

  describe("wallets", () => {
    let carol: { idToken: string; uid: string };
    before(async () => {
      carol = await emailUser();
    });

    it("makes the first wallet primary, not later ones, and lists on-chain balances", async () => {
      const holder = await (await signer(seededAccount("alice").index)).getAddress();
      const first = await addWallet(carol, "Alice's", holder);
      expect(first).to.include({ name: "Alice's", address: holder, isPrimary: true });
      const onChain = await usdx().balanceOf(holder);
      expect(onChain > 0n).to.equal(true);
      expect(first.balanceRaw).to.equal(onChain.toString());
      const second = await addWallet(carol, "Fresh", address().toLowerCase());
      expect(second.isPrimary).to.equal(false);
      expect(second).to.include({ balance: "0", balanceRaw: "0" });
      expect(second.address).to.match(/[A-F]/); // stored checksummed

      const listed = await as(carol).get("/wallets");
      expect(listed.status).to.equal(200);
      expect(listed.body.mock).to.equal(true);
      expect(listed.body.wallets.map((w: any) => [w.id, w.isPrimary])).to.deep.equal([
        [first.id, true],
        [second.id, false],
      ]);
      const alicesRow = listed.body.wallets[0];
      expect(alicesRow.balanceRaw).to.equal((await usdx().balanceOf(holder)).toString());
      expect(units(alicesRow.balance)).to.equal(BigInt(alicesRow.balanceRaw));
    });

    it("refuses a duplicate in another case with 409 'Duplicate Wallet'", async () => {
      const addr = address();
      await addWallet(carol, "Dup", addr);
      for (const variant of [addr.toLowerCase(), `0x${addr.slice(2).toUpperCase()}`]) {
        const answer = await as(carol).post("/wallets", { name: "Again", address: variant });
        expect(answer.status).to.equal(409);
        expect(answer.body.error).to.equal(`Duplicate Wallet: ${addr} is already in your wallets as 'Dup'.`);
      }
      const rows = await db().select().from(bankWallets).where(eq(bankWallets.uid, carol.uid));
      expect(rows.filter((w) => w.address === addr)).to.have.length(1);
    });

    for (const [body, status, error] of [
      [{}, 400, "Missing Information: please provide the wallet name and address (missing: name, address)."],
      [{ name: "A" }, 400, "Missing Information: please provide the wallet name and address (missing: address)."],
      [{ name: "", address: "0x1111111111111111111111111111111111111111" }, 400, "Missing Information: please provide the wallet name and address (missing: name)."],
      [{ name: "A", address: "0x123" }, 400, "Invalid Address: '0x123' is not a valid address: it must be 0x followed by 40 hex characters."],
      [{ name: "A", address: "0xAbCdEf0000000000000000000000000000000001" }, 400, "Invalid Address: '0xAbCdEf0000000000000000000000000000000001' has a wrong checksum (mixed upper and lower case that does not match): check it for a typo."],
      [{ name: "A", address: ZeroAddress }, 400, "Invalid Address: the zero address cannot hold tokens."],
      [{ name: "A", address: 42 }, 400, "Invalid Address: the address must be text: 0x followed by 40 hex characters."],
    ] as const) {
      it(`answers ${status} for ${JSON.stringify(body)} and stores nothing`, async () => {
        const before = (await db().select().from(bankWallets)).length;
        const answer = await as(carol).post("/wallets", body);
        expect(answer.status).to.equal(status);
        expect(answer.body).to.deep.equal({ success: false, error });
        expect((await db().select().from(bankWallets)).length).to.equal(before);
      });
    }

    it("refuses to remove the primary wallet; after another is made primary (one transaction) the old one can go", async () => {
      const user = await emailUser();
      const a = await addWallet(user, "A", address());
      const b = await addWallet(user, "B", address());
      const refused = await as(user).del(`/wallets/${a.id}`);
      expect(refused.status).to.equal(409);
      expect(refused.body.error).to.equal("Cannot Remove Primary Wallet: 'A' is your primary wallet; make another wallet primary first.");
      expect((await as(user).get("/wallets")).body.wallets).to.have.length(2);

      const made = await as(user).post(`/wallets/${b.id}/primary`);
      expect(made.status).to.equal(200);
      expect(made.body.mock).to.equal(true);
      expect(made.body.wallet).to.include({ id: b.id, isPrimary: true });
      const rows = await db().select().from(bankWallets).where(eq(bankWallets.uid, user.uid));
      expect(rows.filter((w) => w.isPrimary).map((w) => w.id)).to.deep.equal([b.id]);

      const removed = await as(user).del(`/wallets/${a.id}`);
      expect(removed.status).to.equal(200);
      expect(removed.body).to.deep.equal({ success: true, mock: true, id: a.id });
      expect((await as(user).get("/wallets")).body.wallets.map((w: any) => w.id)).to.deep.equal([b.id]);
    });

    it("keeps exactly one primary when primaries are switched concurrently", async () => {
      const user = await emailUser();
      const ws = [];
      for (const n of ["A", "B", "C", "D"]) ws.push(await addWallet(user, n, address()));
      const answers = await Promise.all(ws.map((w) => as(user).post(`/wallets/${w.id}/primary`)));
      expect(answers.map((a) => a.status)).to.deep.equal([200, 200, 200, 200]);
      const rows = await db().select().from(bankWallets).where(eq(bankWallets.uid, user.uid));
      expect(rows.filter((w) => w.isPrimary)).to.have.length(1);
    });

    it("answers 404 for another user's wallet exactly like a missing one, and leaves it as it was", async () => {
      const [theirs] = (await as(carol).get("/wallets")).body.wallets;
      for (const [method, p] of [
        ["POST", `/wallets/${theirs.id}/primary`],
        ["DELETE", `/wallets/${theirs.id}`],
      ] as const) {
        const answer = await call(server, method, `/api/bank${p}`, { token: bob.idToken });
        expect(answer.status).to.equal(404);
        expect(answer.body.error).to.equal(`Wallet ${theirs.id} was not found among your wallets.`);
      }
      const missing = await as(bob).del("/wallets/999999");
      expect(missing.status).to.equal(404);
      expect(missing.body.error).to.equal("Wallet 999999 was not found among your wallets.");
      expect((await as(bob).get("/wallets")).body.wallets).to.deep.equal([]);
      const after = (await as(carol).get("/wallets")).body.wallets.find((w: any) => w.id === theirs.id);
      expect(after).to.include({ isPrimary: true, name: theirs.name });
    });

    it("adds a wallet sign-in's own address as the primary wallet when it has none, once", async () => {
      const { idToken, wallet } = await walletUser(server);
      const first = await as({ idToken }).get("/wallets");
      expect(first.body.wallets).to.have.length(1);
      expect(first.body.wallets[0]).to.include({ address: wallet.address, isPrimary: true, name: "Sign-in wallet", balance: "0" });
      const again = await as({ idToken }).get("/wallets");
      expect(again.body.wallets.map((w: any) => w.id)).to.deep.equal([first.body.wallets[0].id]);
    });
  });

  describe("deposits", () => {
    let dana: { idToken: string; uid: string };
    // A user with a wallet of their own, for the foreign-wallet check.
    let erin: { idToken: string; uid: string };
    let account: any;
    let wallet: any;
    before(async () => {
      dana = await emailUser();
      erin = await emailUser();
      await addWallet(erin, "Erin", address());
      account = await verifiedAccount(dana, "Dana's checking");
      wallet = await addWallet(dana, "Dana", address());
    });

    it("goes pending → processing → completed and mints exactly the amount to the primary wallet", async () => {
      const amount = units("20.30");
      await expectExact(amount);
      const balanceBefore = await usdx().balanceOf(wallet.address);
      expect(balanceBefore).to.equal(0n);

      const answer = await as(dana).post("/deposits", { bankAccountId: account.id, amount: "20.30" });
      expect(answer.status).to.equal(201);
      expect(answer.body.mock).to.equal(true);
      const deposit = answer.body.deposit;
      expect(deposit).to.deep.include({
        amount: "20.30",
        amountRaw: amount.toString(),
        fee: "0.00",
        rate: "1",
        status: "pending",
        walletAddress: wallet.address,
        txHash: null,
        error: null,
        completedAt: null,
        bankAccount: { id: account.id, name: "Dana's checking", lastFour: "6789" },
      });
      expect(Date.parse(deposit.processingAt) - Date.parse(deposit.timestamp)).to.equal(300);
      expect(Date.parse(deposit.completeAt) - Date.parse(deposit.timestamp)).to.equal(800);

      const seen: string[] = [deposit.status];
      const done = await until(
        "deposit completed",
        async () => {
          const d = await depositOf(dana, deposit.id);
          if (seen[seen.length - 1] !== d.status) seen.push(d.status);
          return d;
        },
        (d) => d.status === "completed" || d.status === "failed",
      );
      expect(seen).to.deep.equal(["pending", "processing", "completed"]);
      expect(Date.parse(done.completedAt)).to.be.at.least(Date.parse(deposit.completeAt));
      expect(await usdx().balanceOf(wallet.address)).to.equal(balanceBefore + amount);
      expect(await mintsTo(wallet.address)).to.deep.equal([amount]);

      const receipt = await provider().getTransactionReceipt(done.txHash);
      expect(receipt!.status).to.equal(1);
      expect(receipt!.from).to.equal(await (await signer(seededAccount("minter").index)).getAddress());
      expect(receipt!.to).to.equal(server.services.chain.manifest.proxy);
      const [row] = await db().select().from(deposits).where(eq(deposits.id, deposit.id));
      expect(row.signedTx).to.match(/^0x/);
      expect(row.txHash).to.equal(done.txHash);

      const listed = (await as(dana).get("/wallets")).body.wallets.find((w: any) => w.id === wallet.id);
      expect(listed).to.include({ balance: "20.3", balanceRaw: amount.toString() });
    });

    it("mints to a chosen wallet of the user's, lists newest first, and refuses another user's wallet", async () => {
      const other = await addWallet(dana, "Savings wallet", address());
      const amount = units("12.18");
      await expectExact(amount);
      const foreignWallet = (await as(erin).get("/wallets")).body.wallets[0];
      const refused = await as(dana).post("/deposits", { bankAccountId: account.id, amount: "12.18", walletId: foreignWallet.id });
      expect(refused.status).to.equal(404);
      expect(refused.body.error).to.equal(`Invalid Deposit: wallet ${foreignWallet.id} was not found among your wallets.`);

      const answer = await as(dana).post("/deposits", { bankAccountId: String(account.id), amount: "12.18", walletId: other.id });
      expect(answer.status).to.equal(201);
      expect(answer.body.deposit.walletAddress).to.equal(other.address);
      await until("completed", () => depositOf(dana, answer.body.deposit.id), (d) => d.status === "completed");
      expect(await usdx().balanceOf(other.address)).to.equal(amount);
      expect(await usdx().balanceOf(foreignWallet.address)).to.equal(0n);

      const list = (await as(dana).get("/deposits")).body.deposits;
      expect(list.map((d: any) => d.amount)).to.deep.equal(["12.18", "20.30"]);
      expect(list[0].bankAccount).to.deep.equal({ id: account.id, name: "Dana's checking", lastFour: "6789" });
    });

    const MISSING = "Missing Information: please choose the bank account to deposit from and enter an amount";
    const cases: [string, (id: number) => unknown, number, string][] = [
      ["nothing", () => ({}), 400, `${MISSING} (missing: bankAccountId, amount).`],
      ["no amount", (id) => ({ bankAccountId: id }), 400, `${MISSING} (missing: amount).`],
      ["an empty amount", (id) => ({ bankAccountId: id, amount: " " }), 400, `${MISSING} (missing: amount).`],
      ["no account", () => ({ amount: "5" }), 400, `${MISSING} (missing: bankAccountId).`],
      ["0", (id) => ({ bankAccountId: id, amount: "0" }), 400, "Invalid Deposit: the amount must be greater than 0."],
      ["0.00", (id) => ({ bankAccountId: id, amount: "0.00" }), 400, "Invalid Deposit: the amount must be greater than 0."],
      ["-5", (id) => ({ bankAccountId: id, amount: "-5" }), 400, "Invalid Deposit: the amount must be greater than 0, and '-5' is negative."],
      ["3 decimals", (id) => ({ bankAccountId: id, amount: "1.005" }), 400, "Invalid Deposit: '1.005' has 3 decimals; a US dollar amount has at most 2 (cents)."],
      ["over the cap", (id) => ({ bankAccountId: id, amount: "1000000.01" }), 400, "Invalid Deposit: a mock deposit is at most 1,000,000.00 USD."],
      ["an exponent", (id) => ({ bankAccountId: id, amount: "1e3" }), 400, "Invalid Deposit: '1e3' is not an amount in US dollars: use digits and at most 2 decimals, such as '125.50'."],
      ["a comma", (id) => ({ bankAccountId: id, amount: "12,50" }), 400, "Invalid Deposit: '12,50' is not an amount in US dollars: use digits and at most 2 decimals, such as '125.50'."],
      ["a number amount", (id) => ({ bankAccountId: id, amount: 12.5 }), 400, "Invalid Deposit: the amount must be a decimal string in US dollars, such as '125.50'."],
      ["a text account id", () => ({ bankAccountId: "abc", amount: "5" }), 400, "Invalid Deposit: bankAccountId must be the id (a whole number) of one of yours."],
      ["a boolean account id", () => ({ bankAccountId: true, amount: "5" }), 400, "Invalid Deposit: bankAccountId must be the id (a whole number) of one of yours."],
      ["a fractional wallet id", (id) => ({ bankAccountId: id, amount: "5", walletId: 1.5 }), 400, "Invalid Deposit: walletId must be the id (a whole number) of one of yours."],
      ["a missing account", () => ({ bankAccountId: 999999, amount: "5" }), 404, "Invalid Deposit: bank account 999999 was not found among your bank accounts."],
    ];
    for (const [what, body, status, error] of cases) {
      it(`answers ${status} for ${what} and stores nothing`, async () => {
        const before = (await db().select().from(deposits)).length;
        const answer = await as(dana).post("/deposits", body(account.id));
        expect(answer.status).to.equal(status);
        expect(answer.body).to.deep.equal({ success: false, error });
        expect((await db().select().from(deposits)).length).to.equal(before);
      });
    }

    it("accepts exactly 1,000,000.00 (the cap)", async () => {
      const answer = await as(dana).post("/deposits", { bankAccountId: account.id, amount: "1000000.00" });
      expect(answer.status).to.equal(201);
      expect(answer.body.deposit.amountRaw).to.equal(units("1000000").toString());
      await until("completed", () => depositOf(dana, answer.body.deposit.id), (d) => d.status === "completed");
    });

    it("tells a user without a wallet to add one", async () => {
      const user = await emailUser();
      const acct = await verifiedAccount(user);
      const answer = await as(user).post("/deposits", { bankAccountId: acct.id, amount: "5" });
      expect(answer.status).to.equal(400);
      expect(answer.body.error).to.equal("Invalid Deposit: you have no wallet to receive the USDX; add one under My Wallets first.");
      expect(await db().select().from(deposits).where(eq(deposits.uid, user.uid))).to.have.length(0);
    });

    it("answers 404 for another user's deposit and bank account exactly like missing ones", async () => {
      const [mine] = (await as(dana).get("/deposits")).body.deposits;
      const foreign = await as(bob).get(`/deposits/${mine.id}`);
      expect(foreign.status).to.equal(404);
      expect(foreign.body.error).to.equal(`Deposit ${mine.id} was not found among your deposits.`);
      expect((await as(bob).get("/deposits/999999")).body.error).to.equal("Deposit 999999 was not found among your deposits.");
      expect((await as(bob).get("/deposits")).body.deposits).to.deep.equal([]);

      await addWallet(bob, "Bob", address());
      const before = (await db().select().from(deposits)).length;
      const fromTheirs = await as(bob).post("/deposits", { bankAccountId: account.id, amount: "5" });
      expect(fromTheirs.status).to.equal(404);
      expect(fromTheirs.body.error).to.equal(`Invalid Deposit: bank account ${account.id} was not found among your bank accounts.`);
      expect((await db().select().from(deposits)).length).to.equal(before);
      expect(await depositOf(dana, mine.id)).to.deep.equal(mine);
    });

    it("refuses to remove an account while its deposit is under way; afterwards it leaves the list but history keeps its name", async () => {
      const acct = await verifiedAccount(dana, "Short-lived");
      const answer = await as(dana).post("/deposits", { bankAccountId: acct.id, amount: "2.03" });
      expect(answer.status).to.equal(201);
      const refused = await as(dana).del(`/accounts/${acct.id}`);
      expect(refused.status).to.equal(409);
      expect(refused.body.error).to.equal("Cannot Remove Bank Account: 'Short-lived' has a deposit in progress; remove it once the deposit has completed or failed.");
      await until("completed", () => depositOf(dana, answer.body.deposit.id), (d) => d.status === "completed");

      const removed = await as(dana).del(`/accounts/${acct.id}`);
      expect(removed.status).to.equal(200);
      expect((await as(dana).get("/accounts")).body.accounts.map((a: any) => a.id)).not.to.include(acct.id);
      expect((await depositOf(dana, answer.body.deposit.id)).bankAccount).to.deep.equal({ id: acct.id, name: "Short-lived", lastFour: "6789" });
      const again = await as(dana).post("/deposits", { bankAccountId: acct.id, amount: "1" });
      expect(again.status).to.equal(404);
      expect((await as(dana).del(`/accounts/${acct.id}`)).status).to.equal(404);
    });

    it("fails with the contract's reason and mints nothing when the mint would revert (USDX paused)", async () => {
      const pauser = usdx().connect(await signer(seededAccount("pauser").index));
      const target = await addWallet(dana, "Paused target", address());
      await (await pauser.pause()).wait();
      try {
        const answer = await as(dana).post("/deposits", { bankAccountId: account.id, amount: "4.06", walletId: target.id });
        expect(answer.status).to.equal(201);
        const done = await until("failed", () => depositOf(dana, answer.body.deposit.id), (d) => d.status === "completed" || d.status === "failed");
        expect(done).to.include({ status: "failed", error: PAUSED, txHash: null, completedAt: null });
        const [row] = await db().select().from(deposits).where(eq(deposits.id, done.id));
        expect(row.signedTx).to.equal(null);
      } finally {
        await (await pauser.unpause()).wait();
      }
      expect(await usdx().balanceOf(target.address)).to.equal(0n);
      expect(await mintsTo(target.address)).to.deep.equal([]);
    });

    it("fails with a clear error and mints nothing when the sent mint reverts on chain", async () => {
      const pauser = usdx().connect(await signer(seededAccount("pauser").index));
      const target = await addWallet(dana, "Reverted target", address());
      await rpc(stack().rpcUrl, "evm_setAutomine", [false]);
      let id: number;
      try {
        id = (await as(dana).post("/deposits", { bankAccountId: account.id, amount: "4.06", walletId: target.id })).body.deposit.id;
        const [row] = await until(
          "signed",
          () => db().select().from(deposits).where(eq(deposits.id, id)),
          ([r]) => r.signedTx !== null,
        );
        // The pause pays more, so it is mined first in the same block and the mint reverts.
        await pauser.pause({ maxPriorityFeePerGas: parseUnits("50", "gwei"), maxFeePerGas: parseUnits("100", "gwei") });
        await rpc(stack().rpcUrl, "evm_mine");
        const receipt = await provider().getTransactionReceipt(row.txHash!);
        expect(receipt!.status).to.equal(0);
      } finally {
        await rpc(stack().rpcUrl, "evm_setAutomine", [true]);
      }
      try {
        const done = await until("failed", () => depositOf(dana, id), (d) => d.status !== "processing");
        expect(done.status).to.equal("failed");
        expect(done.error).to.match(/^The mint transaction 0x[0-9a-f]{64} reverted on chain in block \d+; nothing was minted\.$/);
        expect(done.error).to.include(done.txHash);
      } finally {
        await (await pauser.unpause()).wait();
      }
      expect(await usdx().balanceOf(target.address)).to.equal(0n);
      expect(await mintsTo(target.address)).to.deep.equal([]);
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

      const created = (await post("/accounts", { name: "Slow", type: "checking", accountNumber: "4444", routingNumber: "021000021" })).body.account;
      expect(Date.parse(created.verifyAt) - Date.parse(created.createdAt)).to.equal(5000);
      const early = await post("/deposits", { bankAccountId: created.id, amount: "6.09" });
      expect(early.status).to.equal(400);
      expect(early.body.error).to.equal(
        "Invalid Deposit: the bank account 'Slow' is not verified yet; you can deposit from it once it is verified, a few seconds after it was added.",
      );

      await sleep(Date.parse(created.createdAt) + 4500 - Date.now());
      await expectAnsweredBefore(Date.parse(created.verifyAt), async () => (await get("/accounts")).body.accounts[0].status, "pending");
      await until("verified", async () => (await get("/accounts")).body.accounts[0], (a) => a.status === "verified");
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
    beforeEach(() => {
      dir = mkdtempSync(path.join(tmpdir(), "usdx-bank-"));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    const TIMINGS = { ...FAST, BANK_COMPLETE_MS: "1500" };

    /** A user with a verified account and a fresh primary wallet on `s`. */
    async function setUp(s: RunningServer) {
      const user = await emailUser();
      const post = (p: string, body: unknown) => call(s, "POST", `/api/bank${p}`, { token: user.idToken, body });
      const target = address();
      expect((await post("/wallets", { name: "Main", address: target })).status).to.equal(201);
      const account = (await post("/accounts", { name: "Restart", type: "checking", accountNumber: "12345678", routingNumber: "021000021" })).body.account;
      await until("verified", async () => (await call(s, "GET", "/api/bank/accounts", { token: user.idToken })).body.accounts[0], (a) => a.status === "verified");
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
        const done = await until("completed on B", () => readOn(b, user, id), (d) => d.status === "completed" || d.status === "failed");
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
        const done = await until("completed on B", () => readOn(b, user, id), (d) => d.status === "completed" || d.status === "failed");
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
        const done = await until("completed on C", () => readOn(c, user, id), (d) => d.status !== "processing");
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
