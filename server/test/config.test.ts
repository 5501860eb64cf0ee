import { expect } from "chai";
import { loadConfig } from "../src/config";

const base = { FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099" };

describe("Server config", () => {
  it("defaults to the local chain, PGlite, the emulator's demo project and the dashboard on 5173", () => {
    const config = loadConfig(base);
    expect(config).to.deep.include({ network: "localhost", chainId: 31337, rpcUrl: "http://127.0.0.1:8545", port: 3001 });
    expect(config.database.kind).to.equal("pglite");
    expect(config.firebase).to.deep.equal({ projectId: "demo-usdx", emulatorHost: "127.0.0.1:9099" });
    expect(config.siweDomains).to.deep.equal(["127.0.0.1:5173", "localhost:5173"]);
    expect(config.indexer.confirmations).to.equal(0);
  });

  it("uses node-postgres when DATABASE_URL is set, and Sepolia's settings for NETWORK=sepolia", () => {
    const config = loadConfig({ ...base, DATABASE_URL: "postgres://u:p@db:5432/usdx", NETWORK: "sepolia", RPC_URL: "https://rpc.example" });
    expect(config.database).to.deep.equal({ kind: "postgres", url: "postgres://u:p@db:5432/usdx" });
    expect(config.chainId).to.equal(11155111);
    expect(config.indexer.confirmations).to.equal(5);
  });

  it("checksums ADMIN_WALLETS", () => {
    expect(loadConfig({ ...base, ADMIN_WALLETS: "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266" }).adminWallets).to.deep.equal([
      "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
    ]);
  });

  for (const [env, message] of [
    [{ NETWORK: "mainnet" }, "NETWORK must be 'localhost' or 'sepolia', not 'mainnet'."],
    [{ NETWORK: "sepolia" }, /NETWORK=sepolia needs RPC_URL/],
    [{ RPC_URL: "localhost:8545" }, /RPC_URL must be an http\(s\) URL/],
    [{ DATABASE_URL: "mysql://x" }, /DATABASE_URL must be a postgres/],
    [{ FIREBASE_AUTH_EMULATOR_HOST: "" }, /Firebase Auth needs either FIREBASE_AUTH_EMULATOR_HOST .* or GOOGLE_APPLICATION_CREDENTIALS/],
    [{ FIREBASE_AUTH_EMULATOR_HOST: "http://127.0.0.1:9099" }, /must be host:port/],
    [{ SERVER_PORT: "http" }, "SERVER_PORT must be a whole number from 0 to 65535, not 'http'."],
    [{ DASHBOARD_ORIGIN: "not a url" }, /DASHBOARD_ORIGIN must list origins/],
    [{ ADMIN_WALLETS: "0x1234" }, "ADMIN_WALLETS: '0x1234' is not an address."],
    [{ INDEXER_CONFIRMATIONS: "-1" }, /INDEXER_CONFIRMATIONS must be a whole number/],
  ] as const) {
    it(`stops with a readable message for ${JSON.stringify(env)}`, () => {
      expect(() => loadConfig({ ...base, ...env })).to.throw(message as string | RegExp);
    });
  }
});
