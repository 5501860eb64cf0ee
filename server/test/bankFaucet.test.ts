/**
 * The mock bank as a capped test faucet (issue 13, part 1): MOCK_BANK's modes, proof that a wallet
 * is the user's, the daily caps, rate limits and counts, a fair mint queue, and no mock bank on a
 * mainnet chain id. Each attack is made for real against the server and must fail, minting nothing.
 * MOCK_BANK=faucet runs on the local chain here, as an operator would rehearse it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { expect } from "chai";
import { Wallet, ZeroAddress } from "ethers";
import { eq } from "drizzle-orm";
import { USDX__factory } from "../../typechain-types";
import { MAINNET_CHAINS } from "../../common/networks";
import { readManifest } from "../../common/manifestFile";
import { loadConfig } from "../src/config";
import { bankWalletChallenges, bankWallets, deposits } from "../src/db/schema";
import { startServer, type RunningServer } from "../src/index";
import { createLogger } from "../src/logger";
import { MockBankService, chainRefusal } from "../src/services/bank";
import { call, emailUser, provider, revert, snapshot, stack, startTestServer, testConfig, until, walletUser } from "./helpers";
import { freePort, rpc } from "./stack";

type User = { idToken: string; uid?: string };

// The per-minute limits have a test of their own; the other tests make more requests than people would.
const FAUCET = { MOCK_BANK: "faucet", BANK_VERIFY_MS: "0", BANK_PROCESSING_MS: "100", BANK_COMPLETE_MS: "300", MOCK_BANK_WRITES_PER_MINUTE: "1000" };
const TOMORROW = "Try again tomorrow (the day turns at 00:00 UTC).";
const NOT_VERIFIED = (name: string, address: string) =>
  `Invalid Deposit: the wallet '${name}' (${address}) is not verified. The test faucet mints only to wallets you have proved you control: verify it under My Wallets by signing a message with it, or deposit to your sign-in wallet.`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const newWallet = () => Wallet.createRandom() as unknown as Wallet;
const usdx = () => USDX__factory.connect(readManifest("localhost", { DEPLOYMENTS_DIR: stack().deploymentsDir }).proxy, provider());

async function mintsTo(to: string): Promise<bigint[]> {
  const token = usdx();
  return (await token.queryFilter(token.filters.Transfer(ZeroAddress, to))).map((l) => l.args.value);
}

/** Calls /api/bank on `server` as `user`. */
function bankOf(server: RunningServer) {
  return (user: User) => ({
    get: (p: string) => call(server, "GET", `/api/bank${p}`, { token: user.idToken }),
    post: (p: string, body: unknown = {}) => call(server, "POST", `/api/bank${p}`, { token: user.idToken, body }),
  });
}

/** A verified bank account (BANK_VERIFY_MS=0: verified when next read). */
async function verifiedAccount(server: RunningServer, user: User): Promise<number> {
  const as = bankOf(server)(user);
  const answer = await as.post("/accounts", { name: "Checking", type: "checking", accountNumber: "000123456789", routingNumber: "021000021" });
  expect(answer.status, JSON.stringify(answer.body)).to.equal(201);
  const listed = await as.get("/accounts");
  expect(listed.body.accounts.find((a: any) => a.id === answer.body.account.id).status).to.equal("verified");
  return answer.body.account.id;
}

/** A challenge for `wallet` signed by `signer` (the wallet itself unless a test forges it). */
async function signedChallenge(server: RunningServer, user: User, wallet: Wallet, signer: Wallet = wallet) {
  const issued = await bankOf(server)(user).post("/wallets/challenge", { address: wallet.address });
  expect(issued.status, JSON.stringify(issued.body)).to.equal(201);
  return { challenge: issued.body.challenge as string, message: issued.body.message as string, signature: await signer.signMessage(issued.body.message) };
}

/** Adds `wallet` to `user`'s wallets with a signed challenge. */
async function provedWallet(server: RunningServer, user: User, wallet: Wallet, name = "Proved"): Promise<any> {
  const { challenge, signature } = await signedChallenge(server, user, wallet);
  const added = await bankOf(server)(user).post("/wallets", { name, address: wallet.address, challenge, signature });
  expect(added.status, JSON.stringify(added.body)).to.equal(201);
  return added.body.wallet;
}

describe("Mock bank as a test faucet (MOCK_BANK=faucet)", function () {
  this.timeout(60_000);
  let chainSnapshot: string;
  before(async () => {
    chainSnapshot = await snapshot();
  });
  after(async () => {
    await revert(chainSnapshot);
  });

  describe("configuration", () => {
    const base = { FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099" };
    // A real Firebase project's settings, as a public deployment has them (loadConfig does not read the file).
    const sepolia = { NETWORK: "sepolia", RPC_URL: "https://rpc.example", GOOGLE_APPLICATION_CREDENTIALS: "service-account.json", FIREBASE_WEB_API_KEY: "web-key" };
    const shown = (env: Record<string, string>) => Object.fromEntries(Object.entries(env).filter(([k]) => /BANK|MINTER|NETWORK/.test(k)));
    const ownKey = Wallet.createRandom().privateKey;

    it("is 'local' on the local chain by default, with the seeded minter's key and generous per-user limits", () => {
      const { bank } = loadConfig(base);
      expect(bank).to.deep.include({ mode: "local", offReason: null, maxAccounts: 10, maxWallets: 10, writesPerMinute: 30 });
      expect(bank).to.deep.include({ userDailyUsd: 1000, totalDailyUsd: 100_000, userDailyDeposits: 10, totalDailyDeposits: 1000 });
      expect(bank.minterKey).to.match(/^0x[0-9a-f]{64}$/);
    });

    it("is off off the local chain by default, and MINTER_PRIVATE_KEY alone does not switch it on", () => {
      for (const env of [sepolia, { ...sepolia, MINTER_PRIVATE_KEY: ownKey }]) {
        const { bank } = loadConfig(env);
        expect(bank.mode).to.equal("off");
        expect(bank.offReason).to.equal(
          "The mock bank is off on chain 11155111 (Sepolia): it runs on the local chain by default, and elsewhere only as a capped test faucet that the operator turns on with MOCK_BANK=faucet.",
        );
      }
    });

    it("runs off the local chain only as MOCK_BANK=faucet, with a key of the operator's own", () => {
      const { bank } = loadConfig({ ...sepolia, MOCK_BANK: "faucet", MINTER_PRIVATE_KEY: ownKey, MOCK_BANK_USER_DAILY_USD: "50", MOCK_BANK_TOTAL_DAILY_USD: "5000" });
      expect(bank).to.deep.include({ mode: "faucet", minterKey: ownKey, userDailyUsd: 50, totalDailyUsd: 5000 });
      expect(loadConfig({ ...base, MOCK_BANK: "faucet" }).bank.mode, "rehearsed on the local chain").to.equal("faucet");
      expect(loadConfig({ ...base, MOCK_BANK: "off" }).bank).to.deep.include({ mode: "off", minterKey: null, offReason: "The mock bank is off on this server (MOCK_BANK=off)." });
    });

    for (const [env, message] of [
      [{ ...sepolia, MOCK_BANK: "faucet" }, "MOCK_BANK=faucet off the local chain needs MINTER_PRIVATE_KEY: the key of a MINTER_ROLE holder that mints the faucet's deposits."],
      [
        { ...sepolia, MOCK_BANK: "local", MINTER_PRIVATE_KEY: ownKey },
        "MOCK_BANK=local is for the local chain only (any wallet, no daily caps); on chain 11155111 (Sepolia) use MOCK_BANK=faucet (a capped test faucet) or MOCK_BANK=off.",
      ],
      [{ ...base, MOCK_BANK: "on" }, "MOCK_BANK must be 'off', 'local' (the local chain only) or 'faucet' (a capped test faucet), not 'on'."],
      [{ ...base, MINTER_PRIVATE_KEY: "off" }, "MINTER_PRIVATE_KEY=off no longer switches the mock bank off: set MOCK_BANK=off instead."],
      [{ ...base, MOCK_BANK_USER_DAILY_USD: "0" }, "MOCK_BANK_USER_DAILY_USD must be a whole number from 1 to 1000000000, not '0'."],
      [{ ...base, MOCK_BANK_WRITES_PER_MINUTE: "lots" }, "MOCK_BANK_WRITES_PER_MINUTE must be a whole number from 1 to 100000, not 'lots'."],
    ] as const) {
      it(`stops at start for ${JSON.stringify(shown(env))}`, () => {
        expect(() => loadConfig(env)).to.throw(message);
      });
    }
  });

  describe("never on a mainnet chain id", () => {
    it("lists Ethereum and the common L2 and L1 mainnets, and refuses each as the configured chain or the node's", () => {
      for (const id of [1, 10, 56, 137, 8453, 42161, 43114, 59144, 534352]) expect(MAINNET_CHAINS.has(id), String(id)).to.equal(true);
      for (const id of [31337, 11155111, 84532, 421614]) expect(MAINNET_CHAINS.has(id), `${id} is a test network`).to.equal(false);
      for (const [id, name] of MAINNET_CHAINS) {
        for (const mode of ["local", "faucet"] as const) {
          expect(chainRefusal(mode, id, null)).to.equal(
            `The mock bank refuses to start: this server is configured for chain ${id} (${name}), a mainnet, and the mock bank never mints on a mainnet.`,
          );
          expect(chainRefusal(mode, 11155111, id)).to.equal(
            `The mock bank refuses to start: the node at RPC_URL reports chain ${id} (${name}), a mainnet, and the mock bank never mints on a mainnet.`,
          );
        }
      }
      expect(chainRefusal("faucet", 11155111, 11155111)).to.equal(null);
      expect(chainRefusal("faucet", 31337, 31337)).to.equal(null);
      expect(chainRefusal("local", 31337, 11155111)).to.equal(
        "The mock bank refuses to start: MOCK_BANK=local runs on the local chain (31337) only, and the node at RPC_URL reports chain 11155111 (Sepolia).",
      );
      expect(chainRefusal("faucet", 31337, 11155111)).to.equal(
        "The mock bank refuses to start: it is configured for chain 31337 (Hardhat Local), and the node at RPC_URL reports chain 11155111 (Sepolia).",
      );
    });

    it("a bank whose chain is configured as a mainnet never starts: it is off with that sentence", async () => {
      const server = await startTestServer({ MOCK_BANK: "faucet" });
      try {
        const { chain, db, config } = server.services;
        const onMainnet = { ...chain, manifest: { ...chain.manifest, chainId: 1 } };
        const bank = new MockBankService(db.db, onMainnet, config.bank, createLogger("silent"));
        bank.start();
        expect(bank.enabled).to.equal(false);
        expect(bank.offReason).to.equal(
          "The mock bank refuses to start: this server is configured for chain 1 (Ethereum mainnet), a mainnet, and the mock bank never mints on a mainnet.",
        );
        expect(bank.status().running).to.equal(false);
        await bank.stop();
      } finally {
        await server.close();
      }
    });

    describe("against a node that reports chain id 1", () => {
      let node: ChildProcess;
      let url: string;
      before(async function () {
        this.timeout(90_000);
        const port = await freePort();
        url = `http://127.0.0.1:${port}`;
        const root = path.resolve(__dirname, "..", "..");
        node = spawn(
          path.join(root, "node_modules", ".bin", "hardhat"),
          ["--config", path.join(__dirname, "fixtures", "mainnet-chain-id.hardhat.config.js"), "node", "--hostname", "127.0.0.1", "--port", String(port)],
          { cwd: root, env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: "true", CI: "true" }, detached: true, stdio: "ignore" },
        );
        await until("the chain-1 node", () => rpc<string>(url, "eth_chainId").catch(() => null), (id) => id === "0x1", 80_000);
      });
      after(() => {
        if (node.pid !== undefined && node.exitCode === null) process.kill(-node.pid, "SIGTERM");
      });

      for (const mode of ["faucet", "local"] as const) {
        it(`MOCK_BANK=${mode}: the bank refuses to start, every bank route answers 503 with the sentence, and nothing is minted`, async () => {
          // startServer, not startTestServer: the indexer cannot sync against this node (another chain), which is not the point here.
          const config = testConfig({ MOCK_BANK: mode, RPC_URL: url });
          const server = await startServer(config, createLogger("silent"));
          try {
            const sentence = "The mock bank refuses to start: the node at RPC_URL reports chain 1 (Ethereum mainnet), a mainnet, and the mock bank never mints on a mainnet.";
            await until("refused", async () => server.services.bank.enabled, (enabled) => !enabled);
            const user = await emailUser();
            for (const [method, p] of [
              ["GET", "/terms"],
              ["POST", "/accounts"],
              ["POST", "/wallets/challenge"],
              ["POST", "/deposits"],
            ] as const) {
              const answer = await call(server, method, `/api/bank${p}`, { token: user.idToken, body: method === "POST" ? {} : undefined });
              expect(answer.status, p).to.equal(503);
              expect(answer.body).to.deep.equal({ success: false, error: sentence });
            }
            expect((await call(server, "GET", "/api/config")).body.mockBank).to.equal(false);
            expect(server.services.bank.status()).to.deep.equal({ running: false, lastError: sentence });
            expect(await rpc<string>(url, "eth_getTransactionCount", [new Wallet(config.bank.minterKey!).address, "latest"])).to.equal("0x0");
          } finally {
            await server.close();
          }
        });
      }
    });
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
      expect(terms.body).to.deep.include({ mode: "faucet", walletProofRequired: true, maxDeposit: "1000.00", maxAccounts: 10, maxWallets: 10 });
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
      const refused = await bankOf(server)(alice).post("/deposits", { bankAccountId: aliceAccount, amount: "10", walletId: added.body.wallet.id });
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
      expect(message).to.include("USDX Dashboard").and.include(`Wallet: ${target.address}`).and.include(`Dashboard account: `).and.include(alice.uid!);
      expect(message).to.include("Chain ID: 31337").and.include(`Nonce: ${challenge}`).and.include("Expiration Time: ");
      const added = await bankOf(server)(alice).post("/wallets", { name: "Mine", address: target.address, challenge, signature });
      expect(added.status, JSON.stringify(added.body)).to.equal(201);
      expect(added.body.wallet).to.include({ verified: true, verifiedBy: "signature" });
      const deposit = await bankOf(server)(alice).post("/deposits", { bankAccountId: aliceAccount, amount: "12.50", walletId: added.body.wallet.id });
      expect(deposit.status, JSON.stringify(deposit.body)).to.equal(201);
      const done = await until("minted", async () => (await bankOf(server)(alice).get(`/deposits/${deposit.body.deposit.id}`)).body.deposit, (d) => d.status !== "pending" && d.status !== "processing");
      expect(done.status).to.equal("completed");
      expect(await mintsTo(target.address)).to.deep.equal([12_500_000_000_000_000_000n]);
    });

    it("verifies a wallet added without proof once its owner signs (POST /wallets/:id/verify)", async () => {
      const target = newWallet();
      const added = (await bankOf(server)(alice).post("/wallets", { name: "Later", address: target.address })).body.wallet;
      const proof = await signedChallenge(server, alice, target);
      const verified = await bankOf(server)(alice).post(`/wallets/${added.id}/verify`, { challenge: proof.challenge, signature: proof.signature });
      expect(verified.status, JSON.stringify(verified.body)).to.equal(200);
      expect(verified.body.wallet).to.include({ id: added.id, verified: true, verifiedBy: "signature" });
      const listed = (await bankOf(server)(alice).get("/wallets")).body.wallets.find((w: any) => w.id === added.id);
      expect(listed.verified).to.equal(true);
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
        await refusedAdd(alice, { address: target.address, challenge: forged.challenge, signature: forged.signature }, `Wallet Not Verified: the signing request was not signed by ${target.address}.`);
        const [row] = await db().select().from(bankWalletChallenges).where(eq(bankWalletChallenges.nonce, forged.challenge));
        expect(row.usedAt).to.equal(null);
        const real = await target.signMessage(forged.message);
        expect((await bankOf(server)(alice).post("/wallets", { name: "Real", address: target.address, challenge: forged.challenge, signature: real })).status).to.equal(201);
      });

      it("not a signature at all", async () => {
        const target = newWallet();
        const { challenge } = await signedChallenge(server, alice, target);
        await refusedAdd(alice, { address: target.address, challenge, signature: `0x${"00".repeat(65)}` }, "Wallet Not Verified: the signature is not a valid Ethereum signature of the signing request.");
      });

      it("replayed: a challenge already spent proves nothing again, for the same address or after the wallet is removed", async () => {
        const target = newWallet();
        const proof = await signedChallenge(server, alice, target);
        const first = await bankOf(server)(alice).post("/wallets", { name: "Once", address: target.address, challenge: proof.challenge, signature: proof.signature });
        expect(first.status).to.equal(201);
        expect((await call(server, "DELETE", `/api/bank/wallets/${first.body.wallet.id}`, { token: alice.idToken })).status).to.equal(200);
        await refusedAdd(alice, { address: target.address, challenge: proof.challenge, signature: proof.signature }, "Wallet Not Verified: this signing request was already used. Ask for a new one and sign it again.");
      });

      it("expired: older than five minutes", async () => {
        const target = newWallet();
        const proof = await signedChallenge(server, alice, target);
        await db().update(bankWalletChallenges).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(bankWalletChallenges.nonce, proof.challenge));
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
      await until("minted", () => mintsTo(a.target.address), (m) => m.length === 2);
      expect(await mintsTo(a.target.address)).to.deep.equal([60n * 10n ** 18n, 40n * 10n ** 18n]);
    });

    it("a failed deposit gives its room back; yesterday's deposits do not count", async () => {
      const a = await depositor();
      const first = (await a.deposit("100")).body.deposit;
      expect((await a.deposit("1")).status).to.equal(429);
      const db = server.services.db.db;
      await until("settled", async () => (await db.select().from(deposits).where(eq(deposits.id, first.id)))[0].status, (s) => s === "completed");
      // As if it had been made yesterday (UTC).
      await db.update(deposits).set({ createdAt: new Date(Date.now() - 86_400_000) }).where(eq(deposits.id, first.id));
      const second = (await a.deposit("100")).body.deposit;
      expect(second.status).to.equal("pending");
      await until("settled", async () => (await db.select().from(deposits).where(eq(deposits.id, second.id)))[0].status, (s) => s === "completed");
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
      expect(none.body.error).to.equal(`The mock bank's daily limit for all users is reached: 250.00 USDX a day in all (UTC day). ${TOMORROW}`);
      await sleep(500);
      expect(await mintsTo(c.target.address)).to.deep.equal([]);
    });
  });

  describe("two deposits at once at the cap's edge", () => {
    let server: RunningServer;
    before(async () => {
      server = await startTestServer({ ...FAUCET, MOCK_BANK_USER_DAILY_USD: "100", MOCK_BANK_TOTAL_DAILY_USD: "150", BANK_COMPLETE_MS: "3600000" });
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
      expect(answers.find((a) => a.status === 429)!.body.error).to.match(/^The mock bank's daily limit for all users: 150\.00 USDX a day in all/);
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
      expect(third.body.error).to.equal("Bank Account Limit Reached: you have 2 mock bank accounts, the most one user may keep (2); remove one to add another.");
      expect((await as.post("/wallets", { name: "One", address: newWallet().address })).status).to.equal(201);
      expect((await as.post("/wallets", { name: "Two", address: newWallet().address })).status).to.equal(201);
      const wallet = await as.post("/wallets", { name: "Three", address: newWallet().address });
      expect(wallet.status).to.equal(409);
      expect(wallet.body.error).to.equal("Wallet Limit Reached: you have 2 wallets, the most one user may keep (2); remove one to add another.");
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
      for (let i = 0; i < 6; i++) ids.push((await bankOf(server)(a).post("/deposits", { bankAccountId: aAccount, amount: `${i + 1}` })).body.deposit.id);
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
