import { expect } from "chai";
import { loadConfig } from "../src/config";

const base = { FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099" };

describe("Server config", () => {
  it("defaults to the local chain, PGlite, the emulator's demo project and the dashboard on 5173", () => {
    const config = loadConfig(base);
    expect(config).to.deep.include({ network: "localhost", chainId: 31337, rpcUrl: "http://127.0.0.1:8545", port: 3001 });
    expect(config.database.kind).to.equal("pglite");
    expect(config.firebase).to.deep.include({ projectId: "demo-usdx", emulatorHost: "127.0.0.1:9099" });
    expect(config.publicRpcUrl).to.equal("http://127.0.0.1:8545");
    expect(config.bank.minterKey, "the seeded minter's public test key").to.equal(
      "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
    );
    expect(config.batch).to.deep.include({ maxRows: 10_000, chunkSize: 564 });
    expect(config.siweDomains).to.deep.equal(["127.0.0.1:5173", "localhost:5173"]);
    expect(config.indexer.confirmations).to.equal(0);
  });

  it("uses node-postgres when DATABASE_URL is set, and Sepolia's settings for NETWORK=sepolia", () => {
    const config = loadConfig({
      DATABASE_URL: "postgres://u:p@db:5432/usdx",
      NETWORK: "sepolia",
      RPC_URL: "https://rpc.example",
      GOOGLE_APPLICATION_CREDENTIALS: "key.json",
      FIREBASE_WEB_API_KEY: "web-key",
    });
    expect(config.database).to.deep.equal({ kind: "postgres", url: "postgres://u:p@db:5432/usdx" });
    expect(config.chainId).to.equal(11155111);
    expect(config.indexer.confirmations).to.equal(5);
    expect(config.publicRpcUrl, "the server's RPC URL may hold a key: never handed to browsers").to.equal(null);
    expect(config.bank.minterKey, "no mock bank off the local chain without a key").to.equal(null);
  });

  it("reads METRICS_TOKEN (none by default: only this machine may read /api/metrics), and never echoes a refused one", () => {
    expect(loadConfig(base).metricsToken).to.equal(null);
    expect(loadConfig({ ...base, METRICS_TOKEN: "" }).metricsToken).to.equal(null);
    const token = "0123456789abcdef".repeat(4);
    expect(loadConfig({ ...base, METRICS_TOKEN: token }).metricsToken).to.equal(token);
    const refused = "s3cr3t-but-too-short";
    expect(() => loadConfig({ ...base, METRICS_TOKEN: refused }))
      .to.throw(/^METRICS_TOKEN must be/)
      .with.property("message")
      .that.does.not.include(refused);
  });

  it("reads MULTIPLIER_MAX_STEP_PERCENT in hundredths of a percent (1% by default)", () => {
    expect(loadConfig(base).multiplierMaxStep).to.equal(100);
    expect(loadConfig({ ...base, MULTIPLIER_MAX_STEP_PERCENT: "0.25" }).multiplierMaxStep).to.equal(25);
    expect(loadConfig({ ...base, MULTIPLIER_MAX_STEP_PERCENT: "0" }).multiplierMaxStep).to.equal(0);
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
    [{ MINTER_PRIVATE_KEY: "0x1234" }, /MINTER_PRIVATE_KEY must be 0x followed by 64 hex characters/],
    [{ BATCH_CHUNK_SIZE: "600" }, "BATCH_CHUNK_SIZE must be a whole number from 1 to 564, not '600'."],
    [{ PUBLIC_RPC_URL: "ws://x" }, /PUBLIC_RPC_URL must be an http\(s\) URL/],
    [{ FIREBASE_AUTH_EMULATOR_HOST: "", GOOGLE_APPLICATION_CREDENTIALS: "key.json" }, /needs FIREBASE_WEB_API_KEY/],
    [
      { MULTIPLIER_MAX_STEP_PERCENT: "1%" },
      "MULTIPLIER_MAX_STEP_PERCENT must be a percentage from 0 to 1000 with at most two decimals, such as 1 or 0.5, not '1%'.",
    ],
    [{ METRICS_TOKEN: "x".repeat(31) }, /METRICS_TOKEN must be at least 32 characters with no spaces/],
    [{ METRICS_TOKEN: `${"x".repeat(20)} ${"y".repeat(20)}` }, /METRICS_TOKEN must be at least 32 characters with no spaces/],
  ] as const) {
    it(`stops with a readable message for ${JSON.stringify(env)}`, () => {
      expect(() => loadConfig({ ...base, ...env })).to.throw(message as string | RegExp);
    });
  }
});

describe("Server config: settings that would be unsafe in production are refused", () => {
  const sepolia = { ...base, NETWORK: "sepolia", RPC_URL: "https://sepolia.provider.example/v3/KEY" };
  // Hardhat's account #1 (the seeded minter) and #0 (the seeded admin): public test keys.
  const PUBLIC_MINTER_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
  const PUBLIC_ADMIN = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
  const OWN_KEY = "0x" + "11".repeat(32);

  it("refuses the Auth emulator off the local chain even on loopback: a TLS proxy in front would reach it (issue 29, item 6)", () => {
    for (const host of ["127.0.0.1", "localhost", "::1"]) {
      expect(() => loadConfig({ ...sepolia, SERVER_HOST: host, MINTER_PRIVATE_KEY: OWN_KEY }), host).to.throw(
        "FIREBASE_AUTH_EMULATOR_HOST is set on a public network (NETWORK=sepolia): the Auth emulator accepts unsigned tokens, so anyone who reaches the server, directly or through a proxy in front of it, could sign in as anyone.",
      );
    }
  });

  it("accepts the emulator off the local chain only when code says the chain is its own stand-in (the rehearsal), never from a variable", () => {
    const config = loadConfig(
      { ...sepolia, MINTER_PRIVATE_KEY: OWN_KEY, PUBLIC_RPC_URL: "https://rpc.sepolia.org" },
      { standInChain: true },
    );
    expect(config.network).to.equal("sepolia");
    expect(() => loadConfig({ ...sepolia, STAND_IN_CHAIN: "true", standInChain: "true" })).to.throw(
      /FIREBASE_AUTH_EMULATOR_HOST is set on a public network/,
    );
  });

  it("accepts a real project's credentials without the emulator on a public host", () => {
    const config = loadConfig({
      ...sepolia,
      FIREBASE_AUTH_EMULATOR_HOST: "",
      GOOGLE_APPLICATION_CREDENTIALS: "key.json",
      FIREBASE_WEB_API_KEY: "web-key",
      SERVER_HOST: "0.0.0.0",
      DASHBOARD_ORIGIN: "https://usdx.example",
    });
    expect(config.firebase.emulatorHost).to.equal(undefined);
  });

  for (const [what, env, message] of [
    [
      "the Auth emulator beside a real project's service account",
      { GOOGLE_APPLICATION_CREDENTIALS: "key.json" },
      "FIREBASE_AUTH_EMULATOR_HOST and GOOGLE_APPLICATION_CREDENTIALS are both set: the Auth emulator accepts unsigned tokens",
    ],
    [
      "the Auth emulator beside a real project's web API key",
      { FIREBASE_WEB_API_KEY: "web-key" },
      "FIREBASE_AUTH_EMULATOR_HOST and FIREBASE_WEB_API_KEY are both set",
    ],
    [
      "the Auth emulator on a public network with the server listening beyond loopback",
      { ...sepolia, SERVER_HOST: "0.0.0.0" },
      "FIREBASE_AUTH_EMULATOR_HOST is set on a public network (NETWORK=sepolia)",
    ],
    ["the Auth emulator on a public network on a LAN address", { ...sepolia, SERVER_HOST: "192.168.1.20" }, "could sign in as anyone"],
    [
      "a public test key as the minting key off the local chain",
      { ...sepolia, MINTER_PRIVATE_KEY: PUBLIC_MINTER_KEY },
      "MINTER_PRIVATE_KEY is one of the local chain's public test keys",
    ],
    [
      "a public test account as an admin wallet off the local chain",
      { ...sepolia, ADMIN_WALLETS: PUBLIC_ADMIN.toLowerCase() },
      `ADMIN_WALLETS lists ${PUBLIC_ADMIN}, an account of the local chain's public test keys`,
    ],
    [
      "the server's keyed RPC URL handed to browsers",
      { ...sepolia, PUBLIC_RPC_URL: sepolia.RPC_URL },
      "PUBLIC_RPC_URL is the server's own RPC_URL",
    ],
    [
      "a plain-http RPC URL on another machine",
      { ...sepolia, RPC_URL: "http://10.0.0.5:8545/KEY" },
      "RPC_URL 'http://10.0.0.5:8545' is plain http on another machine",
    ],
    [
      "a plain-ws heads endpoint on another machine",
      { ...sepolia, RPC_WS_URL: "ws://10.0.0.5:8545/KEY" },
      "RPC_WS_URL is plain ws to another machine (10.0.0.5)",
    ],
    [
      "a plain-http dashboard origin on a public network",
      { ...sepolia, DASHBOARD_ORIGIN: "http://usdx.example" },
      "DASHBOARD_ORIGIN 'http://usdx.example' is plain http on a public network",
    ],
  ] as const) {
    it(`refuses ${what}, saying which setting and why`, () => {
      expect(() => loadConfig({ ...base, ...env })).to.throw(message);
    });
  }

  it("never echoes a refused RPC URL, which may carry a provider's key, and says how it starts", () => {
    for (const name of ["RPC_URL", "SEPOLIA_RPC_URL"]) {
      expect(() => loadConfig({ ...sepolia, [name]: "wss://eth-sepolia.example/v2/SECRET-KEY" }))
        .to.throw(`${name} must be an http(s) URL; the value given starts 'wss'`)
        .with.property("message")
        .that.does.not.include("SECRET-KEY");
    }
    expect(() => loadConfig({ ...sepolia, RPC_WS_URL: "https://eth-sepolia.example/v2/SECRET-KEY" }))
      .to.throw("RPC_WS_URL must be a ws:// or wss:// URL; the value given starts 'https'")
      .with.property("message")
      .that.does.not.include("SECRET-KEY");
    // PUBLIC_RPC_URL is handed to every browser: no secret, so its refusal shows it whole.
    expect(() => loadConfig({ ...sepolia, PUBLIC_RPC_URL: "ftp://rpc.example" })).to.throw(
      "PUBLIC_RPC_URL must be an http(s) URL, not 'ftp://rpc.example'.",
    );
  });

  it("never echoes the RPC URL's path, where providers put the key", () => {
    expect(() => loadConfig({ ...sepolia, RPC_URL: "http://10.0.0.5:8545/SECRET-KEY" })).to.throw(/^(?![\s\S]*SECRET-KEY)/);
  });

  it("names every unsafe setting at once", () => {
    expect(() => loadConfig({ ...sepolia, SERVER_HOST: "0.0.0.0", MINTER_PRIVATE_KEY: PUBLIC_MINTER_KEY })).to.throw(
      /FIREBASE_AUTH_EMULATOR_HOST is set on a public network[\s\S]*MINTER_PRIVATE_KEY is one of/,
    );
  });

  it("lets the local chain use its public test keys and the emulator (nothing there has value)", () => {
    const config = loadConfig({ ...base, MINTER_PRIVATE_KEY: PUBLIC_MINTER_KEY, ADMIN_WALLETS: PUBLIC_ADMIN, SERVER_HOST: "0.0.0.0" });
    expect(config.bank.minterKey).to.equal(PUBLIC_MINTER_KEY);
  });
});
