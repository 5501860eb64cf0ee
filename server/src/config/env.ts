/**
 * Every environment variable the server reads, declared once, as the API is in common/api: each
 * variable's type, default (per network where the networks differ), whether it is a secret, the
 * line the settings table says of it (docs/SETTINGS.md, written from here by npm run docs:settings)
 * and the sentence it is refused with. loadConfig (./index.ts) shapes the result into the Config.
 */
import path from "node:path";
import { z } from "zod";
import { maxRecipientsPerChunk } from "@common/gasLimits";
import { DEFAULT_MULTIPLIER_MAX_STEP_PERCENT, parseStepBound } from "@common/multiplierStep";
import {
  DEFAULT_LOCAL_RPC_PORT,
  DEFAULT_SERVER_PORT,
  LOCAL_CHAIN,
  LOCAL_RPC_HOST,
  SEPOLIA,
  describeChain,
  isMainnet,
} from "@common/networks";
import { RPC_PLAN_NAMES } from "./rpcPlans";
import {
  address,
  commaList,
  httpUrl,
  origin,
  port,
  positiveNumber,
  setting,
  text,
  trueOrFalse,
  typed,
  variable,
  wholeNumber,
  wsUrl,
} from "./settingKinds";

export { GROUPS, SETTING_TYPES, SETTINGS, type Group, type Setting } from "./settingKinds";

/** The networks the server runs on, and their chain ids. */
export const CHAIN_IDS = { localhost: LOCAL_CHAIN.chainId, sepolia: SEPOLIA.chainId } as const;
export type Network = keyof typeof CHAIN_IDS;

const REPO_ROOT = path.resolve(__dirname, "..", "..", "..");
/** Where `npm run build` puts the dashboard (frontend/vite.config.mts: build.outDir). */
export const DEFAULT_DASHBOARD_DIST = path.join(REPO_ROOT, "frontend", "dist");
const DEFAULT_PGLITE_DIR = path.join(REPO_ROOT, ".local", "pglite");

/** A metrics token shorter than this could be guessed; `openssl rand -hex 32` gives 64 characters. */
export const METRICS_TOKEN_MIN_LENGTH = 32;

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** The mock bank's modes (MOCK_BANK). */
export const BANK_MODES = ["off", "local", "faucet"] as const;
export type BankMode = (typeof BANK_MODES)[number];

/** MULTIPLIER_MAX_STEP_PERCENT in hundredths of a percent, or null when it is no such percentage. */
function stepBound(raw: string): number | null {
  try {
    return parseStepBound(raw);
  } catch {
    return null;
  }
}

export const network = () =>
  typed(
    "`localhost` or `sepolia`",
    z
      .enum(["localhost", "sepolia"], { error: (issue) => `NETWORK must be 'localhost' or 'sepolia', not '${issue.input}'.` })
      .default("localhost"),
  );

/**
 * The server's environment on one network (the defaults of some variables differ by network). An
 * empty value is an unset one (readEnv drops it), so every variable's default applies to it.
 */
export function envSchema(on: Network) {
  const local = on === "localhost";
  return z
    .object({
      // Network and chain
      NETWORK: setting(network(), {
        group: "chain",
        description: "The chain the server serves: `localhost` (the Hardhat node that `npm start` runs) or `sepolia`.",
      }),
      RPC_URL: setting(httpUrl({ secret: true }).optional(), {
        group: "chain",
        secret: true,
        description: "The JSON-RPC endpoint the server reads the chain through (a provider's URL carries its key).",
        default: "the local node (`http://127.0.0.1:<LOCAL_RPC_PORT>`); on Sepolia, SEPOLIA_RPC_URL",
      }),
      // No default, not even on the local chain: without it the loops poll (the test suite's servers and npm start do).
      RPC_WS_URL: setting(wsUrl({ secret: true }).optional(), {
        group: "chain",
        secret: true,
        description:
          "The same node's WebSocket endpoint: its pushed new heads (`eth_subscribe`) wake the indexer and the batch watcher, which then poll only as a safety net. None: they poll every INDEXER_POLL_MS.",
        default: "none (the loops poll)",
      }),
      SEPOLIA_RPC_URL: setting(httpUrl({ secret: true }).optional(), {
        group: "chain",
        secret: true,
        description: "A Sepolia endpoint, for Hardhat's `--network sepolia` and as RPC_URL's default on Sepolia.",
      }),
      LOCAL_RPC_PORT: setting(port().default(DEFAULT_LOCAL_RPC_PORT), {
        group: "chain",
        description: "The port of the local Hardhat node on 127.0.0.1, where `npm start` runs it.",
      }),
      PUBLIC_RPC_URL: setting(httpUrl().optional(), {
        group: "chain",
        description: "The endpoint the dashboard reads the chain through, handed to every browser; none: the wallet's node.",
        default: "RPC_URL on the local chain; none elsewhere",
      }),
      // One request budget for every loop that reads the chain (server/src/chain/rpcBudget.ts).
      RPC_PLAN: setting(
        typed(
          RPC_PLAN_NAMES.map((name) => `\`${name}\``).join(", "),
          z
            .enum(RPC_PLAN_NAMES, {
              error: (issue) => `RPC_PLAN must be one of ${RPC_PLAN_NAMES.join(", ")}, not '${issue.input}'.`,
            })
            .default("unlimited"),
        ),
        {
          group: "chain",
          description:
            "The RPC provider's plan, whose rate (server/src/config/rpcPlans.ts) every loop's requests share; a 429 lowers it for a while. `unlimited`: no budget, for a local node or one's own.",
        },
      ),
      RPC_REQUESTS_PER_SECOND: setting(positiveNumber(100_000).optional(), {
        group: "chain",
        description:
          "Requests a second the server may send to RPC_URL, all loops together (a batch of N calls counts N); wins over RPC_PLAN's rate.",
        default: "RPC_PLAN's rate",
      }),
      DEPLOYMENTS_DIR: setting(text("path").optional(), {
        group: "chain",
        description: "The folder of the deployment manifests (`<network>.json`) the server reads and the deploy scripts write.",
        default: "`deployments/` in the repository",
      }),
      // The local chain never reorganises by itself; Sepolia can, a few blocks deep.
      INDEXER_CONFIRMATIONS: setting(wholeNumber(0, 1000).default(local ? 0 : 5), {
        group: "chain",
        description: "Blocks the indexer stays below the chain's head, so that what it indexes is not taken back.",
      }),
      INDEXER_BATCH_BLOCKS: setting(wholeNumber(1, 100_000).default(2000), {
        group: "chain",
        description: "Blocks per log query (fewer after a provider refuses a range).",
      }),
      INDEXER_POLL_MS: setting(wholeNumber(50, 600_000).default(local ? 500 : 6000), {
        group: "chain",
        description: "How often the indexer asks for new blocks, in ms.",
      }),
      // A local node is reset often and asked for free; a hosted key pays for each call.
      INDEXER_DEPLOYMENT_CHECK_MS: setting(wholeNumber(0, 86_400_000).default(local ? 0 : 300_000), {
        group: "chain",
        description: "How often the indexer checks the deployment is still on the chain, in ms (0: every step; a check is two RPC calls).",
      }),

      // A first index far behind the head: the history from an explorer's logs API (1,000 logs a
      // call over any block range) rather than one eth_getLogs per provider range.
      INDEXER_BACKFILL: setting(
        typed(
          "`off` or `explorer`",
          z
            .enum(["off", "explorer"], { error: (issue) => `INDEXER_BACKFILL must be 'off' or 'explorer', not '${issue.input}'.` })
            .default("off"),
        ),
        {
          group: "chain",
          description:
            "`explorer`: a first index far behind the head reads the history from Etherscan's logs API (ETHERSCAN_API_KEY), then goes on by RPC.",
        },
      ),
      // Below it a catch-up by RPC costs few requests: 1,000 on a free plan's 10-block range.
      INDEXER_BACKFILL_MIN_BLOCKS: setting(wholeNumber(1, 1_000_000_000).default(10_000), {
        group: "chain",
        description: "Blocks the index must be behind before the explorer backfill runs; fewer are read by RPC.",
      }),
      ETHERSCAN_API_URL: setting(httpUrl().default("https://api.etherscan.io/v2/api"), {
        group: "chain",
        description: "Etherscan's API V2 endpoint, which the backfill asks for logs (the chain is named by its `chainid`).",
      }),
      // Etherscan's free plan: 5 calls a second (and 100,000 a day).
      ETHERSCAN_CALLS_PER_SECOND: setting(wholeNumber(1, 1000).default(5), {
        group: "chain",
        description: "Calls a second the backfill sends to Etherscan: the plan's rate.",
      }),

      // Database
      DATABASE_URL: setting(
        typed(
          "`postgres://` or `postgresql://` URL",
          z.string().regex(/^postgres(ql)?:\/\//, { error: "DATABASE_URL must be a postgres:// or postgresql:// URL." }),
        ).optional(),
        {
          group: "database",
          secret: true,
          description: "A PostgreSQL database, which several replicas may share.",
          default: "none: an embedded PGlite in PGLITE_DIR",
        },
      ),
      PGLITE_DIR: setting(text("path").default(DEFAULT_PGLITE_DIR), {
        group: "database",
        description: "Where the embedded PGlite keeps its data when DATABASE_URL is unset (`memory://`: in memory only).",
        default: "`.local/pglite` in the repository",
      }),

      // Sign-in and admins
      FIREBASE_AUTH_EMULATOR_HOST: setting(
        typed(
          "host:port",
          z.string().regex(/^[\w.-]+:\d+$/, {
            error: (issue) => `FIREBASE_AUTH_EMULATOR_HOST must be host:port, like 127.0.0.1:9099, not '${issue.input}'.`,
          }),
        ).optional(),
        {
          group: "auth",
          description: "LOCAL USE ONLY: the Auth emulator, which takes unsigned tokens (`npm start` sets it); never with real credentials.",
        },
      ),
      GOOGLE_APPLICATION_CREDENTIALS: setting(text("path").optional(), {
        group: "auth",
        description: "A real Firebase project's service account key file, read by firebase-admin (the file is a secret).",
      }),
      FIREBASE_PROJECT_ID: setting(text().default("demo-usdx"), {
        group: "auth",
        description: "The Firebase project whose users sign in (`demo-usdx`: the emulator's demo project).",
      }),
      FIREBASE_WEB_API_KEY: setting(text().optional(), {
        group: "auth",
        description: "A real project's web API key (public by design), handed to the dashboard by GET /api/config.",
        default: "`demo-api-key` with the emulator; needed without it",
      }),
      FIREBASE_AUTH_DOMAIN: setting(text().optional(), {
        group: "auth",
        description: "The auth domain handed to the dashboard with the web API key.",
        default: "`<FIREBASE_PROJECT_ID>.firebaseapp.com`",
      }),
      ADMIN_WALLETS: setting(commaList("addresses, comma-separated", z.array(address)).default([]), {
        group: "auth",
        description: "Wallets whose sign-in gets the admin claim (`npm start`: the seeded admin).",
      }),

      // HTTP
      SERVER_HOST: setting(text("host name or IP address").default("127.0.0.1"), {
        group: "http",
        description: "The address the server listens on (loopback: this machine only).",
      }),
      SERVER_PORT: setting(wholeNumber(0, 65_535).default(DEFAULT_SERVER_PORT), {
        group: "http",
        description: "The port it listens on (0: any free port).",
      }),
      DASHBOARD_ORIGIN: setting(
        commaList(
          "origins, comma-separated",
          z.array(origin).min(1, { error: "DASHBOARD_ORIGIN must name at least one origin." }),
        ).prefault("http://127.0.0.1:5173,http://localhost:5173"),
        {
          group: "http",
          description: "The dashboard's origins: CORS allows them, and sign-in (SIWE) messages must name one (behind a proxy: its own).",
          default: "`http://127.0.0.1:5173,http://localhost:5173` (Vite's dev server); under `npm run start:production`, the server's own",
        },
      ),
      DASHBOARD_DIST: setting(
        typed(
          "path, or `off`",
          z.string().transform((dir) => (dir === "off" ? null : path.resolve(dir))),
        ).default(DEFAULT_DASHBOARD_DIST),
        {
          group: "http",
          description: "The built dashboard the server also serves, on its own origin, when it holds an index.html; `off`: the API alone.",
          default: "`frontend/dist`",
        },
      ),
      // Both or neither (refusals below); loadConfig reads the files and checks the key is the certificate's.
      TLS_CERT: setting(text("path").optional(), {
        group: "http",
        description:
          "A PEM certificate (with its chain after it) the server listens with on TLS: HTTP/2 for the clients that offer it, HTTP/1.1 for the others, on SERVER_PORT. Needs TLS_KEY.",
        default: "none: plain HTTP/1.1 (behind a TLS proxy)",
      }),
      TLS_KEY: setting(text("path").optional(), {
        group: "http",
        description: "The PEM private key of TLS_CERT, without a passphrase (the file is a secret).",
      }),
      TRUST_PROXY: setting(
        typed(
          "`loopback`, `off`, or a number of proxies (0 to 99)",
          z
            .string()
            .regex(/^(loopback|off|\d{1,2})$/, {
              error: (issue) =>
                `TRUST_PROXY must be 'loopback', 'off' or the number of proxies in front of the server, not '${issue.input}'.`,
            })
            .transform((raw): "loopback" | false | number => (raw === "loopback" ? raw : raw === "off" ? false : Number(raw))),
        ).prefault("loopback"),
        {
          group: "http",
          description: "Whose X-Forwarded-For names the client (and keys the rate limits): Vite's proxy, none, or the proxies in front.",
        },
      ),

      // Rate and per-user limits (past one, the API answers 429 with a sentence)
      RATE_LIMIT_AUTH_PER_MINUTE: setting(wholeNumber(1, 100_000).default(30), {
        group: "limits",
        description: "Sign-in requests (nonce, wallet sign-in) a minute from one address.",
      }),
      RATE_LIMIT_CSV_PER_MINUTE: setting(wholeNumber(1, 100_000).default(30), {
        group: "limits",
        description: "CSV uploads a minute from one address.",
      }),
      USER_MAX_OPEN_BATCHES: setting(wholeNumber(1, 10_000).default(5), {
        group: "limits",
        description: "Batch jobs one user may have in progress at once.",
      }),
      // Two full batches (BATCH_MAX_ROWS) a day.
      USER_MAX_BATCH_ROWS_PER_DAY: setting(wholeNumber(1, 10_000_000).default(20_000), {
        group: "limits",
        description: "Recipients in the batch jobs one user started in the last 24 hours.",
      }),
      // A full batch is 18 chunks of 564; a wallet confirms each by hand.
      USER_BATCH_REPORTS_PER_MINUTE: setting(wholeNumber(1, 100_000).default(30), {
        group: "limits",
        description: "Chunk transactions one user may report a minute.",
      }),
      // One full batch's recipients fit (the dashboard may add them all to the contacts).
      USER_MAX_CONTACTS: setting(wholeNumber(1, 10_000_000).default(10_000), {
        group: "limits",
        description: "Contacts one user may keep (adds and imports).",
      }),
      // A proposal or an approval is a few chain reads (and a simulation): a day's work is a few dozen.
      USER_SAFE_WRITES_PER_MINUTE: setting(wholeNumber(1, 100_000).default(30), {
        group: "limits",
        description: "Safe proposals and approvals one user may send a minute (together).",
      }),
      // CSV exports: each holds the API's one thread for a while (a 100,000-row export is 2-3 s on
      // PGlite), so a few at once and a budget of rows, not requests, keep accounts that cost nothing
      // to make (SIWE) from filling every minute. RATE_LIMIT_CSV_PER_MINUTE still counts requests.
      EXPORTS_AT_ONCE_PER_USER: setting(wholeNumber(1, 100).default(2), {
        group: "limits",
        description: "CSV exports one user may have running at once on one server process.",
      }),
      EXPORTS_AT_ONCE: setting(wholeNumber(1, 1000).default(4), {
        group: "limits",
        description: "CSV exports one server process writes at once, all users together.",
      }),
      // Two full exports of 100,000 rows a minute per user; an address (an office, a NAT) a few users' worth.
      EXPORT_ROWS_PER_USER_PER_MINUTE: setting(wholeNumber(1, 100_000_000).default(200_000), {
        group: "limits",
        description:
          "CSV rows one user's exports may write a minute (all exports together; an export that starts within the budget ends whole).",
      }),
      EXPORT_ROWS_PER_IP_PER_MINUTE: setting(wholeNumber(1, 100_000_000).default(500_000), {
        group: "limits",
        description: "CSV rows the exports asked from one IP address may write a minute, all its users together.",
      }),
      // Each is a dozen chain reads the cache cannot share (any address may be asked); the Safes the
      // dashboard shows are not counted, so only lookups of other addresses spend it.
      USER_SAFE_LOOKUPS_PER_MINUTE: setting(wholeNumber(1, 100_000).default(30), {
        group: "limits",
        description:
          "Reads of the proposals of an address that is no Safe the dashboard shows (the manifest's or a role holder), one user may ask a minute.",
      }),
      // The Scenarios panel (the local chain only): one run at a time anyway; this bounds snapshots and refused attempts.
      USER_SCENARIO_RUNS_PER_MINUTE: setting(wholeNumber(1, 100_000).default(10), {
        group: "limits",
        description: "Scenario applies, snapshot restores and snapshots taken one user may ask a minute, together (the local chain only).",
      }),

      // Batch payments
      BATCH_MAX_ROWS: setting(wholeNumber(1, 100_000).default(10_000), {
        group: "batch",
        description: "Rows one CSV (or one batch job) may hold.",
      }),
      BATCH_CHUNK_SIZE: setting(wholeNumber(1, maxRecipientsPerChunk()).default(maxRecipientsPerChunk()), {
        group: "batch",
        description: "Recipients per chunk transaction; the default is the most that fit under the per-transaction gas cap.",
      }),
      BATCH_SUBMIT_WINDOW_MS: setting(wholeNumber(1000, 7 * 24 * 3_600_000).default(60 * 60_000), {
        group: "batch",
        description: "A job whose chunks were not all sent this long after it was planned fails, in ms (the chain may still pay it later).",
      }),
      BATCH_TX_NOT_FOUND_MS: setting(wholeNumber(1000, 24 * 3_600_000).default(10 * 60_000), {
        group: "batch",
        description: "A reported transaction the node has never seen after this long fails its chunk, in ms.",
      }),

      // Mock bank
      MOCK_BANK: setting(
        typed(
          "`off`, `local` or `faucet`",
          z.enum(BANK_MODES, {
            error: (issue) =>
              `MOCK_BANK must be 'off', 'local' (the local chain only) or 'faucet' (a capped test faucet), not '${issue.input}'.`,
          }),
        ).optional(),
        {
          group: "bank",
          description: "The mock bank: `local` (any wallet, no daily caps), `faucet` (a capped test faucet) or `off`; never on a mainnet.",
          default: "`local` on the local chain, `off` elsewhere",
        },
      ),
      MINTER_PRIVATE_KEY: setting(
        typed(
          "private key (0x and 64 hex characters)",
          z
            .string()
            .refine((key) => key !== "off", {
              abort: true,
              error: "MINTER_PRIVATE_KEY=off no longer switches the mock bank off: set MOCK_BANK=off instead.",
            })
            .regex(/^0x[0-9a-fA-F]{64}$/, { error: "MINTER_PRIVATE_KEY must be 0x followed by 64 hex characters." }),
        ).optional(),
        {
          group: "bank",
          secret: true,
          description: "The key (of a MINTER_ROLE holder) the mock bank mints with; MOCK_BANK=faucet needs it off the local chain.",
          default: "the seeded minter's public test key on the local chain; none elsewhere",
        },
      ),
      MOCK_BANK_USER_DAILY_USD: setting(wholeNumber(1, 1_000_000_000).default(1000), {
        group: "bank",
        description: "Faucet: whole USD (1 USD = 1 USDX) one user's deposits may add up to in a UTC day.",
      }),
      MOCK_BANK_TOTAL_DAILY_USD: setting(wholeNumber(1, 1_000_000_000).default(100_000), {
        group: "bank",
        description: "Faucet: whole USD all users' deposits may add up to in a UTC day.",
      }),
      MOCK_BANK_USER_DAILY_DEPOSITS: setting(wholeNumber(1, 100_000).default(10), {
        group: "bank",
        description: "Faucet: deposits one user may request in a UTC day (every deposit not failed counts).",
      }),
      MOCK_BANK_TOTAL_DAILY_DEPOSITS: setting(wholeNumber(1, 10_000_000).default(1000), {
        group: "bank",
        description: "Faucet: deposits all users may request in a UTC day.",
      }),
      // A new SIWE wallet is a new user: five users' worth from one address, so a hundred throwaway
      // wallets need twenty addresses to empty the daily total.
      MOCK_BANK_IP_DAILY_USD: setting(wholeNumber(1, 1_000_000_000).default(5000), {
        group: "bank",
        description: "Faucet: whole USD the deposits requested from one IP address may add up to in a UTC day, all its users together.",
      }),
      MOCK_BANK_MAX_ACCOUNTS: setting(wholeNumber(1, 1000).default(10), {
        group: "bank",
        description: "Bank accounts one user may keep (every mode).",
      }),
      MOCK_BANK_MAX_WALLETS: setting(wholeNumber(1, 1000).default(10), {
        group: "bank",
        description: "Wallets one user may keep (every mode).",
      }),
      MOCK_BANK_WRITES_PER_MINUTE: setting(wholeNumber(1, 100_000).default(30), {
        group: "bank",
        description: "Per user and minute, each of: adding bank accounts, adding wallets (and their challenges), requesting deposits.",
      }),
      // PRODUCT.md section 9: verification 5 s, deposit processing 3 s, completion 8 s.
      BANK_VERIFY_MS: setting(wholeNumber(0, 3_600_000).default(5000), {
        group: "bank",
        description: "How long a new bank account takes to be verified, in ms.",
      }),
      BANK_PROCESSING_MS: setting(wholeNumber(0, 3_600_000).default(3000), {
        group: "bank",
        description: "How long after its request a deposit starts processing, in ms.",
      }),
      BANK_COMPLETE_MS: setting(wholeNumber(0, 3_600_000).default(8000), {
        group: "bank",
        description: "How long after its request a deposit is minted, in ms.",
      }),

      // Operators' alerts
      // On top of the index's own depth: a webhook cannot be taken back, so Sepolia waits 7 more blocks (12 in all, about 2.5 minutes).
      ALERT_CONFIRMATIONS: setting(wholeNumber(0, 1000).default(local ? 0 : 7), {
        group: "alerts",
        description: "Blocks the index must hold above an event, beyond INDEXER_CONFIRMATIONS, before an alert is sent for it.",
      }),
      ALERT_ALLOW_PRIVATE_URLS: setting(trueOrFalse().default(local), {
        group: "alerts",
        description: "Whether a webhook may reach loopback, private and link-local addresses; keep it false on a public server.",
      }),
      ALERT_POLL_MS: setting(wholeNumber(50, 600_000).default(local ? 500 : 5000), {
        group: "alerts",
        description: "How often the alerts look for new events and deliveries due, in ms.",
      }),
      ALERT_TIMEOUT_MS: setting(wholeNumber(100, 30_000).default(5000), {
        group: "alerts",
        description: "One delivery attempt's time limit, from connecting to the answer's end, in ms.",
      }),
      ALERT_MAX_ATTEMPTS: setting(wholeNumber(1, 20).default(8), {
        group: "alerts",
        description: "Attempts per delivery.",
      }),
      ALERT_RETRY_BASE_MS: setting(wholeNumber(10, 3_600_000).default(10_000), {
        group: "alerts",
        description: "The wait after a delivery's first failed attempt, doubling after each, in ms.",
      }),
      ALERT_RETRY_MAX_MS: setting(wholeNumber(10, 86_400_000).default(3_600_000), {
        group: "alerts",
        description: "The longest wait between attempts, in ms.",
      }),
      ALERT_MAX_RULES: setting(wholeNumber(1, 1000).default(50), {
        group: "alerts",
        description: "Alert rules the server keeps, all admins together.",
      }),
      ALERT_TESTS_PER_MINUTE: setting(wholeNumber(1, 1000).default(10), {
        group: "alerts",
        description: "'Send test' requests one admin may make a minute.",
      }),

      // Operations
      LEADER_CHECK_MS: setting(wholeNumber(100, 60_000).default(2000), {
        group: "operations",
        description: "On PostgreSQL: how often a replica asks for the leader lock, and the leader checks the connection holding it, in ms.",
      }),
      // The oracle's guard (issue 29): the contract lets ORACLE_ROLE move the multiplier anywhere at once.
      MULTIPLIER_MAX_STEP_PERCENT: setting(
        typed(
          "percentage, 0 to 1000, at most two decimals",
          z
            .string()
            .refine((raw) => stepBound(raw) !== null, {
              error: (issue) =>
                `${variable(issue)} must be a percentage from 0 to 1000 with at most two decimals, such as 1 or 0.5, not '${issue.input}'.`,
            })
            .transform((raw) => stepBound(raw)!),
        ).default(parseStepBound(DEFAULT_MULTIPLIER_MAX_STEP_PERCENT)),
        {
          group: "operations",
          description:
            "The largest rise of the reward multiplier, in percent of every balance, that the dashboard and the usdx tasks send without the value typed again; any decrease is always typed again.",
          default: `\`${DEFAULT_MULTIPLIER_MAX_STEP_PERCENT}\``,
        },
      ),
      METRICS_TOKEN: setting(
        typed(
          `${METRICS_TOKEN_MIN_LENGTH} or more printable characters, no spaces`,
          // Printable ASCII without spaces: what an Authorization header carries unchanged. Never echoed.
          z.string().regex(new RegExp(`^[\\x21-\\x7e]{${METRICS_TOKEN_MIN_LENGTH},}$`), {
            error:
              `METRICS_TOKEN must be at least ${METRICS_TOKEN_MIN_LENGTH} characters with no spaces (openssl rand -hex 32 makes one), ` +
              "or empty to let only this machine read /api/metrics.",
          }),
        ).optional(),
        {
          group: "operations",
          secret: true,
          description: "The bearer token a scraper sends to read GET /api/metrics from anywhere; none: only this machine may read it.",
        },
      ),
      LOG_LEVEL: setting(
        typed(
          LOG_LEVELS.map((level) => `\`${level}\``).join(", "),
          z.enum(LOG_LEVELS, {
            error: (issue) => `LOG_LEVEL must be one of ${LOG_LEVELS.slice(0, -1).join(", ")} or silent, not '${issue.input}'.`,
          }),
        ).default("info"),
        {
          group: "operations",
          description: "The least severe log lines the server writes (JSON lines on standard output).",
        },
      ),
      USDX_COMMIT: setting(text("commit hash").optional(), {
        group: "operations",
        description: "The source's commit that /monitoring shows, where the release is not a git checkout.",
        default: "git's, when the server runs from a checkout",
      }),

      // Deploying and tools: declared so that the settings table covers .env.example; never checked here.
      DEPLOYER_PRIVATE_KEY: setting(text("private key (0x and 64 hex characters)").optional(), {
        group: "tools",
        secret: true,
        description: "The account that deploys on Sepolia and sends the tasks' transactions.",
      }),
      USDX_OWNER: setting(text("address").optional(), {
        group: "tools",
        description: "The first admin (DEFAULT_ADMIN_ROLE) of a new deployment.",
        default: "the deployer",
      }),
      ETHERSCAN_API_KEY: setting(text().optional(), {
        group: "tools",
        secret: true,
        description:
          "For `npx hardhat verify --network sepolia <address>`, which publishes the contracts' source, and for the explorer backfill (INDEXER_BACKFILL).",
      }),
      REPORT_GAS: setting(text("`true` or `false`").optional(), {
        group: "tools",
        description: "A gas report after the contract tests.",
        default: "`false`",
      }),
    })
    .superRefine(
      (env, ctx) => {
        for (const message of refusals(env)) ctx.addIssue({ code: "custom", message });
      },
      // Only once every variable is well formed.
      { when: (payload) => payload.issues.length === 0 },
    );
}

export type EnvSettings = z.output<ReturnType<typeof envSchema>>;

/** The RPC URL the server reads through: RPC_URL, or its default on the network. */
export function rpcUrlOf(env: EnvSettings): string | undefined {
  return env.RPC_URL ?? (env.NETWORK === "localhost" ? `http://${LOCAL_RPC_HOST}:${env.LOCAL_RPC_PORT}` : env.SEPOLIA_RPC_URL);
}

/** The mock bank's mode: MOCK_BANK, or 'local' on the local chain and 'off' anywhere else. */
export function bankModeOf(env: EnvSettings): BankMode {
  return env.MOCK_BANK ?? (env.NETWORK === "localhost" ? "local" : "off");
}

/** What no single variable says wrong: settings missing for the others, or that cannot go together. */
function refusals(env: EnvSettings): string[] {
  const found: string[] = [];
  const local = env.NETWORK === "localhost";
  const chain = describeChain(CHAIN_IDS[env.NETWORK]);
  if (!rpcUrlOf(env)) found.push("NETWORK=sepolia needs RPC_URL (or SEPOLIA_RPC_URL): a Sepolia JSON-RPC endpoint.");
  if (!env.FIREBASE_AUTH_EMULATOR_HOST && !env.GOOGLE_APPLICATION_CREDENTIALS) {
    found.push(
      "Firebase Auth needs either FIREBASE_AUTH_EMULATOR_HOST (the local emulator, as npm start sets) " +
        "or GOOGLE_APPLICATION_CREDENTIALS (a service account of a real project).",
    );
  }
  if (!env.FIREBASE_AUTH_EMULATOR_HOST && !env.FIREBASE_WEB_API_KEY) {
    found.push("A real Firebase project needs FIREBASE_WEB_API_KEY: the web API key the dashboard signs in with.");
  }
  if (env.INDEXER_BACKFILL === "explorer" && !env.ETHERSCAN_API_KEY)
    found.push("INDEXER_BACKFILL=explorer needs ETHERSCAN_API_KEY: the key the explorer's logs API is asked with.");
  if (Boolean(env.TLS_CERT) !== Boolean(env.TLS_KEY)) {
    const [set, unset] = env.TLS_CERT ? ["TLS_CERT", "TLS_KEY"] : ["TLS_KEY", "TLS_CERT"];
    found.push(
      `${set} is set and ${unset} is not: TLS needs both, the certificate (TLS_CERT) and its private key (TLS_KEY), as PEM files. Set both to serve HTTPS, or neither for plain HTTP.`,
    );
  }
  const mode = bankModeOf(env);
  if (mode !== "off" && isMainnet(CHAIN_IDS[env.NETWORK])) {
    found.push(
      `MOCK_BANK=${mode} cannot run on ${chain}: the mock bank mints from a server key and never runs on a mainnet. Set MOCK_BANK=off.`,
    );
  } else if (mode === "local" && !local) {
    found.push(
      `MOCK_BANK=local is for the local chain only (any wallet, no daily caps); on ${chain} ` +
        "use MOCK_BANK=faucet (a capped test faucet) or MOCK_BANK=off.",
    );
  } else if (mode === "faucet" && !local && !env.MINTER_PRIVATE_KEY) {
    found.push(
      "MOCK_BANK=faucet off the local chain needs MINTER_PRIVATE_KEY: the key of a MINTER_ROLE holder that mints the faucet's deposits.",
    );
  }
  return found;
}
