import { X509Certificate, createPrivateKey } from "node:crypto";
import { readFileSync } from "node:fs";
import { HDNodeWallet } from "ethers";
import { z } from "zod";
import { describeChain } from "@common/networks";
import { LOCAL_DEV_MNEMONIC, localAccountPath, seededAccount } from "@common/seedAccounts";
import {
  type BankMode,
  CHAIN_IDS,
  DEFAULT_DASHBOARD_DIST,
  type EnvSettings,
  METRICS_TOKEN_MIN_LENGTH,
  bankModeOf,
  envSchema,
  network,
  rpcUrlOf,
} from "./env";
import { requestsPerSecondOf } from "./rpcPlans";
import { isLoopbackHost, type LoadOptions, unsafeSettings } from "./guards";

export { type BankMode, type LoadOptions, DEFAULT_DASHBOARD_DIST, METRICS_TOKEN_MIN_LENGTH };

/** The variables set to something: an empty value is an unset one. */
export function givenValues(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ""));
}

/**
 * The environment read through the schema: the settings, or every sentence it is refused with (an
 * empty value counts as unset). NETWORK is read first, since other defaults depend on it.
 */
export function readEnv(env: NodeJS.ProcessEnv): { ok: true; settings: EnvSettings } | { ok: false; refusals: string[] } {
  const given = givenValues(env);
  const refused = (error: z.ZodError) => ({ ok: false as const, refusals: [...new Set(error.issues.map((issue) => issue.message))] });
  const chosen = z.object({ NETWORK: network() }).safeParse(given);
  if (!chosen.success) return refused(chosen.error);
  const result = envSchema(chosen.data.NETWORK).safeParse(given);
  return result.success ? { ok: true, settings: result.data } : refused(result.error);
}

/**
 * The server's whole configuration, read once from the environment through its schema (./env.ts:
 * every variable, its type, default and refusal; docs/SETTINGS.md is its table). Anything missing
 * or wrong stops the server at start with a message that names the variable and says what it wants.
 */
export interface Config {
  network: "localhost" | "sepolia";
  chainId: number;
  rpcUrl: string;
  /** The node's WebSocket endpoint, whose pushed heads wake the loops (RPC_WS_URL); null: they poll. A secret, as rpcUrl. */
  rpcWsUrl: string | null;
  /** The request budget every loop shares (RPC_PLAN, RPC_REQUESTS_PER_SECOND); requestsPerSecond null: no limit. */
  rpcBudget: { plan: string; requestsPerSecond: number | null };
  /** Where deployments/<network>.json is read from (common/manifestFile honours DEPLOYMENTS_DIR). */
  deploymentsDir: string | undefined;
  database: { kind: "pglite"; dataDir: string } | { kind: "postgres"; url: string };
  firebase: { projectId: string; emulatorHost: string | undefined; webApiKey: string; authDomain: string };
  /** The RPC URL the dashboard may read the chain through (never the server's own, which may hold a key); null: the wallet's. */
  publicRpcUrl: string | null;
  host: string;
  port: number;
  /** The certificate and key the server listens with on TLS (HTTP/2 and HTTP/1.1: listen.ts), PEM; null: plain HTTP/1.1. */
  tls: { cert: string; key: string } | null;
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
    /** The explorer backfill of a first index (INDEXER_BACKFILL=explorer), or null: RPC only. */
    backfill: {
      /** Etherscan's API V2 endpoint (ETHERSCAN_API_URL). */
      apiUrl: string;
      apiKey: string;
      chainId: number;
      /** Below this many blocks to catch up, RPC is cheaper (INDEXER_BACKFILL_MIN_BLOCKS). */
      minBlocks: number;
      /** The plan's rate (ETHERSCAN_CALLS_PER_SECOND). */
      callsPerSecond: number;
    } | null;
  };
  /** The largest rise of the multiplier sent without a retype, in hundredths of a percent (MULTIPLIER_MAX_STEP_PERCENT). */
  multiplierMaxStep: number;
  /** On PostgreSQL: how often a replica asks for the leader lock, and the leader checks the connection holding it (LEADER_CHECK_MS). */
  leaderCheckMs: number;
  rateLimits: { authPerMinute: number; csvPerMinute: number };
  /**
   * Express's 'trust proxy': whose X-Forwarded-For names the client (and so keys the rate limits).
   * 'loopback' by default: the dashboard's Vite server forwards /api from this machine; false: none.
   */
  trustProxy: "loopback" | false | number;
  /** CSV exports (middleware/exportLimits.ts): at once per process, and rows a minute per user and per client address. */
  exports: {
    /** EXPORTS_AT_ONCE_PER_USER */
    atOncePerUser: number;
    /** EXPORTS_AT_ONCE */
    atOnce: number;
    /** EXPORT_ROWS_PER_USER_PER_MINUTE */
    rowsPerUserPerMinute: number;
    /** EXPORT_ROWS_PER_IP_PER_MINUTE */
    rowsPerIpPerMinute: number;
  };
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
    /** Safe proposals and approvals one user may send a minute, together: USER_SAFE_WRITES_PER_MINUTE. */
    safeWritesPerMinute: number;
    /** Reads of the proposals of addresses that are no Safe the dashboard shows, one user a minute: USER_SAFE_LOOKUPS_PER_MINUTE. */
    safeLookupsPerMinute: number;
    /** Scenario applies, restores and snapshots one user may ask a minute, together: USER_SCENARIO_RUNS_PER_MINUTE. */
    scenarioRunsPerMinute: number;
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
    /** Whether a webhook must be https: off the local chain (plain http is for the local chain only, whatever ALERT_ALLOW_PRIVATE_URLS says). */
    httpsOnly: boolean;
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
  /** USDX_COMMIT: the source's commit where the deployment names it, or null (then git's, from a checkout). */
  buildCommit: string | null;
}

export class ConfigError extends Error {}

/**
 * The mock bank (MOCK_BANK): 'off'; 'local', the spec's bank on the local chain (any wallet, no daily
 * caps); or 'faucet', a capped test faucet (mints only to wallets the user proved, within daily caps).
 * Default: 'local' on the local chain, 'off' anywhere else. MINTER_PRIVATE_KEY alone turns nothing on.
 */
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
  /** Faucet mode: whole USD a day from one client address, all its users together (MOCK_BANK_IP_DAILY_USD). */
  ipDailyUsd: number;
}

/** The seeded minter's public test key (the local chain only). */
function localMinterKey(): string {
  return HDNodeWallet.fromPhrase(LOCAL_DEV_MNEMONIC, undefined, localAccountPath(seededAccount("minter").index)).privateKey;
}

/** The settings read through the schema (./env.ts), or a ConfigError with every sentence they are refused with. */
function settings(env: NodeJS.ProcessEnv): EnvSettings {
  const read = readEnv(env);
  if (!read.ok) throw new ConfigError(read.refusals.join(" "));
  return read.settings;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, options: LoadOptions = {}): Config {
  const s = settings(env);
  const unsafe = unsafeSettings(s, options);
  if (unsafe.length > 0) throw new ConfigError(unsafe.join(" "));

  const local = s.NETWORK === "localhost";
  // Both defined once the settings are read: a missing RPC URL is refused there.
  const rpcUrl = rpcUrlOf(s) ?? "";
  const emulatorHost = s.FIREBASE_AUTH_EMULATOR_HOST;
  const mode = bankModeOf(s);
  return {
    network: s.NETWORK,
    chainId: CHAIN_IDS[s.NETWORK],
    rpcUrl,
    rpcWsUrl: s.RPC_WS_URL ?? null,
    rpcBudget: requestsPerSecondOf(s.RPC_PLAN, s.RPC_REQUESTS_PER_SECOND),
    deploymentsDir: s.DEPLOYMENTS_DIR,
    database: s.DATABASE_URL ? { kind: "postgres", url: s.DATABASE_URL } : { kind: "pglite", dataDir: s.PGLITE_DIR },
    firebase: {
      projectId: s.FIREBASE_PROJECT_ID,
      emulatorHost,
      // The emulator takes any API key; a real project's web key is public by design.
      webApiKey: s.FIREBASE_WEB_API_KEY ?? (emulatorHost ? "demo-api-key" : ""),
      authDomain: s.FIREBASE_AUTH_DOMAIN ?? `${s.FIREBASE_PROJECT_ID}.firebaseapp.com`,
    },
    publicRpcUrl: s.PUBLIC_RPC_URL ?? (local ? rpcUrl : null),
    host: s.SERVER_HOST,
    port: s.SERVER_PORT,
    tls: tlsFiles(s),
    dashboardOrigins: s.DASHBOARD_ORIGIN,
    siweDomains: s.DASHBOARD_ORIGIN.map((origin) => new URL(origin).host),
    adminWallets: s.ADMIN_WALLETS,
    indexer: {
      confirmations: s.INDEXER_CONFIRMATIONS,
      batchBlocks: s.INDEXER_BATCH_BLOCKS,
      pollMs: s.INDEXER_POLL_MS,
      deploymentCheckMs: s.INDEXER_DEPLOYMENT_CHECK_MS,
      backfill:
        s.INDEXER_BACKFILL === "explorer" && s.ETHERSCAN_API_KEY
          ? {
              apiUrl: s.ETHERSCAN_API_URL,
              apiKey: s.ETHERSCAN_API_KEY,
              chainId: CHAIN_IDS[s.NETWORK],
              minBlocks: s.INDEXER_BACKFILL_MIN_BLOCKS,
              callsPerSecond: s.ETHERSCAN_CALLS_PER_SECOND,
            }
          : null,
    },
    multiplierMaxStep: s.MULTIPLIER_MAX_STEP_PERCENT,
    leaderCheckMs: s.LEADER_CHECK_MS,
    rateLimits: { authPerMinute: s.RATE_LIMIT_AUTH_PER_MINUTE, csvPerMinute: s.RATE_LIMIT_CSV_PER_MINUTE },
    trustProxy: s.TRUST_PROXY,
    exports: {
      atOncePerUser: s.EXPORTS_AT_ONCE_PER_USER,
      atOnce: s.EXPORTS_AT_ONCE,
      rowsPerUserPerMinute: s.EXPORT_ROWS_PER_USER_PER_MINUTE,
      rowsPerIpPerMinute: s.EXPORT_ROWS_PER_IP_PER_MINUTE,
    },
    limits: {
      openBatchJobs: s.USER_MAX_OPEN_BATCHES,
      batchRowsPerDay: s.USER_MAX_BATCH_ROWS_PER_DAY,
      batchReportsPerMinute: s.USER_BATCH_REPORTS_PER_MINUTE,
      contacts: s.USER_MAX_CONTACTS,
      safeWritesPerMinute: s.USER_SAFE_WRITES_PER_MINUTE,
      safeLookupsPerMinute: s.USER_SAFE_LOOKUPS_PER_MINUTE,
      scenarioRunsPerMinute: s.USER_SCENARIO_RUNS_PER_MINUTE,
    },
    batch: {
      maxRows: s.BATCH_MAX_ROWS,
      chunkSize: s.BATCH_CHUNK_SIZE,
      submitWindowMs: s.BATCH_SUBMIT_WINDOW_MS,
      txNotFoundMs: s.BATCH_TX_NOT_FOUND_MS,
    },
    bank: {
      mode,
      offReason: mode !== "off" ? null : s.MOCK_BANK ? "The mock bank is off on this server (MOCK_BANK=off)." : offByDefault(s.NETWORK),
      // Kept as given when the bank is off, unused: the guards still refuse a public test key on a public network.
      minterKey: s.MINTER_PRIVATE_KEY ?? (mode !== "off" && local ? localMinterKey() : null),
      verifyMs: s.BANK_VERIFY_MS,
      processingMs: s.BANK_PROCESSING_MS,
      completeMs: s.BANK_COMPLETE_MS,
      maxAccounts: s.MOCK_BANK_MAX_ACCOUNTS,
      maxWallets: s.MOCK_BANK_MAX_WALLETS,
      writesPerMinute: s.MOCK_BANK_WRITES_PER_MINUTE,
      userDailyUsd: s.MOCK_BANK_USER_DAILY_USD,
      totalDailyUsd: s.MOCK_BANK_TOTAL_DAILY_USD,
      userDailyDeposits: s.MOCK_BANK_USER_DAILY_DEPOSITS,
      totalDailyDeposits: s.MOCK_BANK_TOTAL_DAILY_DEPOSITS,
      ipDailyUsd: s.MOCK_BANK_IP_DAILY_USD,
    },
    alerts: {
      confirmations: s.ALERT_CONFIRMATIONS,
      allowPrivateUrls: s.ALERT_ALLOW_PRIVATE_URLS,
      httpsOnly: !local,
      pollMs: s.ALERT_POLL_MS,
      timeoutMs: s.ALERT_TIMEOUT_MS,
      maxAttempts: s.ALERT_MAX_ATTEMPTS,
      retryBaseMs: s.ALERT_RETRY_BASE_MS,
      retryMaxMs: s.ALERT_RETRY_MAX_MS,
      maxRules: s.ALERT_MAX_RULES,
      testsPerMinute: s.ALERT_TESTS_PER_MINUTE,
    },
    metricsToken: s.METRICS_TOKEN ?? null,
    dashboardDist: s.DASHBOARD_DIST,
    logLevel: s.LOG_LEVEL,
    buildCommit: s.USDX_COMMIT ?? null,
  };
}

/**
 * TLS_CERT and TLS_KEY read (the schema has refused one without the other): a file that cannot be
 * read, a certificate or key that is none, or a key that is not the certificate's stops the server
 * at start rather than at its first handshake.
 */
function tlsFiles(s: EnvSettings): Config["tls"] {
  if (!s.TLS_CERT || !s.TLS_KEY) return null;
  const read = (name: string, file: string) => {
    try {
      return readFileSync(file, "utf8");
    } catch (error) {
      throw new ConfigError(
        `${name} names '${file}', which the server cannot read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`,
      );
    }
  };
  const [cert, key] = [read("TLS_CERT", s.TLS_CERT), read("TLS_KEY", s.TLS_KEY)];
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(cert);
  } catch {
    throw new ConfigError(`TLS_CERT names '${s.TLS_CERT}', which holds no PEM certificate ('-----BEGIN CERTIFICATE-----').`);
  }
  let privateKey: ReturnType<typeof createPrivateKey>;
  try {
    privateKey = createPrivateKey(key);
  } catch {
    throw new ConfigError(
      `TLS_KEY names '${s.TLS_KEY}', which holds no PEM private key the server can use (one with a passphrase cannot be).`,
    );
  }
  if (!certificate.checkPrivateKey(privateKey)) {
    throw new ConfigError(
      `TLS_KEY '${s.TLS_KEY}' is not the private key of the certificate in TLS_CERT '${s.TLS_CERT}' (${certificate.subject.replace(/\n/g, ", ")}): name the key the certificate was issued for.`,
    );
  }
  return { cert, key };
}

/** Why the bank is off where MOCK_BANK does not say: its default off the local chain. */
function offByDefault(network: Config["network"]): string {
  return (
    `The mock bank is off on ${describeChain(CHAIN_IDS[network])}: it runs on the local chain by default, ` +
    "and elsewhere only as a capped test faucet that the operator turns on with MOCK_BANK=faucet."
  );
}

/**
 * `npm run start:production`: the server serves the dashboard itself, so the dashboard's origin (CORS, and the
 * domain SIWE messages must name) defaults to the server's own rather than the Vite dev server's.
 * Only a loopback host has an origin worth guessing; anywhere else browsers arrive by a name (and
 * usually through a TLS proxy) that only the operator knows.
 */
export function servingEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  if (env.DASHBOARD_ORIGIN) return env;
  const { SERVER_HOST: host, SERVER_PORT: port } = listening(env);
  if (!isLoopbackHost(host)) {
    throw new ConfigError(
      `DASHBOARD_ORIGIN must name the origin browsers open the dashboard at (like https://usdx.example.com) when the server listens on '${host}': SIWE messages and CORS are bound to it.`,
    );
  }
  // With a certificate the server's own origin is https (listen.ts): the browser's Origin says so.
  const scheme = givenValues(env).TLS_CERT ? "https" : "http";
  const own = `${scheme}://${host.includes(":") ? `[${host.replace(/^\[|\]$/g, "")}]` : host}:${port}`;
  return { ...env, DASHBOARD_ORIGIN: host === "127.0.0.1" ? `${own},${scheme}://localhost:${port}` : own };
}

/** SERVER_HOST and SERVER_PORT alone, read through the schema (their defaults are the same on every network). */
function listening(env: NodeJS.ProcessEnv): { SERVER_HOST: string; SERVER_PORT: number } {
  const { SERVER_HOST, SERVER_PORT } = envSchema("localhost").shape;
  const read = z.object({ SERVER_HOST, SERVER_PORT }).safeParse(givenValues(env));
  if (!read.success) throw new ConfigError(read.error.issues.map((issue) => issue.message).join(" "));
  return read.data;
}
