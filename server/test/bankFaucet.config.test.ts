/**
 * The mock bank as a capped test faucet (issue 13, part 1), its configuration: MOCK_BANK's modes,
 * and no mock bank on a mainnet chain id, configured or reported by the node. The rest of the
 * faucet (proofs, caps, limits, the queue) is in bankFaucet.test.ts.
 */
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { expect } from "chai";
import { Wallet } from "ethers";
import { MAINNET_CHAINS } from "@common/networks";
import { HeadCache } from "../src/chain/headCache";
import { loadConfig } from "../src/config";
import { startServer } from "../src/index";
import { createLogger } from "../src/lib/logger";
import { MockBankService, chainRefusal } from "../src/services/bank";
import { startHardhatNode } from "../../scripts/lib/stack/parts";
import { QUIET_ENV } from "../../scripts/lib/stack/processes";
import { call, emailUser, revert, snapshot, startTestServer, testConfig, until } from "./helpers";
import { freePort, kill, rpc } from "./stack";

describe("Mock bank as a test faucet (MOCK_BANK=faucet): configuration and mainnets", function () {
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
    const sepolia = {
      NETWORK: "sepolia",
      RPC_URL: "https://rpc.example",
      GOOGLE_APPLICATION_CREDENTIALS: "service-account.json",
      FIREBASE_WEB_API_KEY: "web-key",
    };
    const shown = (env: Record<string, string>) => Object.fromEntries(Object.entries(env).filter(([k]) => /BANK|MINTER|NETWORK/.test(k)));
    const ownKey = Wallet.createRandom().privateKey;

    it("is 'local' on the local chain by default, with the seeded minter's key and generous per-user limits", () => {
      const { bank } = loadConfig(base);
      expect(bank).to.deep.include({ mode: "local", offReason: null, maxAccounts: 10, maxWallets: 10, writesPerMinute: 30 });
      expect(bank).to.deep.include({
        userDailyUsd: 1000,
        totalDailyUsd: 100_000,
        userDailyDeposits: 10,
        totalDailyDeposits: 1000,
        ipDailyUsd: 5000,
      });
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
      const { bank } = loadConfig({
        ...sepolia,
        MOCK_BANK: "faucet",
        MINTER_PRIVATE_KEY: ownKey,
        MOCK_BANK_USER_DAILY_USD: "50",
        MOCK_BANK_TOTAL_DAILY_USD: "5000",
      });
      expect(bank).to.deep.include({ mode: "faucet", minterKey: ownKey, userDailyUsd: 50, totalDailyUsd: 5000 });
      expect(loadConfig({ ...base, MOCK_BANK: "faucet" }).bank.mode, "rehearsed on the local chain").to.equal("faucet");
      expect(loadConfig({ ...base, MOCK_BANK: "off" }).bank).to.deep.include({
        mode: "off",
        minterKey: null,
        offReason: "The mock bank is off on this server (MOCK_BANK=off).",
      });
    });

    for (const [env, message] of [
      [
        { ...sepolia, MOCK_BANK: "faucet" },
        "MOCK_BANK=faucet off the local chain needs MINTER_PRIVATE_KEY: the key of a MINTER_ROLE holder that mints the faucet's deposits.",
      ],
      [
        { ...sepolia, MOCK_BANK: "local", MINTER_PRIVATE_KEY: ownKey },
        "MOCK_BANK=local is for the local chain only (any wallet, no daily caps); on chain 11155111 (Sepolia) use MOCK_BANK=faucet (a capped test faucet) or MOCK_BANK=off.",
      ],
      [
        { ...base, MOCK_BANK: "on" },
        "MOCK_BANK must be 'off', 'local' (the local chain only) or 'faucet' (a capped test faucet), not 'on'.",
      ],
      [{ ...base, MINTER_PRIVATE_KEY: "off" }, "MINTER_PRIVATE_KEY=off no longer switches the mock bank off: set MOCK_BANK=off instead."],
      [{ ...base, MOCK_BANK_USER_DAILY_USD: "0" }, "MOCK_BANK_USER_DAILY_USD must be a whole number from 1 to 1000000000, not '0'."],
      [
        { ...base, MOCK_BANK_WRITES_PER_MINUTE: "lots" },
        "MOCK_BANK_WRITES_PER_MINUTE must be a whole number from 1 to 100000, not 'lots'.",
      ],
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
        const bank = new MockBankService(db.db, onMainnet, config.bank, createLogger("silent"), new HeadCache(() => null));
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
        const config = ["--config", path.join(__dirname, "fixtures", "mainnet-chain-id.hardhat.config.js")];
        node = startHardhatNode({ host: "127.0.0.1", port, config, env: { ...process.env, ...QUIET_ENV }, output: "ignore" }).child;
        await until(
          "the chain-1 node",
          () => rpc<string>(url, "eth_chainId").catch(() => null),
          (id) => id === "0x1",
          80_000,
        );
      });
      after(() => kill(node));

      for (const mode of ["faucet", "local"] as const) {
        it(`MOCK_BANK=${mode}: the bank refuses to start, every bank route answers 503 with the sentence, and nothing is minted`, async () => {
          // startServer, not startTestServer: the indexer cannot sync against this node (another chain), which is not the point here.
          const config = testConfig({ MOCK_BANK: mode, RPC_URL: url });
          const server = await startServer(config, createLogger("silent"));
          try {
            const sentence =
              "The mock bank refuses to start: the node at RPC_URL reports chain 1 (Ethereum mainnet), a mainnet, and the mock bank never mints on a mainnet.";
            await until(
              "refused",
              async () => server.services.bank.enabled,
              (enabled) => !enabled,
            );
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
            expect(await rpc<string>(url, "eth_getTransactionCount", [new Wallet(config.bank.minterKey!).address, "latest"])).to.equal(
              "0x0",
            );
          } finally {
            await server.close();
          }
        });
      }
    });
  });
});
