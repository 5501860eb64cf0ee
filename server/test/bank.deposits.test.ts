/**
 * The mock bank (/api/bank): deposits, from pending to the mint on the chain; another user's; and a
 * mint the token refuses (paused) or that reverts once sent.
 */
import { expect } from "chai";
import { parseUnits } from "ethers";
import { eq } from "drizzle-orm";
import { seededAccount } from "@common/seedAccounts";
import { deposits } from "../src/db/schema";
import type { RunningServer } from "../src/index";
import { FAST, address, bankCalls, expectExact, mintsTo, units, usdx } from "./bankHelpers";
import { emailUser, provider, revert, signer, snapshot, stack, startTestServer, until } from "./helpers";
import { rpc } from "./stack";
import type { BankAccount, BankWallet, Deposit } from "@common/apiTypes";

const PAUSED = "USDX is paused: no tokens can be transferred, minted or burned until it is unpaused.";

describe("Mock bank (/api/bank)", () => {
  let chainSnapshot: string;
  let server: RunningServer;
  let bob: { idToken: string; uid: string };

  before(async () => {
    chainSnapshot = await snapshot();
    server = await startTestServer(FAST);
    bob = await emailUser();
  });
  after(async () => {
    await server?.close();
    await revert(chainSnapshot);
  });

  const { db, as, addWallet, verifiedAccount, depositOf } = bankCalls(() => server);

  describe("deposits", () => {
    let dana: { idToken: string; uid: string };
    // A user with a wallet of their own, for the foreign-wallet check.
    let erin: { idToken: string; uid: string };
    let account: BankAccount;
    let wallet: BankWallet;
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

      const listed = (await as(dana).get("/wallets")).body.wallets.find((w: BankWallet) => w.id === wallet.id);
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
      await until(
        "completed",
        () => depositOf(dana, answer.body.deposit.id),
        (d) => d.status === "completed",
      );
      expect(await usdx().balanceOf(other.address)).to.equal(amount);
      expect(await usdx().balanceOf(foreignWallet.address)).to.equal(0n);

      const list = (await as(dana).get("/deposits")).body.deposits;
      expect(list.map((d: Deposit) => d.amount)).to.deep.equal(["12.18", "20.30"]);
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
      [
        "-5",
        (id) => ({ bankAccountId: id, amount: "-5" }),
        400,
        "Invalid Deposit: the amount must be greater than 0, and '-5' is negative.",
      ],
      [
        "3 decimals",
        (id) => ({ bankAccountId: id, amount: "1.005" }),
        400,
        "Invalid Deposit: '1.005' has 3 decimals; a US dollar amount has at most 2 (cents).",
      ],
      [
        "over the cap",
        (id) => ({ bankAccountId: id, amount: "1000000.01" }),
        400,
        "Invalid Deposit: a mock deposit is at most 1,000,000.00 USD.",
      ],
      [
        "an exponent",
        (id) => ({ bankAccountId: id, amount: "1e3" }),
        400,
        "Invalid Deposit: '1e3' is not an amount in US dollars: use digits and at most 2 decimals, such as '125.50'.",
      ],
      [
        "a comma",
        (id) => ({ bankAccountId: id, amount: "12,50" }),
        400,
        "Invalid Deposit: '12,50' is not an amount in US dollars: use digits and at most 2 decimals, such as '125.50'.",
      ],
      [
        "a number amount",
        (id) => ({ bankAccountId: id, amount: 12.5 }),
        400,
        "Invalid Deposit: the amount must be a decimal string in US dollars, such as '125.50'.",
      ],
      [
        "a text account id",
        () => ({ bankAccountId: "abc", amount: "5" }),
        400,
        "Invalid Deposit: bankAccountId must be the id (a whole number) of one of yours.",
      ],
      [
        "a boolean account id",
        () => ({ bankAccountId: true, amount: "5" }),
        400,
        "Invalid Deposit: bankAccountId must be the id (a whole number) of one of yours.",
      ],
      [
        "a fractional wallet id",
        (id) => ({ bankAccountId: id, amount: "5", walletId: 1.5 }),
        400,
        "Invalid Deposit: walletId must be the id (a whole number) of one of yours.",
      ],
      [
        "a missing account",
        () => ({ bankAccountId: 999999, amount: "5" }),
        404,
        "Invalid Deposit: bank account 999999 was not found among your bank accounts.",
      ],
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
      await until(
        "completed",
        () => depositOf(dana, answer.body.deposit.id),
        (d) => d.status === "completed",
      );
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
      expect(refused.body.error).to.equal(
        "Cannot Remove Bank Account: 'Short-lived' has a deposit in progress; remove it once the deposit has completed or failed.",
      );
      await until(
        "completed",
        () => depositOf(dana, answer.body.deposit.id),
        (d) => d.status === "completed",
      );

      const removed = await as(dana).del(`/accounts/${acct.id}`);
      expect(removed.status).to.equal(200);
      expect((await as(dana).get("/accounts")).body.accounts.map((a: BankAccount) => a.id)).not.to.include(acct.id);
      expect((await depositOf(dana, answer.body.deposit.id)).bankAccount).to.deep.equal({
        id: acct.id,
        name: "Short-lived",
        lastFour: "6789",
      });
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
        const done = await until(
          "failed",
          () => depositOf(dana, answer.body.deposit.id),
          (d) => d.status === "completed" || d.status === "failed",
        );
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
        const done = await until(
          "failed",
          () => depositOf(dana, id),
          (d) => d.status !== "processing",
        );
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
});
