import path from "node:path";
import { getAddress, isAddress } from "ethers";
import { LOCAL_CHAIN, SEPOLIA, localRpcUrl } from "../../common/networks";

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
  firebase: { projectId: string; emulatorHost: string | undefined };
  host: string;
  port: number;
  /** Origins allowed by CORS; the first is the dashboard's, whose host SIWE messages must name. */
  dashboardOrigins: string[];
  /** Domains a SIWE message may be for (host[:port] of each dashboard origin). */
  siweDomains: string[];
  adminWallets: string[];
  indexer: { confirmations: number; batchBlocks: number; pollMs: number };
  rateLimits: { authPerMinute: number };
  logLevel: string;
}

export class ConfigError extends Error {}

const REPO_ROOT = path.resolve(__dirname, "..", "..");

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, not '${raw}'.`);
  }
  return value;
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

  return {
    network,
    chainId: local ? LOCAL_CHAIN.chainId : SEPOLIA.chainId,
    rpcUrl,
    deploymentsDir: env.DEPLOYMENTS_DIR || undefined,
    database,
    firebase: { projectId, emulatorHost },
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
    },
    rateLimits: { authPerMinute: int(env, "RATE_LIMIT_AUTH_PER_MINUTE", 30, 1, 100_000) },
    logLevel: env.LOG_LEVEL || "info",
  };
}
