/**
 * The mock bank as a capped test faucet (issue 13, part 1): MOCK_BANK's modes, proof that a wallet
 * is the user's, the daily caps, rate limits and counts, a fair mint queue, and no mock bank on a
 * mainnet chain id. Each attack is made for real against the server and must fail, minting nothing.
 * MOCK_BANK=faucet runs on the local chain here, as an operator would rehearse it.
 */
import { expect } from "chai";
import { eq } from "drizzle-orm";
import type { BankWallet } from "@common/apiTypes";
import { bankWalletChallenges, bankWallets, deposits } from "../src/db/schema";
import { type RunningServer } from "../src/index";
import { call, emailUser, revert, snapshot, stack, startTestServer, until, walletUser } from "./helpers";
import { rpc } from "./stack";
import {
  User,
  FAUCET,
  TOMORROW,
  NOT_VERIFIED,
  sleep,
  newWallet,
  mintsTo,
  bankOf,
  verifiedAccount,
  signedChallenge,
  provedWallet,
} from "./bankFaucetHelpers";

describe("Mock bank as a test faucet (MOCK_BANK=faucet)", function () {
  this.timeout(60_000);
  let chainSnapshot: string;
  before(async () => {
    chainSnapshot = await snapshot();
  });
  after(async () => {
    await revert(chainSnapshot);
  });

  describe("minting only to wallets the user proved", () => {
    let server: RunningServer;
    let alice: User;
    let bob: User;
    let aliceAccount: number;
    before(async () => {
      server = await startTestServer(FAUCET);
      alice = await emailUser();
      bob = await emailUser();
      aliceAccount = await verifiedAccount(server, alice);
    });
    after(() => server?.close());

    const db = () => server.services.db.db;
    const depositRows = async () => (await db().select().from(deposits)).length;

    it("tells the deposit screen it is a faucet, its caps and what is left today", async () => {
      const terms = await bankOf(server)(alice).get("/terms");
      expect(terms.status).to.equal(200);
      expect(terms.body).to.deep.include({
        mode: "faucet",
        walletProofRequired: true,
        maxDeposit: "1000.00",
        maxAccounts: 10,
        maxWallets: 10,
      });
      expect(terms.body.faucet).to.deep.include({
        window: "utc-day",
        perUserDaily: "1,000.00",
        totalDaily: "100,000.00",
        userLeftToday: "1,000.00",
        totalLeftToday: "100,000.00",
        perUserDailyDeposits: 10,
        userDepositsLeftToday: 10,
      });
      const resets = new Date(terms.body.faucet.resetsAt);
      expect(resets.getTime()).to.be.greaterThan(Date.now());
      expect(resets.toISOString()).to.match(/T00:00:00\.000Z$/);
    });

    it("refuses a deposit to a wallet added without proof, storing and minting nothing", async () => {
      const target = newWallet();
      const added = await bankOf(server)(alice).post("/wallets", { name: "Anyone's", address: target.address });
      expect(added.status).to.equal(201);
      expect(added.body.wallet).to.include({ verified: false, verifiedBy: null });
      const before = await depositRows();
      const refused = await bankOf(server)(alice).post("/deposits", {
        bankAccountId: aliceAccount,
        amount: "10",
        walletId: added.body.wallet.id,
      });
      expect(refused.status).to.equal(403);
      expect(refused.body).to.deep.equal({ success: false, error: NOT_VERIFIED("Anyone's", target.address) });
      // As the primary wallet (no walletId) too.
      const asPrimary = await bankOf(server)(alice).post("/deposits", { bankAccountId: aliceAccount, amount: "10" });
      expect(asPrimary.body.error).to.equal(NOT_VERIFIED("Anyone's", target.address));
      expect(await depositRows()).to.equal(before);
      await sleep(400);
      expect(await mintsTo(target.address)).to.deep.equal([]);
    });

    it("mints to a wallet proved by a signed challenge that names the dashboard, the user and the address", async () => {
      const target = newWallet();
      const { challenge, message, signature } = await signedChallenge(server, alice, target);
      expect(message)
        .to.include("USDX Dashboard")
        .and.include(`Wallet: ${target.address}`)
        .and.include(`Dashboard account: `)
        .and.include(alice.uid!);
      expect(message).to.include("Chain ID: 31337").and.include(`Nonce: ${challenge}`).and.include("Expiration Time: ");
      const added = await bankOf(server)(alice).post("/wallets", { name: "Mine", address: target.address, challenge, signature });
      expect(added.status, JSON.stringify(added.body)).to.equal(201);
      expect(added.body.wallet).to.include({ verified: true, verifiedBy: "signature" });
      const deposit = await bankOf(server)(alice).post("/deposits", {
        bankAccountId: aliceAccount,
        amount: "12.50",
        walletId: added.body.wallet.id,
      });
      expect(deposit.status, JSON.stringify(deposit.body)).to.equal(201);
      const done = await until(
        "minted",
        async () => (await bankOf(server)(alice).get(`/deposits/${deposit.body.deposit.id}`)).body.deposit,
        (d) => d.status !== "pending" && d.status !== "processing",
      );
      expect(done.status).to.equal("completed");
      expect(await mintsTo(target.address)).to.deep.equal([12_500_000_000_000_000_000n]);
    });

    it("verifies a wallet added without proof once its owner signs (POST /wallets/:id/verify)", async () => {
      const target = newWallet();
      const added = (await bankOf(server)(alice).post("/wallets", { name: "Later", address: target.address })).body.wallet;
      const proof = await signedChallenge(server, alice, target);
      const verified = await bankOf(server)(alice).post(`/wallets/${added.id}/verify`, {
        challenge: proof.challenge,
        signature: proof.signature,
      });
      expect(verified.status, JSON.stringify(verified.body)).to.equal(200);
      expect(verified.body.wallet).to.include({ id: added.id, verified: true, verifiedBy: "signature" });
      const listed = (await bankOf(server)(alice).get("/wallets")).body.wallets.find((w: BankWallet) => w.id === added.id);
      expect(listed?.verified).to.equal(true);
      const deposit = await bankOf(server)(alice).post("/deposits", { bankAccountId: aliceAccount, amount: "1", walletId: added.id });
      expect(deposit.status).to.equal(201);
    });

    it("a wallet sign-in's own address counts as proved: the deposit goes to it", async () => {
      const signIn = await walletUser(server);
      const account = await verifiedAccount(server, signIn);
      const wallets = (await bankOf(server)(signIn).get("/wallets")).body.wallets;
      expect(wallets).to.have.length(1);
      expect(wallets[0]).to.include({ address: signIn.wallet.address, isPrimary: true, verified: true, verifiedBy: "sign-in" });
      const deposit = await bankOf(server)(signIn).post("/deposits", { bankAccountId: account, amount: "3" });
      expect(deposit.status, JSON.stringify(deposit.body)).to.equal(201);
      expect(deposit.body.deposit.walletAddress).to.equal(signIn.wallet.address);
    });

    describe("a challenge signature that must not pass", () => {
      async function refusedAdd(user: User, body: Record<string, unknown>, error: string) {
        const before = await db().select().from(bankWallets);
        const answer = await bankOf(server)(user).post("/wallets", { name: "Stolen", ...body });
        expect(answer.status, JSON.stringify(answer.body)).to.equal(403);
        expect(answer.body).to.deep.equal({ success: false, error });
        expect(await db().select().from(bankWallets)).to.deep.equal(before);
      }

      it("forged: signed by another key; the challenge stays usable by the real owner", async () => {
        const target = newWallet();
        const forged = await signedChallenge(server, alice, target, newWallet());
        await refusedAdd(
          alice,
          { address: target.address, challenge: forged.challenge, signature: forged.signature },
          `Wallet Not Verified: the signing request was not signed by ${target.address}.`,
        );
        const [row] = await db().select().from(bankWalletChallenges).where(eq(bankWalletChallenges.nonce, forged.challenge));
        expect(row.usedAt).to.equal(null);
        const real = await target.signMessage(forged.message);
        expect(
          (
            await bankOf(server)(alice).post("/wallets", {
              name: "Real",
              address: target.address,
              challenge: forged.challenge,
              signature: real,
            })
          ).status,
        ).to.equal(201);
      });

      it("not a signature at all", async () => {
        const target = newWallet();
        const { challenge } = await signedChallenge(server, alice, target);
        await refusedAdd(
          alice,
          { address: target.address, challenge, signature: `0x${"00".repeat(65)}` },
          "Wallet Not Verified: the signature is not a valid Ethereum signature of the signing request.",
        );
      });

      it("replayed: a challenge already spent proves nothing again, for the same address or after the wallet is removed", async () => {
        const target = newWallet();
        const proof = await signedChallenge(server, alice, target);
        const first = await bankOf(server)(alice).post("/wallets", {
          name: "Once",
          address: target.address,
          challenge: proof.challenge,
          signature: proof.signature,
        });
        expect(first.status).to.equal(201);
        expect((await call(server, "DELETE", `/api/bank/wallets/${first.body.wallet.id}`, { token: alice.idToken })).status).to.equal(200);
        await refusedAdd(
          alice,
          { address: target.address, challenge: proof.challenge, signature: proof.signature },
          "Wallet Not Verified: this signing request was already used. Ask for a new one and sign it again.",
        );
      });

      it("expired: older than five minutes", async () => {
        const target = newWallet();
        const proof = await signedChallenge(server, alice, target);
        await db()
          .update(bankWalletChallenges)
          .set({ expiresAt: new Date(Date.now() - 1000) })
          .where(eq(bankWalletChallenges.nonce, proof.challenge));
        await refusedAdd(
          alice,
          { address: target.address, challenge: proof.challenge, signature: proof.signature },
          "Wallet Not Verified: this signing request has expired (it is good for five minutes). Ask for a new one and sign it again.",
        );
      });

      it("another user's: Bob's challenge, signed by the wallet, does not verify it for Alice", async () => {
        const target = newWallet();
        const bobs = await signedChallenge(server, bob, target);
        await refusedAdd(
          alice,
          { address: target.address, challenge: bobs.challenge, signature: bobs.signature },
          `Wallet Not Verified: this signing request was not issued to you for ${target.address}. Ask for a new one and sign it with that wallet.`,
        );
      });

      it("another address's: a challenge for the wallet the attacker holds does not prove a victim's address", async () => {
        const mine = newWallet();
        const victim = newWallet();
        const proof = await signedChallenge(server, alice, mine);
        await refusedAdd(
          alice,
          { address: victim.address, challenge: proof.challenge, signature: proof.signature },
          `Wallet Not Verified: this signing request was not issued to you for ${victim.address}. Ask for a new one and sign it with that wallet.`,
        );
      });

      it("never issued here, or a proof without its challenge", async () => {
        const target = newWallet();
        const signature = await target.signMessage("USDX Dashboard: prove that you control this wallet");
        await refusedAdd(
          alice,
          { address: target.address, challenge: "0".repeat(32), signature },
          `Wallet Not Verified: this signing request was not issued to you for ${target.address}. Ask for a new one and sign it with that wallet.`,
        );
        const half = await bankOf(server)(alice).post("/wallets", { name: "Half", address: target.address, signature });
        expect(half.status).to.equal(400);
        expect(half.body.error).to.equal("Invalid Wallet: send both the challenge and its signature, or neither.");
      });
    });
  });

  describe("daily caps (per UTC day, deposits not failed)", () => {
    let server: RunningServer;
    // 100 USDX a day per user, 250 in all.
    const CAPS = { ...FAUCET, MOCK_BANK_USER_DAILY_USD: "100", MOCK_BANK_TOTAL_DAILY_USD: "250" };
    before(async () => {
      server = await startTestServer(CAPS);
    });
    after(() => server?.close());

    /** A user with a verified account and a proved primary wallet. */
    async function depositor() {
      const user = await emailUser();
      const account = await verifiedAccount(server, user);
      const target = newWallet();
      await provedWallet(server, user, target);
      const deposit = (amount: string) => bankOf(server)(user).post("/deposits", { bankAccountId: account, amount });
      return { user, target, deposit };
    }
    const countRows = async () => (await server.services.db.db.select().from(deposits)).length;

    it("per user: refuses past 100.00 USDX a day with the sentence, says what is left, and mints only what was accepted", async () => {
      const a = await depositor();
      expect((await a.deposit("60")).status).to.equal(201);
      const rows = await countRows();
      const over = await a.deposit("50");
      expect(over.status).to.equal(429);
      expect(over.body).to.deep.equal({
        success: false,
        error: `Daily mock deposit limit: 100.00 USDX a day per user (UTC day), and only 40.00 USDX of it is left today. Deposit at most 40.00 USD, or try again tomorrow (the day turns at 00:00 UTC).`,
      });
      expect((await a.deposit("40")).status).to.equal(201);
      const none = await a.deposit("0.01");
      expect(none.status).to.equal(429);
      expect(none.body.error).to.equal(`Daily mock deposit limit reached: 100.00 USDX a day per user (UTC day). ${TOMORROW}`);
      expect(await countRows()).to.equal(rows + 1);
      expect((await bankOf(server)(a.user).get("/terms")).body.faucet).to.deep.include({ userLeftToday: "0.00", userDepositsLeftToday: 8 });
      await until(
        "minted",
        () => mintsTo(a.target.address),
        (m) => m.length === 2,
      );
      expect(await mintsTo(a.target.address)).to.deep.equal([60n * 10n ** 18n, 40n * 10n ** 18n]);
    });

    it("a failed deposit gives its room back; yesterday's deposits do not count", async () => {
      const a = await depositor();
      const first = (await a.deposit("100")).body.deposit;
      expect((await a.deposit("1")).status).to.equal(429);
      const db = server.services.db.db;
      await until(
        "settled",
        async () => (await db.select().from(deposits).where(eq(deposits.id, first.id)))[0].status,
        (s) => s === "completed",
      );
      // As if it had been made yesterday (UTC).
      await db
        .update(deposits)
        .set({ createdAt: new Date(Date.now() - 86_400_000) })
        .where(eq(deposits.id, first.id));
      const second = (await a.deposit("100")).body.deposit;
      expect(second.status).to.equal("pending");
      await until(
        "settled",
        async () => (await db.select().from(deposits).where(eq(deposits.id, second.id)))[0].status,
        (s) => s === "completed",
      );
      await db.update(deposits).set({ status: "failed" }).where(eq(deposits.id, second.id));
      expect((await a.deposit("100")).status).to.equal(201);
    });

    it("in all: refuses past 250.00 USDX a day across users, with the sentence", async () => {
      // Earlier tests left 200 counted today (60 + 40, then 100 after the failure); 50 is left in all.
      const b = await depositor();
      const terms = (await bankOf(server)(b.user).get("/terms")).body.faucet;
      expect(terms).to.deep.include({ userLeftToday: "100.00", totalLeftToday: "50.00" });
      const over = await b.deposit("60");
      expect(over.status).to.equal(429);
      expect(over.body.error).to.equal(
        "The mock bank's daily limit for all users: 250.00 USDX a day in all (UTC day), and only 50.00 USDX of it is left today. Deposit at most 50.00 USD, or try again tomorrow (the day turns at 00:00 UTC).",
      );
      expect((await b.deposit("50")).status).to.equal(201);
      const c = await depositor();
      const none = await c.deposit("1");
      expect(none.status).to.equal(429);
      expect(none.body.error).to.equal(
        `The mock bank's daily limit for all users is reached: 250.00 USDX a day in all (UTC day). ${TOMORROW}`,
      );
      await sleep(500);
      expect(await mintsTo(c.target.address)).to.deep.equal([]);
    });
  });

  describe("two deposits at once at the cap's edge", () => {
    let server: RunningServer;
    before(async () => {
      server = await startTestServer({
        ...FAUCET,
        MOCK_BANK_USER_DAILY_USD: "100",
        MOCK_BANK_TOTAL_DAILY_USD: "150",
        BANK_COMPLETE_MS: "3600000",
      });
    });
    after(() => server?.close());

    async function depositor() {
      const user = await emailUser();
      const account = await verifiedAccount(server, user);
      await provedWallet(server, user, newWallet());
      return (amount: string) => bankOf(server)(user).post("/deposits", { bankAccountId: account, amount });
    }

    it("one user: of two 60 USDX deposits against 100 left, exactly one passes", async () => {
      const deposit = await depositor();
      const answers = await Promise.all([deposit("60"), deposit("60")]);
      expect(answers.map((a) => a.status).sort()).to.deep.equal([201, 429]);
      expect(answers.find((a) => a.status === 429)!.body.error).to.match(/^Daily mock deposit limit: 100\.00 USDX a day per user/);
    });

    it("two users: of two 60 USDX deposits against 90 left in all, exactly one passes", async () => {
      const [first, second] = [await depositor(), await depositor()];
      const answers = await Promise.all([first("60"), second("60")]);
      expect(answers.map((a) => a.status).sort()).to.deep.equal([201, 429]);
      expect(answers.find((a) => a.status === 429)!.body.error).to.match(
        /^The mock bank's daily limit for all users: 150\.00 USDX a day in all/,
      );
      const rows = await server.services.db.db.select().from(deposits);
      expect(rows.reduce((sum, r) => sum + BigInt(r.amount), 0n)).to.equal(120n * 10n ** 18n);
    });
  });

  describe("rate limits and counts per user", () => {
    let server: RunningServer;
    before(async () => {
      server = await startTestServer({
        ...FAUCET,
        BANK_COMPLETE_MS: "3600000",
        MOCK_BANK_WRITES_PER_MINUTE: "4",
        MOCK_BANK_MAX_ACCOUNTS: "2",
        MOCK_BANK_MAX_WALLETS: "2",
        MOCK_BANK_USER_DAILY_DEPOSITS: "2",
      });
    });
    after(() => server?.close());

    const accountBody = { name: "Checking", type: "checking", accountNumber: "000123456789", routingNumber: "021000021" };

    it("holds at most MOCK_BANK_MAX_ACCOUNTS bank accounts and MOCK_BANK_MAX_WALLETS wallets", async () => {
      const user = await emailUser();
      const as = bankOf(server)(user);
      expect((await as.post("/accounts", accountBody)).status).to.equal(201);
      expect((await as.post("/accounts", accountBody)).status).to.equal(201);
      const third = await as.post("/accounts", accountBody);
      expect(third.status).to.equal(409);
      expect(third.body.error).to.equal(
        "Bank Account Limit Reached: you have 2 mock bank accounts, the most one user may keep (2); remove one to add another.",
      );
      expect((await as.post("/wallets", { name: "One", address: newWallet().address })).status).to.equal(201);
      expect((await as.post("/wallets", { name: "Two", address: newWallet().address })).status).to.equal(201);
      const wallet = await as.post("/wallets", { name: "Three", address: newWallet().address });
      expect(wallet.status).to.equal(409);
      expect(wallet.body.error).to.equal(
        "Wallet Limit Reached: you have 2 wallets, the most one user may keep (2); remove one to add another.",
      );
    });

    it("answers 429 past MOCK_BANK_WRITES_PER_MINUTE for accounts, wallets and deposits, per user", async () => {
      const user = await emailUser();
      const other = await emailUser();
      const as = bankOf(server)(user);
      // The fourth account is refused by the count, the fifth request by the rate limit.
      for (let i = 0; i < 4; i++) expect((await as.post("/accounts", accountBody)).status).to.be.oneOf([201, 409]);
      const account = await as.post("/accounts", accountBody);
      expect(account.status).to.equal(429);
      expect(account.body).to.deep.equal({ success: false, error: "Too many new bank accounts: wait a minute and try again." });
      for (let i = 0; i < 4; i++) await as.post("/wallets/challenge", { address: newWallet().address });
      const wallet = await as.post("/wallets", { name: "Late", address: newWallet().address });
      expect(wallet.status).to.equal(429);
      expect(wallet.body.error).to.equal("Too many wallet requests: wait a minute and try again.");
      for (let i = 0; i < 4; i++) await as.post("/deposits", {});
      const deposit = await as.post("/deposits", {});
      expect(deposit.status).to.equal(429);
      expect(deposit.body.error).to.equal("Too many deposit requests: wait a minute and try again.");
      // Another user has a budget of their own.
      expect((await bankOf(server)(other).post("/accounts", accountBody)).status).to.equal(201);
    });

    it("refuses more than MOCK_BANK_USER_DAILY_DEPOSITS deposits a day", async () => {
      const user = await emailUser();
      const account = await verifiedAccount(server, user);
      await provedWallet(server, user, newWallet());
      const deposit = () => bankOf(server)(user).post("/deposits", { bankAccountId: account, amount: "1" });
      expect((await deposit()).status).to.equal(201);
      expect((await deposit()).status).to.equal(201);
      const third = await deposit();
      expect(third.status).to.equal(429);
      expect(third.body.error).to.equal(`Daily mock deposit limit reached: 2 deposits a day per user (UTC day). ${TOMORROW}`);
    });
  });

  describe("a fair mint queue", () => {
    let server: RunningServer;
    before(async () => {
      server = await startTestServer({ ...FAUCET, BANK_PROCESSING_MS: "0", BANK_COMPLETE_MS: "0" });
      // Stepped by hand below, one worker step at a time.
      await server.services.bank.stop();
    });
    after(async () => {
      await rpc(stack().rpcUrl, "evm_setAutomine", [true]);
      await server?.close();
    });

    it("user A's backlog of 6 does not hold user B's one deposit: B's mint is sent in the second step", async () => {
      const a = await walletUser(server);
      const b = await walletUser(server);
      const [aAccount, bAccount] = [await verifiedAccount(server, a), await verifiedAccount(server, b)];
      const ids: number[] = [];
      for (let i = 0; i < 6; i++)
        ids.push((await bankOf(server)(a).post("/deposits", { bankAccountId: aAccount, amount: `${i + 1}` })).body.deposit.id);
      const bId = (await bankOf(server)(b).post("/deposits", { bankAccountId: bAccount, amount: "7" })).body.deposit.id;
      const db = server.services.db.db;
      const signed = async () => (await db.select().from(deposits)).filter((d) => d.signedTx !== null).map((d) => d.id);

      // Like a public chain: a mint waits for a block, so one step sends at most one new mint.
      await rpc(stack().rpcUrl, "evm_setAutomine", [false]);
      await server.services.bank.runOnce();
      expect(await signed(), "step 1: A's oldest").to.deep.equal([ids[0]]);
      await rpc(stack().rpcUrl, "evm_mine");
      await server.services.bank.runOnce();
      expect((await signed()).sort(), "step 2: B next, not A's second").to.deep.equal([ids[0], bId].sort());
      await rpc(stack().rpcUrl, "evm_mine");
      await server.services.bank.runOnce();
      const [bRow] = await db.select().from(deposits).where(eq(deposits.id, bId));
      expect(bRow.status).to.equal("completed");
      expect(await mintsTo(b.wallet.address)).to.deep.equal([7n * 10n ** 18n]);

      // The rest of A's backlog still completes, each minted once (step 3 sent A's second: mine it).
      await rpc(stack().rpcUrl, "evm_setAutomine", [true]);
      await rpc(stack().rpcUrl, "evm_mine");
      await until(
        "A's backlog",
        async () => {
          await server.services.bank.runOnce();
          return (await db.select().from(deposits)).filter((d) => d.status !== "completed").length;
        },
        (left) => left === 0,
      );
      expect(await mintsTo(a.wallet.address)).to.deep.equal([1n, 2n, 3n, 4n, 5n, 6n].map((n) => n * 10n ** 18n));
    });
  });
});
