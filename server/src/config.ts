import path from "node:path";
import { HDNodeWallet, getAddress, isAddress } from "ethers";
import { maxRecipientsPerChunk } from "@common/gasLimits";
import { LOCAL_CHAIN, SEPOLIA, describeChain, isMainnet, localRpcUrl } from "@common/networks";
import { LOCAL_DEV_MNEMONIC, localAccountPath, seededAccount } from "@common/seedAccounts";
import { isLoopbackHost, unsafeSettings } from "./configGuards";

/**
 * The server's whole configuration, read once from the environment. Anything missing or wrong
 * stops the server at start with a message that names the variable and says what it wants.
 */
export interface Config {
  network: "localhost" | "sepolia";
  chainId: number;
  rpcUrl: string;
  /** Where deployments/<network>.json is read from (common/manifestFile honours DEPLOYMENTS_DIR). */
  deploymentsDir: string | undefined;
  database: { kind: "pglite"; dataDir: string } | { kind: "postgres"; url: string };
  firebase: { projectId: string; emulatorHost: string | undefined; webApiKey: string; authDomain: string };
  /** The RPC URL the dashboard may read the chain through (never the server's own, which may hold a key); null: the wallet's. */
  publicRpcUrl: string | null;
  host: string;
  port: number;
  /** Origins allowed by CORS; the first is the dashboard's, whose host SIWE messages must name. */
  dashboardOrigins: string[];
  /** Domains a SIWE message may be for (host[:port] of each dashboard origin). */
  siweDomains: string[];
  adminWallets: string[];
  indexer: {
    confirmations: number;
    batchBlocks: number;
    pollMs: number;
    /** How often the indexer checks the manifest's deployment is still on the chain (0: every step). */
    deploymentCheckMs: number;
  };
  /** On PostgreSQL: how often a replica asks for the leader lock, and the leader checks the connection holding it (LEADER_CHECK_MS). */
  leaderCheckMs: number;
  rateLimits: { authPerMinute: number; csvPerMinute: number };
  /**
   * Express's 'trust proxy': whose X-Forwarded-For names the client (and so keys the rate limits).
   * 'loopback' by default: the dashboard's Vite server forwards /api from this machine; false: none.
   */
  trustProxy: "loopback" | false | number;
  /**
   * Per-user limits (keyed on the verified uid). Past one the API answers 429 with a sentence that
   * names the limit and when it resets.
   */
  limits: {
    /** Batch jobs one user may have in progress (status processing) at once: USER_MAX_OPEN_BATCHES. */
    openBatchJobs: number;
    /** Recipients in the batch jobs one user started in the last 24 hours: USER_MAX_BATCH_ROWS_PER_DAY. */
    batchRowsPerDay: number;
    /** Chunk transactions one user may report a minute: USER_BATCH_REPORTS_PER_MINUTE. */
    batchReportsPerMinute: number;
    /** Contacts one user may keep (adds and imports): USER_MAX_CONTACTS. */
    contacts: number;
  };
  batch: {
    /** Rows one CSV (or one job) may hold. */
    maxRows: number;
    /** Recipients per chunk: what fits under the per-transaction gas cap, or less. */
    chunkSize: number;
    /** A job whose chunks were not all sent this long after it was planned fails (the chain may still pay it later). */
    submitWindowMs: number;
    /** A reported transaction the node has never seen after this long fails its chunk. */
    txNotFoundMs: number;
  };
  bank: BankConfig;
  /** Operators' alerts (services/alerts/): when an event is matched, and how deliveries are sent. */
  alerts: {
    /** Blocks the index must hold above an event's block before it is matched (ALERT_CONFIRMATIONS), beyond INDEXER_CONFIRMATIONS. */
    confirmations: number;
    /** Whether a webhook may reach loopback, private and link-local addresses (ALERT_ALLOW_PRIVATE_URLS): the local chain's default only. */
    allowPrivateUrls: boolean;
    pollMs: number;
    /** One attempt's limit, connection to the answer's end. */
    timeoutMs: number;
    maxAttempts: number;
    /** Waits between attempts: retryBaseMs, doubling, at most retryMaxMs. */
    retryBaseMs: number;
    retryMaxMs: number;
    /** Rules the server keeps, all admins together. */
    maxRules: number;
    /** 'Send test' requests one admin may make a minute. */
    testsPerMinute: number;
  };
  /**
   * The bearer secret a scraper of GET /api/metrics must send (METRICS_TOKEN, at least
   * METRICS_TOKEN_MIN_LENGTH characters), or null: then only clients on this machine may read it.
   */
  metricsToken: string | null;
  /**
   * The built dashboard the server also serves (DASHBOARD_DIST; default frontend/dist), or null
   * (DASHBOARD_DIST=off). A folder without an index.html is not served: the API runs alone.
   */
  dashboardDist: string | null;
  logLevel: string;
}

export class ConfigError extends Error {}

/** A metrics token shorter than this could be guessed; `openssl rand -hex 32` gives 64 characters. */
export const METRICS_TOKEN_MIN_LENGTH = 32;

function metricsToken(env: NodeJS.ProcessEnv): string | null {
  const raw = env.METRICS_TOKEN;
  if (raw === undefined || raw === "") return null;
  // Printable ASCII without spaces: what an Authorization header carries unchanged.
  if (raw.length < METRICS_TOKEN_MIN_LENGTH || !/^[\x21-\x7e]+$/.test(raw)) {
    throw new ConfigError(
      `METRICS_TOKEN must be at least ${METRICS_TOKEN_MIN_LENGTH} characters with no spaces (openssl rand -hex 32 makes one), or empty to let only this machine read /api/metrics.`,
    );
  }
  return raw;
}

const REPO_ROOT = path.resolve(__dirname, "..", "..");
/** Where `npm run build` puts the dashboard (frontend/vite.config.mts: build.outDir). */
export const DEFAULT_DASHBOARD_DIST = path.join(REPO_ROOT, "frontend", "dist");

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, not '${raw}'.`);
  }
  return value;
}

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (raw === "true" || raw === "false") return raw === "true";
  throw new ConfigError(`${name} must be 'true' or 'false', not '${raw}'.`);
}

/** TRUST_PROXY: 'loopback' (default), 'off', or the number of proxies in front of the server. */
function trustProxy(env: NodeJS.ProcessEnv): Config["trustProxy"] {
  const raw = env.TRUST_PROXY;
  if (raw === undefined || raw === "" || raw === "loopback") return "loopback";
  if (raw === "off") return false;
  if (/^\d{1,2}$/.test(raw)) return Number(raw);
  throw new ConfigError(`TRUST_PROXY must be 'loopback', 'off' or the number of proxies in front of the server, not '${raw}'.`);
}

function origin(name: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must list origins like http://127.0.0.1:5173; '${raw}' is not a URL.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new ConfigError(`${name}: '${raw}' must be http or https.`);
  return url.origin;
}

/**
 * The mock bank (MOCK_BANK): 'off'; 'local', the spec's bank on the local chain (any wallet, no daily
 * caps); or 'faucet', a capped test faucet (mints only to wallets the user proved, within daily caps).
 * Default: 'local' on the local chain, 'off' anywhere else. MINTER_PRIVATE_KEY alone turns nothing on.
 */
export type BankMode = "off" | "local" | "faucet";

export interface BankConfig {
  mode: BankMode;
  /** Why the bank is off, as every bank route says it (null when on). */
  offReason: string | null;
  /** The key deposits are minted with (a MINTER_ROLE holder): MINTER_PRIVATE_KEY, or the seeded minter's on the local chain; unused when off. */
  minterKey: string | null;
  verifyMs: number;
  processingMs: number;
  completeMs: number;
  /** Per user, in every mode: bank accounts and wallets one may hold. */
  maxAccounts: number;
  maxWallets: number;
  /** Per user and minute, in every mode, for each of: adding bank accounts, adding wallets (and their challenges), requesting deposits. */
  writesPerMinute: number;
  /** Faucet mode: per UTC day, counting every deposit not failed. Amounts in whole USD (1 USD = 1 USDX). */
  userDailyUsd: number;
  totalDailyUsd: number;
  userDailyDeposits: number;
  totalDailyDeposits: number;
}

/** The seeded minter's public test key (the local chain only). */
function localMinterKey(): string {
  return HDNodeWallet.fromPhrase(LOCAL_DEV_MNEMONIC, undefined, localAccountPath(seededAccount("minter").index)).privateKey;
}

/**
 * The mock bank's mode and minting key. Off the local chain it is off unless MOCK_BANK=faucet, which
 * needs MINTER_PRIVATE_KEY; on the local chain the seeded minter's public test key is the default key.
 * Never on a mainnet chain id.
 */
function bankMode(env: NodeJS.ProcessEnv, local: boolean, chainId: number): Pick<BankConfig, "mode" | "offReason" | "minterKey"> {
  const raw = env.MOCK_BANK || (local ? "local" : "off");
  if (raw !== "off" && raw !== "local" && raw !== "faucet") {
    throw new ConfigError(`MOCK_BANK must be 'off', 'local' (the local chain only) or 'faucet' (a capped test faucet), not '${raw}'.`);
  }
  const key = env.MINTER_PRIVATE_KEY;
  if (key === "off") throw new ConfigError("MINTER_PRIVATE_KEY=off no longer switches the mock bank off: set MOCK_BANK=off instead.");
  if (key && !/^0x[0-9a-fA-F]{64}$/.test(key)) throw new ConfigError("MINTER_PRIVATE_KEY must be 0x followed by 64 hex characters.");
  if (raw === "off") {
    const offReason = env.MOCK_BANK
      ? "The mock bank is off on this server (MOCK_BANK=off)."
      : `The mock bank is off on ${describeChain(chainId)}: it runs on the local chain by default, and elsewhere only as a capped test faucet that the operator turns on with MOCK_BANK=faucet.`;
    // Kept as given, unused: the guards still refuse a public test key on a public network.
    return { mode: "off", offReason, minterKey: key || null };
  }
  if (isMainnet(chainId)) {
    throw new ConfigError(`MOCK_BANK=${raw} cannot run on ${describeChain(chainId)}: the mock bank mints from a server key and never runs on a mainnet. Set MOCK_BANK=off.`);
  }
  if (raw === "local" && !local) {
    throw new ConfigError(`MOCK_BANK=local is for the local chain only (any wallet, no daily caps); on ${describeChain(chainId)} use MOCK_BANK=faucet (a capped test faucet) or MOCK_BANK=off.`);
  }
  if (!key && !local) {
    throw new ConfigError("MOCK_BANK=faucet off the local chain needs MINTER_PRIVATE_KEY: the key of a MINTER_ROLE holder that mints the faucet's deposits.");
  }
  return { mode: raw, offReason: null, minterKey: key || localMinterKey() };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const network = (env.NETWORK || "localhost") as Config["network"];
  if (network !== "localhost" && network !== "sepolia") {
    throw new ConfigError(`NETWORK must be 'localhost' or 'sepolia', not '${env.NETWORK}'.`);
  }
  const local = network === "localhost";
  const rpcUrl = env.RPC_URL || (local ? localRpcUrl(env) : env.SEPOLIA_RPC_URL);
  if (!rpcUrl) throw new ConfigError("NETWORK=sepolia needs RPC_URL (or SEPOLIA_RPC_URL): a Sepolia JSON-RPC endpoint.");
  if (!/^https?:\/\//.test(rpcUrl)) throw new ConfigError(`RPC_URL must be an http(s) URL, not '${rpcUrl}'.`);

  const database: Config["database"] = env.DATABASE_URL
    ? { kind: "postgres", url: env.DATABASE_URL }
    : { kind: "pglite", dataDir: env.PGLITE_DIR || path.join(REPO_ROOT, ".local", "pglite") };
  if (database.kind === "postgres" && !/^postgres(ql)?:\/\//.test(database.url)) {
    throw new ConfigError("DATABASE_URL must be a postgres:// or postgresql:// URL.");
  }

  const emulatorHost = env.FIREBASE_AUTH_EMULATOR_HOST || undefined;
  if (emulatorHost && !/^[\w.-]+:\d+$/.test(emulatorHost)) {
    throw new ConfigError(`FIREBASE_AUTH_EMULATOR_HOST must be host:port, like 127.0.0.1:9099, not '${emulatorHost}'.`);
  }
  if (!emulatorHost && !env.GOOGLE_APPLICATION_CREDENTIALS) {
    throw new ConfigError(
      "Firebase Auth needs either FIREBASE_AUTH_EMULATOR_HOST (the local emulator, as npm start sets) or GOOGLE_APPLICATION_CREDENTIALS (a service account of a real project).",
    );
  }
  const projectId = env.FIREBASE_PROJECT_ID || "demo-usdx";
  if (!emulatorHost && !env.FIREBASE_WEB_API_KEY) {
    throw new ConfigError("A real Firebase project needs FIREBASE_WEB_API_KEY: the web API key the dashboard signs in with.");
  }
  if (env.PUBLIC_RPC_URL && !/^https?:\/\//.test(env.PUBLIC_RPC_URL)) throw new ConfigError(`PUBLIC_RPC_URL must be an http(s) URL, not '${env.PUBLIC_RPC_URL}'.`);

  const dashboardOrigins = (env.DASHBOARD_ORIGIN || "http://127.0.0.1:5173,http://localhost:5173")
    .split(",")
    .map((o) => o.trim())
    .filter(Boolean)
    .map((o) => origin("DASHBOARD_ORIGIN", o));
  if (dashboardOrigins.length === 0) throw new ConfigError("DASHBOARD_ORIGIN must name at least one origin.");

  const adminWallets = (env.ADMIN_WALLETS || "")
    .split(",")
    .map((a) => a.trim())
    .filter(Boolean)
    .map((a) => {
      if (!isAddress(a)) throw new ConfigError(`ADMIN_WALLETS: '${a}' is not an address.`);
      return getAddress(a);
    });

  const config: Config = {
    network,
    chainId: local ? LOCAL_CHAIN.chainId : SEPOLIA.chainId,
    rpcUrl,
    deploymentsDir: env.DEPLOYMENTS_DIR || undefined,
    database,
    firebase: {
      projectId,
      emulatorHost,
      // The emulator takes any API key; a real project's web key is public by design.
      webApiKey: env.FIREBASE_WEB_API_KEY || (emulatorHost ? "demo-api-key" : ""),
      authDomain: env.FIREBASE_AUTH_DOMAIN || `${projectId}.firebaseapp.com`,
    },
    publicRpcUrl: env.PUBLIC_RPC_URL || (local ? rpcUrl : null),
    host: env.SERVER_HOST || "127.0.0.1",
    port: int(env, "SERVER_PORT", 3001, 0, 65535),
    dashboardOrigins,
    siweDomains: dashboardOrigins.map((o) => new URL(o).host),
    adminWallets,
    indexer: {
      // The local chain never reorganises by itself; Sepolia can, a few blocks deep.
      confirmations: int(env, "INDEXER_CONFIRMATIONS", local ? 0 : 5, 0, 1000),
      batchBlocks: int(env, "INDEXER_BATCH_BLOCKS", 2000, 1, 100_000),
      pollMs: int(env, "INDEXER_POLL_MS", local ? 500 : 6000, 50, 600_000),
      // A local node is reset often and asked for free; a hosted key pays for each call.
      deploymentCheckMs: int(env, "INDEXER_DEPLOYMENT_CHECK_MS", local ? 0 : 300_000, 0, 86_400_000),
    },
    leaderCheckMs: int(env, "LEADER_CHECK_MS", 2000, 100, 60_000),
    rateLimits: {
      authPerMinute: int(env, "RATE_LIMIT_AUTH_PER_MINUTE", 30, 1, 100_000),
      csvPerMinute: int(env, "RATE_LIMIT_CSV_PER_MINUTE", 30, 1, 100_000),
    },
    trustProxy: trustProxy(env),
    limits: {
      openBatchJobs: int(env, "USER_MAX_OPEN_BATCHES", 5, 1, 10_000),
      // Two full batches (BATCH_MAX_ROWS) a day.
      batchRowsPerDay: int(env, "USER_MAX_BATCH_ROWS_PER_DAY", 20_000, 1, 10_000_000),
      // A full batch is 18 chunks of 564; a wallet confirms each by hand.
      batchReportsPerMinute: int(env, "USER_BATCH_REPORTS_PER_MINUTE", 30, 1, 100_000),
      // One full batch's recipients fit (the dashboard may add them all to the contacts).
      contacts: int(env, "USER_MAX_CONTACTS", 10_000, 1, 10_000_000),
    },
    batch: {
      maxRows: int(env, "BATCH_MAX_ROWS", 10_000, 1, 100_000),
      chunkSize: int(env, "BATCH_CHUNK_SIZE", maxRecipientsPerChunk(), 1, maxRecipientsPerChunk()),
      submitWindowMs: int(env, "BATCH_SUBMIT_WINDOW_MS", 60 * 60_000, 1000, 7 * 24 * 3_600_000),
      txNotFoundMs: int(env, "BATCH_TX_NOT_FOUND_MS", 10 * 60_000, 1000, 24 * 3_600_000),
    },
    bank: {
      ...bankMode(env, local, local ? LOCAL_CHAIN.chainId : SEPOLIA.chainId),
      // PRODUCT.md section 9: verification 5 s, deposit processing 3 s, completion 8 s.
      verifyMs: int(env, "BANK_VERIFY_MS", 5000, 0, 3_600_000),
      processingMs: int(env, "BANK_PROCESSING_MS", 3000, 0, 3_600_000),
      completeMs: int(env, "BANK_COMPLETE_MS", 8000, 0, 3_600_000),
      maxAccounts: int(env, "MOCK_BANK_MAX_ACCOUNTS", 10, 1, 1000),
      maxWallets: int(env, "MOCK_BANK_MAX_WALLETS", 10, 1, 1000),
      writesPerMinute: int(env, "MOCK_BANK_WRITES_PER_MINUTE", 30, 1, 100_000),
      userDailyUsd: int(env, "MOCK_BANK_USER_DAILY_USD", 1000, 1, 1_000_000_000),
      totalDailyUsd: int(env, "MOCK_BANK_TOTAL_DAILY_USD", 100_000, 1, 1_000_000_000),
      userDailyDeposits: int(env, "MOCK_BANK_USER_DAILY_DEPOSITS", 10, 1, 100_000),
      totalDailyDeposits: int(env, "MOCK_BANK_TOTAL_DAILY_DEPOSITS", 1000, 1, 10_000_000),
    },
    alerts: {
      // On top of the index's own depth: a webhook cannot be taken back, so Sepolia waits 7 more blocks (12 in all, about 2.5 minutes).
      confirmations: int(env, "ALERT_CONFIRMATIONS", local ? 0 : 7, 0, 1000),
      allowPrivateUrls: flag(env, "ALERT_ALLOW_PRIVATE_URLS", local),
      pollMs: int(env, "ALERT_POLL_MS", local ? 500 : 5000, 50, 600_000),
      timeoutMs: int(env, "ALERT_TIMEOUT_MS", 5000, 100, 30_000),
      maxAttempts: int(env, "ALERT_MAX_ATTEMPTS", 8, 1, 20),
      retryBaseMs: int(env, "ALERT_RETRY_BASE_MS", 10_000, 10, 3_600_000),
      retryMaxMs: int(env, "ALERT_RETRY_MAX_MS", 3_600_000, 10, 86_400_000),
      maxRules: int(env, "ALERT_MAX_RULES", 50, 1, 1000),
      testsPerMinute: int(env, "ALERT_TESTS_PER_MINUTE", 10, 1, 1000),
    },
    metricsToken: metricsToken(env),
    dashboardDist: env.DASHBOARD_DIST === "off" ? null : env.DASHBOARD_DIST ? path.resolve(env.DASHBOARD_DIST) : DEFAULT_DASHBOARD_DIST,
    logLevel: env.LOG_LEVEL || "info",
  };
  const unsafe = unsafeSettings(
    {
      local,
      host: config.host,
      rpcUrl,
      publicRpcUrl: config.publicRpcUrl,
      emulatorHost,
      dashboardOrigins,
      adminWallets,
      minterKey: config.bank.minterKey,
    },
    env,
  );
  if (unsafe.length > 0) throw new ConfigError(unsafe.join(" "));
  return config;
}

/**
 * `npm run serve`: the server serves the dashboard itself, so the dashboard's origin (CORS, and the
 * domain SIWE messages must name) defaults to the server's own rather than the Vite dev server's.
 * Only a loopback host has an origin worth guessing; anywhere else browsers arrive by a name (and
 * usually through a TLS proxy) that only the operator knows.
 */
export function servingEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  if (env.DASHBOARD_ORIGIN) return env;
  const host = env.SERVER_HOST || "127.0.0.1";
  const port = env.SERVER_PORT || "3001";
  if (!isLoopbackHost(host)) {
    throw new ConfigError(
      `DASHBOARD_ORIGIN must name the origin browsers open the dashboard at (like https://usdx.example.com) when the server listens on '${host}': SIWE messages and CORS are bound to it.`,
    );
  }
  const own = `http://${host.includes(":") ? `[${host.replace(/^\[|\]$/g, "")}]` : host}:${port}`;
  return { ...env, DASHBOARD_ORIGIN: host === "127.0.0.1" ? `${own},http://localhost:${port}` : own };
}
