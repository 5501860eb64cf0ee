/**
 * The bad-input suite's table (badInput.test.ts runs it): the world its cases run in (Alice's rows,
 * which every case must leave alone), every endpoint of the API with a body that would succeed, the
 * shape of a case, and the builders the case files (bodies, values, paths, access) share.
 */
import type { LooseJson } from "../helpers";
// ---------------------------------------------------------------- values

// EIP-55's own examples (checksummed).
export const A = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
// One of EIP-55's examples with a letter's case flipped: right hex, wrong checksum.
export const BAD_CHECKSUM = `${A.slice(0, -1)}D`;
export const B = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359";
export const C = "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB";
export const D = "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb";
export const E = "0x52908400098527886E0F7030069857D2E4169EE7";
export const TX_HASH = `0x${"ab".repeat(32)}`;
/** A SafeTx as the dashboard proposes it (a pause of USDX at nonce 0), and a well-formed signature of nobody. */
export const SAFE_TX = {
  to: A,
  value: "0",
  data: "0x8456cb59",
  operation: 0,
  safeTxGas: "0",
  baseGas: "0",
  gasPrice: "0",
  gasToken: "0x0000000000000000000000000000000000000000",
  refundReceiver: "0x0000000000000000000000000000000000000000",
  nonce: "0",
};
export const SAFE_SIGNATURE = `0x${"11".repeat(64)}1b`;

export type Category =
  | "malformed JSON"
  | "content type"
  | "wrong type"
  | "huge number"
  | "negative amount"
  | "exponent amount"
  | "19 decimals"
  | "address"
  | "unicode/control"
  | "formula CSV"
  | "10 MB body"
  | "query/path"
  | "auth"
  | "other user"
  | "declared rule";

// ---------------------------------------------------------------- the world the cases run in

export interface User {
  idToken: string;
  uid: string;
}

/** Alice's rows, which every case must leave alone; Bob and an admin wallet try to reach them. */
export interface World {
  alice: User;
  bob: User;
  admin: User;
  contactId: number;
  accountId: number;
  walletId: number;
  spareWalletId: number;
  depositId: number;
  jobId: string;
  /** A wallet-auth body that would sign in: a fresh nonce, signed. */
  signIn: { address: string; message: string; signature: string };
}

export type Who = "alice" | "bob" | "admin" | "nobody";

export interface Endpoint {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** As in the router, with :params. */
  route: string;
  /** The concrete path for Alice's rows. */
  path(w: World): string;
  auth: "public" | "user" | "admin";
  /** A body that would succeed (for Alice), or be read at least, so one broken field is the only fault. */
  body?(w: World): Record<string, unknown>;
}

export const jobPath = (w: World) => `/api/batch/${w.jobId}`;

/** Every endpoint of server/src/routes/*.ts as app.ts mounts it (a test below checks the list against the source). */
export const ENDPOINTS: Endpoint[] = [
  { method: "GET", route: "/api/health", path: () => "/api/health", auth: "public" },
  { method: "GET", route: "/api/live", path: () => "/api/live", auth: "public" },
  { method: "GET", route: "/api/ready", path: () => "/api/ready", auth: "public" },
  // No sign-in: a scraper's token or this machine (metrics.test.ts has its access cases).
  { method: "GET", route: "/api/metrics", path: () => "/api/metrics", auth: "public" },
  // Public: what /monitoring shows, from memory (monitoring.test.ts checks what it holds).
  { method: "GET", route: "/api/monitoring", path: () => "/api/monitoring", auth: "public" },
  { method: "GET", route: "/api/openapi.json", path: () => "/api/openapi.json", auth: "public" },
  { method: "GET", route: "/api/config", path: () => "/api/config", auth: "public" },
  { method: "GET", route: "/api/token", path: () => "/api/token", auth: "public" },
  { method: "GET", route: "/api/events", path: () => "/api/events", auth: "public" },
  { method: "GET", route: "/api/accounts/:address/history", path: () => `/api/accounts/${A}/history`, auth: "public" },
  // The exports for the books (exports.test.ts checks their rows): every one counts against one budget.
  { method: "GET", route: "/api/accounts/:address/history/export", path: () => `/api/accounts/${A}/history/export`, auth: "user" },
  { method: "GET", route: "/api/events/export", path: () => "/api/events/export", auth: "user" },
  { method: "GET", route: "/api/roles", path: () => "/api/roles", auth: "public" },
  { method: "GET", route: "/api/blocklist", path: () => "/api/blocklist", auth: "public" },
  { method: "GET", route: "/api/stats/supply", path: () => "/api/stats/supply", auth: "public" },
  { method: "GET", route: "/api/holders", path: () => "/api/holders", auth: "user" },
  { method: "GET", route: "/api/holders/export", path: () => "/api/holders/export", auth: "user" },
  { method: "GET", route: "/api/rewards/:address", path: () => `/api/rewards/${A}`, auth: "user" },
  { method: "POST", route: "/api/auth/nonce", path: () => "/api/auth/nonce", auth: "public" },
  { method: "POST", route: "/api/auth/wallet-auth", path: () => "/api/auth/wallet-auth", auth: "public", body: (w) => ({ ...w.signIn }) },
  { method: "GET", route: "/api/auth/me", path: () => "/api/auth/me", auth: "user" },
  {
    method: "POST",
    route: "/api/reward-multiplier",
    path: () => "/api/reward-multiplier",
    auth: "user",
    body: () => ({ value: "1.5", operation: "set" }),
  },
  { method: "GET", route: "/api/audit", path: () => "/api/audit", auth: "admin" },
  // Operators' alerts. No working bodies: this table's body cases are Alice's, and the admin check
  // answers her 403 before any body is read; alertRules.test.ts sends an admin's bad bodies.
  { method: "GET", route: "/api/alerts/rules", path: () => "/api/alerts/rules", auth: "admin" },
  { method: "POST", route: "/api/alerts/rules", path: () => "/api/alerts/rules", auth: "admin" },
  { method: "PATCH", route: "/api/alerts/rules/:id", path: () => "/api/alerts/rules/1", auth: "admin" },
  { method: "DELETE", route: "/api/alerts/rules/:id", path: () => "/api/alerts/rules/1", auth: "admin" },
  { method: "POST", route: "/api/alerts/rules/:id/rotate-secret", path: () => "/api/alerts/rules/1/rotate-secret", auth: "admin" },
  { method: "POST", route: "/api/alerts/rules/:id/test", path: () => "/api/alerts/rules/1/test", auth: "admin" },
  { method: "GET", route: "/api/alerts/deliveries", path: () => "/api/alerts/deliveries", auth: "admin" },
  // Safes. The paths name A, which is no Safe: a body that passes its checks meets a 404 (safes.test.ts
  // proposes to the seed's Safe), so no case here can store a proposal.
  { method: "GET", route: "/api/safes", path: () => "/api/safes", auth: "user" },
  { method: "GET", route: "/api/safes/:safe/proposals", path: () => `/api/safes/${A}/proposals`, auth: "user" },
  {
    method: "POST",
    route: "/api/safes/:safe/proposals",
    path: () => `/api/safes/${A}/proposals`,
    auth: "user",
    body: () => ({ tx: { ...SAFE_TX }, signature: SAFE_SIGNATURE }),
  },
  {
    method: "POST",
    route: "/api/safes/:safe/proposals/:hash/approvals",
    path: () => `/api/safes/${A}/proposals/${TX_HASH}/approvals`,
    auth: "user",
    body: () => ({ signature: SAFE_SIGNATURE }),
  },
  {
    method: "POST",
    route: "/api/batch/parse-csv",
    path: () => "/api/batch/parse-csv",
    auth: "user",
    body: () => ({ csvData: `Name,Address,Amount\nBob,${B},5\n` }),
  },
  {
    method: "POST",
    route: "/api/batch/execute",
    path: () => "/api/batch/execute",
    auth: "user",
    body: () => ({ recipients: [{ name: "Bob", address: B, amount: "1" }] }),
  },
  { method: "GET", route: "/api/batch/status", path: () => "/api/batch/status", auth: "user" },
  { method: "GET", route: "/api/batch", path: () => "/api/batch", auth: "user" },
  { method: "GET", route: "/api/batch/:id", path: jobPath, auth: "user" },
  { method: "GET", route: "/api/batch/:id/export", path: (w) => `${jobPath(w)}/export`, auth: "user" },
  {
    method: "POST",
    route: "/api/batch/:id/transactions",
    path: (w) => `${jobPath(w)}/transactions`,
    auth: "user",
    body: () => ({ chunkIndex: 0, txHash: TX_HASH }),
  },
  { method: "GET", route: "/api/contacts", path: () => "/api/contacts", auth: "user" },
  { method: "GET", route: "/api/contacts/export", path: () => "/api/contacts/export", auth: "user" },
  {
    method: "POST",
    route: "/api/contacts/import",
    path: () => "/api/contacts/import",
    auth: "user",
    body: () => ({ csvData: `Name,Address,Notes\nBob,${B},rent\n` }),
  },
  {
    method: "POST",
    route: "/api/contacts",
    path: () => "/api/contacts",
    auth: "user",
    body: () => ({ name: "Bob", address: B, notes: "rent" }),
  },
  {
    method: "PATCH",
    route: "/api/contacts/:id",
    path: (w) => `/api/contacts/${w.contactId}`,
    auth: "user",
    body: () => ({ name: "Renamed" }),
  },
  { method: "DELETE", route: "/api/contacts/:id", path: (w) => `/api/contacts/${w.contactId}`, auth: "user" },
  { method: "GET", route: "/api/bank/terms", path: () => "/api/bank/terms", auth: "user" },
  { method: "GET", route: "/api/bank/accounts", path: () => "/api/bank/accounts", auth: "user" },
  {
    method: "POST",
    route: "/api/bank/accounts",
    path: () => "/api/bank/accounts",
    auth: "user",
    body: () => ({ name: "Savings", type: "savings", accountNumber: "000123456789", routingNumber: "021000021" }),
  },
  { method: "DELETE", route: "/api/bank/accounts/:id", path: (w) => `/api/bank/accounts/${w.accountId}`, auth: "user" },
  { method: "GET", route: "/api/bank/wallets", path: () => "/api/bank/wallets", auth: "user" },
  { method: "POST", route: "/api/bank/wallets", path: () => "/api/bank/wallets", auth: "user", body: () => ({ name: "Cold", address: B }) },
  {
    method: "POST",
    route: "/api/bank/wallets/challenge",
    path: () => "/api/bank/wallets/challenge",
    auth: "user",
    body: () => ({ address: B }),
  },
  {
    method: "POST",
    route: "/api/bank/wallets/:id/verify",
    path: (w) => `/api/bank/wallets/${w.spareWalletId}/verify`,
    auth: "user",
    // Read, not accepted: a challenge never issued (bankFaucet.test.ts signs real ones).
    body: () => ({ challenge: "0".repeat(32), signature: `0x${"11".repeat(65)}` }),
  },
  { method: "POST", route: "/api/bank/wallets/:id/primary", path: (w) => `/api/bank/wallets/${w.spareWalletId}/primary`, auth: "user" },
  { method: "DELETE", route: "/api/bank/wallets/:id", path: (w) => `/api/bank/wallets/${w.spareWalletId}`, auth: "user" },
  { method: "GET", route: "/api/bank/deposits", path: () => "/api/bank/deposits", auth: "user" },
  { method: "GET", route: "/api/bank/deposits/:id", path: (w) => `/api/bank/deposits/${w.depositId}`, auth: "user" },
  {
    method: "POST",
    route: "/api/bank/deposits",
    path: () => "/api/bank/deposits",
    auth: "user",
    body: (w) => ({ bankAccountId: w.accountId, amount: "10", walletId: w.walletId }),
  },
];

export const endpoint = (method: string, route: string): Endpoint => {
  const found = ENDPOINTS.find((e) => e.method === method && e.route === route);
  if (!found) throw new Error(`no endpoint ${method} ${route} in the table`);
  return found;
};
export const withBody = ENDPOINTS.filter((e) => e.body);
export const protectedEndpoints = ENDPOINTS.filter((e) => e.auth !== "public");

// ---------------------------------------------------------------- cases

export interface Req {
  method: string;
  path: string;
  who: Who;
  /** Sent as the Authorization header as it is (instead of `who`'s token). */
  authorization?: string;
  /** JSON-encoded. */
  json?: unknown;
  /** Sent as it is. */
  raw?: string | Uint8Array | (() => ReadableStream<Uint8Array>);
  headers?: Record<string, string>;
}

export interface Case {
  category: Category;
  name: string;
  request(w: World): Req;
  /** The exact status; otherwise any 4xx. */
  status?: number;
  error?: string | RegExp;
  /** A 200 whose body the case checks (a CSV row refused in the parser's report, a listing without Alice's rows). */
  accepted?(body: LooseJson, w: World): void;
  /**
   * What the OpenAPI document makes of the request: 'invalid' by its schemas, or 'in words' (its
   * schemas let it through and a description says the rule JSON Schema cannot state).
   */
  document?: "invalid" | "in words";
}

/** The cases `build` adds, in the order it adds them: each case file builds its lists with it. */
export function casesOf(build: (add: (c: Case) => void) => void): Case[] {
  const cases: Case[] = [];
  build((c) => cases.push(c));
  return cases;
}

/** A copy of `base` with the value at `at` replaced (or removed when `value` is REMOVE). */
export const REMOVE = Symbol("remove");
function replaced(base: Record<string, unknown>, at: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(base);
  // A path into nested objects and arrays: each step is an index of the one before.
  type Node = Record<string | number, unknown>;
  let node = copy as Node;
  for (const key of at.slice(0, -1)) node = node[key] as Node;
  const last = at[at.length - 1];
  if (value === REMOVE) delete node[last];
  else node[last] = value;
  return copy;
}

/** A case that sends `e`'s working body with the field at `at` set to `value`, as Alice. */
export function fieldCase(
  category: Category,
  e: Endpoint,
  at: (string | number)[],
  what: string,
  value: unknown,
  expected: Partial<Case> = {},
): Case {
  return {
    category,
    name: `${e.method} ${e.route} ${at.join(".")}: ${what}`,
    request: (w) => ({ method: e.method, path: e.path(w), who: "alice", json: replaced(e.body!(w), at, value) }),
    ...expected,
  };
}

/** A body a test writes by hand (JSON with 1e400 in it, which JSON.stringify cannot write). */
export function rawJsonCase(category: Category, e: Endpoint, what: string, raw: (w: World) => string, expected: Partial<Case> = {}): Case {
  return {
    category,
    name: `${e.method} ${e.route}: ${what}`,
    request: (w) => ({ method: e.method, path: e.path(w), who: "alice", raw: raw(w), headers: { "content-type": "application/json" } }),
    ...expected,
  };
}

export const describeValue = (value: unknown) => {
  const text = typeof value === "string" ? `'${value}'` : JSON.stringify(value);
  return text.length > 48 ? `${text.slice(0, 40)}... (${text.length} chars)` : text;
};

/** The endpoints several case files break a field of. */
export const multiplier = endpoint("POST", "/api/reward-multiplier");
export const execute = endpoint("POST", "/api/batch/execute");
export const deposit = endpoint("POST", "/api/bank/deposits");
export const parseCsv = endpoint("POST", "/api/batch/parse-csv");

export const q = (category: Category, method: Req["method"], route: string, who: Who, status: number, error?: RegExp | string): Case => ({
  category,
  name: `${method} ${route}`,
  request: () => ({ method, path: route, who }),
  status,
  error,
});
