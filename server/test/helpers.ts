import { HDNodeWallet, JsonRpcProvider, Wallet, getAddress, hexlify, randomBytes } from "ethers";
import { checkAnswer } from "./answerCheck";
import { checkWithDocument } from "./documentCheck";
import { LOCAL_DEV_MNEMONIC, localAccountPath, seededAccount } from "@common/seedAccounts";
import { SiweMessage } from "siwe";
import { readManifest } from "@common/manifestFile";
import { chainEvents } from "../src/db/schema";
import { loadConfig, Config } from "../src/config";
import { startServer, RunningServer } from "../src/index";
import { createLogger } from "../src/lib/logger";
import { FIREBASE_PROJECT, rpc, Stack } from "./stack";
import { ON_POSTGRES, TestPostgres } from "./postgres";
import { localProvider } from "../../scripts/lib/stack/localProvider";

/** The stack the root hooks started (server/test/hooks.ts). */
export function stack(): Stack {
  const current = (globalThis as { usdxStack?: Stack }).usdxStack;
  if (!current) throw new Error("The test stack is not running: run server tests through `npm run test:server`.");
  return current;
}

/** The seeded Operations Safe's address (it holds MINTER, ORACLE and PAUSE beside their keys: common/seedAccounts.ts). */
export function operationsSafe(): string {
  const safe = readManifest("localhost", { DEPLOYMENTS_DIR: stack().deploymentsDir }).safes?.[0];
  if (!safe) throw new Error("The test chain has no Operations Safe: the seed creates it (scripts/seed.ts).");
  return safe.address;
}

/** The suite's PostgreSQL server in the PostgreSQL pass (server/test/hooks.ts), or undefined on PGlite. */
export function testPostgres(): TestPostgres | undefined {
  const current = (globalThis as { usdxPostgres?: TestPostgres }).usdxPostgres;
  if (ON_POSTGRES && !current)
    throw new Error("The PostgreSQL pass's server is not running: run it through `npm run test:server:postgres`.");
  return current;
}

export const DASHBOARD_ORIGIN = "http://127.0.0.1:5173";
export const DASHBOARD_DOMAIN = "127.0.0.1:5173";

/**
 * A server configuration against the test stack, with an in-memory database unless told otherwise.
 * In the PostgreSQL pass the database is one of the suite's PostgreSQL server's instead (a new one,
 * or for a PGLITE_DIR directory the same one each time), unless DATABASE_URL is given.
 */
export function testConfig(overrides: Record<string, string> = {}): Config {
  const s = stack();
  const postgres = testPostgres();
  const database =
    postgres && overrides.DATABASE_URL === undefined ? { DATABASE_URL: postgres.databaseUrl(overrides.PGLITE_DIR ?? "memory://") } : {};
  return loadConfig({
    NETWORK: "localhost",
    RPC_URL: s.rpcUrl,
    DEPLOYMENTS_DIR: s.deploymentsDir,
    PGLITE_DIR: "memory://",
    FIREBASE_AUTH_EMULATOR_HOST: s.emulatorHost,
    FIREBASE_PROJECT_ID: FIREBASE_PROJECT,
    SERVER_PORT: "0",
    DASHBOARD_ORIGIN,
    INDEXER_POLL_MS: "100",
    RATE_LIMIT_AUTH_PER_MINUTE: "1000",
    LOG_LEVEL: "silent",
    // The suite's answers must not depend on whether someone ran npm run build (dashboard.test.ts serves its own).
    DASHBOARD_DIST: "off",
    ...database,
    ...overrides,
  });
}

export async function startTestServer(overrides: Record<string, string> = {}): Promise<RunningServer> {
  const config = testConfig(overrides);
  const server = await startServer(config, createLogger(config.logLevel));
  await server.services.indexer.syncOnce();
  return server;
}

export interface Answer<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

/**
 * An answer's JSON as a test reads it when it names no type: each answer was already checked
 * against its endpoint's declaration in common/api (answerCheck.ts), and a test names the declared
 * record types (@common/apiTypes) where it reads the records inside.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the wire's JSON of any endpoint; checkAnswer validates it against common/api at runtime
export type LooseJson = Record<string, any>;

/** Anything with the API's base URL: a server started in this process, a child process, a load balancer. */
export type ApiBase = Pick<RunningServer, "url">;

/** A request as it went on the wire, for the OpenAPI document's check (documentCheck.ts). */
function sentRequest(method: string, path: string, headers: Record<string, string>, body: string | undefined) {
  const contentType = Object.entries(headers).find(([name]) => name.toLowerCase() === "content-type")?.[1];
  return { method, path, contentType, body };
}

/**
 * Calls the API; `body` is sent as JSON unless it is already a string. The request and its answer
 * are checked against common/api's declaration (answerCheck.ts) and the OpenAPI document
 * (documentCheck.ts).
 */
export async function call<T = LooseJson>(
  server: ApiBase,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) headers["content-type"] ??= "application/json";
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const sent = options.body === undefined ? undefined : typeof options.body === "string" ? options.body : JSON.stringify(options.body);
  const res = await fetch(`${server.url}${path}`, { method, headers, body: sent });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON: keep the text so the assertion shows it */
  }
  checkAnswer(method, path, res.status, body, res.headers.get("content-type"));
  checkWithDocument(sentRequest(method, path, headers, sent), res.status, body, res.headers.get("content-type"));
  return { status: res.status, body: body as T, headers: res.headers };
}

// Liveness, not speed: a request still unanswered after this long is hanging, and fails the test
// with its path instead of leaving mocha's timeout to guess.
const HANG_LIMIT_MS = 15_000;

/** One API call with a hang limit: a request that never answers fails with its path. */
export async function request<T = LooseJson>(
  base: ApiBase,
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers["content-type"] = "application/json";
  // A timer of our own: Node 20's AbortSignal.timeout() was seen never to fire on a pending fetch.
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), HANG_LIMIT_MS);
  try {
    const sent = options.body === undefined ? undefined : JSON.stringify(options.body);
    const res = await fetch(`${base.url}${path}`, { method, headers, body: sent, signal: abort.signal });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON: the assertion shows the text */
    }
    checkAnswer(method, path, res.status, body, res.headers.get("content-type"));
    checkWithDocument(sentRequest(method, path, headers, sent), res.status, body, res.headers.get("content-type"));
    return { status: res.status, body: body as T };
  } catch (error) {
    if (abort.signal.aborted) throw new Error(`${method} ${path} hung: no answer within ${HANG_LIMIT_MS / 1000} s`, { cause: error });
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

// ---------------------------------------------------------------- sign-in through the emulator

async function identityToolkit(path: string, body: unknown): Promise<{ idToken: string; localId: string; refreshToken: string }> {
  const res = await fetch(`http://${stack().emulatorHost}/identitytoolkit.googleapis.com/v1/${path}?key=test-key`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ...(body as object), returnSecureToken: true }),
  });
  const json = (await res.json()) as { idToken: string; localId: string; refreshToken: string; error?: { message: string } };
  if (!res.ok) throw new Error(`emulator ${path}: ${json.error?.message}`);
  return json;
}

/** A token with no signature, as only the emulator would accept (tests that it is refused when it must be). */
export function unsignedToken(claims: Record<string, unknown>): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
  return `${part({ alg: "none", typ: "JWT" })}.${part(claims)}.`;
}

let emailCounter = 0;

/** An ID token for an email user the emulator has, as the dashboard's email sign-in gets one. */
export async function passwordSignIn(email: string, password: string): Promise<string> {
  return (await identityToolkit("accounts:signInWithPassword", { email, password })).idToken;
}

/** A new email user in the emulator; returns its ID token. */
export async function emailUser(): Promise<{ idToken: string; uid: string; email: string }> {
  const email = `user${Date.now()}-${emailCounter++}@example.com`;
  const password = "correct-horse-9";
  const { localId } = await identityToolkit("accounts:signUp", { email, password });
  // Then signs in, and uses that token: the emulator stamps a new user's token with the sign-up's
  // start (auth_time) but sets the user's validSince a moment later, and firebase-admin refuses an
  // emulator token whose auth_time is before validSince. Across a second boundary (one sign-up in
  // about a thousand) the sign-up's own token was refused as revoked: a rare 401 in the suite.
  const { idToken } = await identityToolkit("accounts:signInWithPassword", { email, password });
  return { idToken, uid: localId, email };
}

/**
 * A SIWE message as the dashboard builds it, for `wallet`, with a nonce from the server unless
 * `fields` names one; any other field of the message can be changed too.
 */
export async function siweMessage(server: ApiBase, wallet: { address: string }, fields: Partial<SiweMessage> = {}): Promise<string> {
  const nonce = fields.nonce ?? ((await call(server, "POST", "/api/auth/nonce")).body.nonce as string);
  return new SiweMessage({
    domain: DASHBOARD_DOMAIN,
    address: wallet.address,
    statement: "Sign in to the USDX Dashboard.",
    uri: DASHBOARD_ORIGIN,
    version: "1",
    chainId: 31337,
    issuedAt: new Date().toISOString(),
    ...fields,
    nonce,
  }).prepareMessage();
}

/** Signs in `wallet` with SIWE and exchanges the custom token at the emulator; returns the ID token (and the session's refresh token). */
export async function walletUser(
  server: ApiBase,
  wallet: Wallet = Wallet.createRandom() as unknown as Wallet,
): Promise<{ idToken: string; refreshToken: string; wallet: Wallet }> {
  const message = await siweMessage(server, wallet);
  const signature = await wallet.signMessage(message);
  const answer = await call(server, "POST", "/api/auth/wallet-auth", { body: { address: wallet.address, message, signature } });
  if (answer.status !== 200) throw new Error(`wallet-auth: ${JSON.stringify(answer.body)}`);
  const { idToken, refreshToken } = await identityToolkit("accounts:signInWithCustomToken", { token: answer.body.customToken });
  return { idToken, refreshToken, wallet };
}

/** A session's refresh, as the Firebase web SDK does it: a new ID token, or the emulator's refusal (`error`). */
export async function refreshSession(refreshToken: string): Promise<{ idToken?: string; error?: string }> {
  const res = await fetch(`http://${stack().emulatorHost}/securetoken.googleapis.com/v1/token?key=test-key`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken }).toString(),
  });
  const json = (await res.json()) as { id_token?: string; error?: { message: string } };
  return res.ok ? { idToken: json.id_token } : { error: json.error?.message ?? `HTTP ${res.status}` };
}

// ---------------------------------------------------------------- chain

export function provider(): JsonRpcProvider {
  // No response cache: ethers would answer a nonce from 250 ms ago, and a wallet's next transaction would reuse it.
  return localProvider(stack().rpcUrl, 31337, { staticNetwork: true, cacheTimeout: -1 });
}

export const snapshot = () => rpc<string>(stack().rpcUrl, "evm_snapshot");
export const revert = (id: string) => rpc<boolean>(stack().rpcUrl, "evm_revert", [id]);
export const mine = () => rpc(stack().rpcUrl, "evm_mine");

/** A fresh address nobody holds a key to: a recipient or wallet no other test has touched. */
export const randomAddress = () => getAddress(hexlify(randomBytes(20)));

/** Hardhat's unlocked account `index` as a signer on the test node. */
export async function signer(index: number) {
  return provider().getSigner(index);
}

/** A seeded account as a wallet that signs locally (SIWE messages and permits) and sends through the test node. */
export function seeded(name: string): HDNodeWallet {
  return HDNodeWallet.fromPhrase(LOCAL_DEV_MNEMONIC, undefined, localAccountPath(seededAccount(name).index)).connect(provider());
}

/** One chunk of a batch plan, as POST /api/batch/execute answers it. */
export interface PlanChunk {
  index: number;
  recipients: string[];
  amounts: string[];
  total: string;
  reference: string;
}

/** What POST /api/batch/execute answers: the job and its chunks for the wallet to pay. */
export interface BatchPlan {
  jobId: string;
  batchContract: string;
  totalAmountRaw: string;
  chunks: PlanChunk[];
}

// ---------------------------------------------------------------- waiting

/** Polls `read` until `done` holds; a wait for the server to catch up, failing with the last value seen. */
export async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`${what} did not happen within ${timeoutMs / 1000} s; last seen: ${JSON.stringify(value)?.slice(0, 800)}`);
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
}

/** Every USDX and BatchPayments log on the chain, as "block-logIndex-blockHash" keys. */
export async function chainKeys(): Promise<string[]> {
  const { proxy, batchPayments, deploymentBlock } = readManifest("localhost", { DEPLOYMENTS_DIR: stack().deploymentsDir });
  const logs = await provider().getLogs({ address: [proxy, batchPayments], fromBlock: deploymentBlock, toBlock: "latest" });
  return logs.map((l) => `${l.blockNumber}-${l.index}-${l.blockHash}`).sort();
}

/** The same keys for what a database's index holds. */
export async function indexKeys(db: RunningServer["services"]["db"]["db"]): Promise<string[]> {
  const rows = await db
    .select({ blockNumber: chainEvents.blockNumber, logIndex: chainEvents.logIndex, blockHash: chainEvents.blockHash })
    .from(chainEvents);
  return rows.map((r) => `${r.blockNumber}-${r.logIndex}-${r.blockHash}`).sort();
}

/** Waits until a database's index holds exactly the chain's logs, each once (an indexer writes it on its own); answers the chain's keys. */
export async function untilIndexEqualsChain(
  db: RunningServer["services"]["db"]["db"],
  what = "the index to equal the chain",
): Promise<string[]> {
  let chain: string[] = [];
  await until(
    what,
    async () => {
      chain = await chainKeys();
      const index = await indexKeys(db);
      return {
        chain: chain.length,
        index: index.length,
        missing: chain.filter((k) => !index.includes(k)).slice(0, 3),
        extra: index.filter((k) => !chain.includes(k)).slice(0, 3),
      };
    },
    (d) => d.missing.length === 0 && d.extra.length === 0 && d.chain === d.index,
  );
  return chain;
}
