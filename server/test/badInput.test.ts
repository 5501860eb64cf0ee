/**
 * Bad input, everywhere (issue 7, item 3): a table of every endpoint of server/src/routes/*.ts and
 * a table of bad inputs for each, run against one server. Every refusal must be a 4xx JSON error
 * `{ success: false, error: "<sentence>" }` (never a 5xx, a page or a dropped connection), and the
 * user data in the database must be exactly as it was. Most cases start from a body that would
 * succeed and break one thing in it, so a check that let the bad value through would change the
 * database and fail the case. The count per category is printed at the end for the issue's note.
 */
import { gzipSync } from "node:zlib";
import { createHmac } from "node:crypto";
import { expect } from "chai";
import { Wallet } from "ethers";
import { API } from "@common/api";
import { EVENTS_MAX_LIMIT, HISTORY_MAX_LIMIT } from "@common/events";
import {
  auditLog,
  bankAccounts,
  bankWalletChallenges,
  bankWallets,
  batchChunks,
  batchJobs,
  batchRecipients,
  contacts,
  deposits,
  siweNonces,
} from "../src/db/schema";
import type { RunningServer } from "../src/index";
import { checkAnswer } from "./answerCheck";
import { emailUser, siweMessage, startTestServer, unsignedToken, walletUser } from "./helpers";
import { FIREBASE_PROJECT } from "./stack";

// ---------------------------------------------------------------- values

// EIP-55's own examples (checksummed), and one with a letter's case flipped: right hex, wrong checksum.
const A = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const B = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359";
const C = "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB";
const D = "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb";
const E = "0x52908400098527886E0F7030069857D2E4169EE7";
const BAD_CHECKSUM = `${A.slice(0, -1)}D`;
const TX_HASH = `0x${"ab".repeat(32)}`;
const MAX_UINT256 = 2n ** 256n - 1n;

/** Addresses that are not 0x followed by 40 hex characters with a right (or no) checksum. */
const BAD_ADDRESSES: [string, string][] = [
  ["a short address", "0x1234"],
  ["39 hex digits", `0x${"a".repeat(39)}`],
  ["41 hex digits", `0x${"a".repeat(41)}`],
  ["no 0x", A.slice(2)],
  ["0X in capitals", `0X${A.slice(2)}`],
  ["a non-hex letter", `0x${"g".repeat(40)}`],
  ["a wrong checksum", BAD_CHECKSUM],
  ["an ENS name", "alice.eth"],
  ["a space inside", `${A.slice(0, 20)} ${A.slice(20)}`],
  ["a Cyrillic 'а' for 'a'", A.replace("a", "\u0430")],
  ["fullwidth digits", `0x${"\uFF11".repeat(40)}`],
  ["an RTL override inside", `${A.slice(0, 10)}\u202E${A.slice(10)}`],
];

/** Amount text that is not a plain positive decimal a uint256 can hold, by category. */
const NEGATIVE = ["-1", "-0.5", "\u22121", "-0", "-0.000000000000000001"];
const EXPONENT = ["1e3", "1E3", "1e-3", "2e18", "0x10", "Infinity", "NaN", "1_000", "1,000", "+5"];
const DECIMALS_19 = ["1.0000000000000000001", "0.0000000000000000001"];
const HUGE_TEXT = ["1e400", (MAX_UINT256 + 2n).toString(), "9".repeat(80)];

type Category =
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
  | "other user";

// ---------------------------------------------------------------- the world the cases run in

interface User {
  idToken: string;
  uid: string;
}

/** Alice's rows, which every case must leave alone; Bob and an admin wallet try to reach them. */
interface World {
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

type Who = "alice" | "bob" | "admin" | "nobody";

interface Endpoint {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** As in the router, with :params. */
  route: string;
  /** The concrete path for Alice's rows. */
  path(w: World): string;
  auth: "public" | "user" | "admin";
  /** A body that would succeed (for Alice), or be read at least, so one broken field is the only fault. */
  body?(w: World): Record<string, unknown>;
}

const jobPath = (w: World) => `/api/batch/${w.jobId}`;

/** Every endpoint of server/src/routes/*.ts as app.ts mounts it (a test below checks the list against the source). */
const ENDPOINTS: Endpoint[] = [
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
  { method: "GET", route: "/api/roles", path: () => "/api/roles", auth: "public" },
  { method: "GET", route: "/api/blocklist", path: () => "/api/blocklist", auth: "public" },
  { method: "GET", route: "/api/stats/supply", path: () => "/api/stats/supply", auth: "public" },
  { method: "GET", route: "/api/holders", path: () => "/api/holders", auth: "user" },
  { method: "GET", route: "/api/holders/export", path: () => "/api/holders/export", auth: "user" },
  { method: "GET", route: "/api/rewards/:address", path: () => `/api/rewards/${A}`, auth: "user" },
  { method: "POST", route: "/api/auth/nonce", path: () => "/api/auth/nonce", auth: "public" },
  { method: "POST", route: "/api/auth/wallet-auth", path: () => "/api/auth/wallet-auth", auth: "public", body: (w) => ({ ...w.signIn }) },
  { method: "GET", route: "/api/auth/me", path: () => "/api/auth/me", auth: "user" },
  { method: "POST", route: "/api/reward-multiplier", path: () => "/api/reward-multiplier", auth: "user", body: () => ({ value: "1.5", operation: "set" }) },
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
  { method: "POST", route: "/api/contacts", path: () => "/api/contacts", auth: "user", body: () => ({ name: "Bob", address: B, notes: "rent" }) },
  { method: "PATCH", route: "/api/contacts/:id", path: (w) => `/api/contacts/${w.contactId}`, auth: "user", body: () => ({ name: "Renamed" }) },
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
  { method: "POST", route: "/api/bank/wallets/challenge", path: () => "/api/bank/wallets/challenge", auth: "user", body: () => ({ address: B }) },
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

const endpoint = (method: string, route: string): Endpoint => {
  const found = ENDPOINTS.find((e) => e.method === method && e.route === route);
  if (!found) throw new Error(`no endpoint ${method} ${route} in the table`);
  return found;
};
const withBody = ENDPOINTS.filter((e) => e.body);
const protectedEndpoints = ENDPOINTS.filter((e) => e.auth !== "public");

// ---------------------------------------------------------------- cases

interface Req {
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

interface Case {
  category: Category;
  name: string;
  request(w: World): Req;
  /** The exact status; otherwise any 4xx. */
  status?: number;
  error?: string | RegExp;
  /** A 200 whose body the case checks (a CSV row refused in the parser's report, a listing without Alice's rows). */
  accepted?(body: any, w: World): void;
}

const cases: Case[] = [];
const add = (c: Case) => cases.push(c);

/** A copy of `base` with the value at `at` replaced (or removed when `value` is REMOVE). */
const REMOVE = Symbol("remove");
function replaced(base: Record<string, unknown>, at: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(base) as any;
  let node = copy;
  for (const key of at.slice(0, -1)) node = node[key];
  const last = at[at.length - 1];
  if (value === REMOVE) delete node[last];
  else node[last] = value;
  return copy;
}

/** A case that sends `e`'s working body with the field at `at` set to `value`, as Alice. */
function fieldCase(category: Category, e: Endpoint, at: (string | number)[], what: string, value: unknown, expected: Partial<Case> = {}) {
  add({
    category,
    name: `${e.method} ${e.route} ${at.join(".")}: ${what}`,
    request: (w) => ({ method: e.method, path: e.path(w), who: "alice", json: replaced(e.body!(w), at, value) }),
    ...expected,
  });
}

/** A body a test writes by hand (JSON with 1e400 in it, which JSON.stringify cannot write). */
function rawJsonCase(category: Category, e: Endpoint, what: string, raw: (w: World) => string, expected: Partial<Case> = {}) {
  add({
    category,
    name: `${e.method} ${e.route}: ${what}`,
    request: (w) => ({ method: e.method, path: e.path(w), who: "alice", raw: raw(w), headers: { "content-type": "application/json" } }),
    ...expected,
  });
}

const describeValue = (value: unknown) => {
  const text = typeof value === "string" ? `'${value}'` : JSON.stringify(value);
  return text.length > 48 ? `${text.slice(0, 40)}... (${text.length} chars)` : text;
};

// ---- malformed JSON: every endpoint that reads a body (and every other non-GET, since the parser runs first)

const MALFORMED: [string, string | Uint8Array][] = [
  ["a truncated object", '{"name": "Alice", '],
  ["single quotes", "{'name': 'Alice'}"],
  ["a trailing comma", '{"name": "Alice",}'],
  ["an unquoted key", '{name: "Alice"}'],
  ["NaN", '{"value": NaN}'],
  ["a bare string", '"just text"'],
  ["a bare number", "42"],
  ["null", "null"],
  ["a NUL byte", "\u0000"],
  ["two objects", '{"a":1}{"b":2}'],
  ["XML", "<contact><name>Alice</name></contact>"],
];
// JSON once decoded leniently or parsed without recursion: a wrong body for the endpoints that read one
// (the others rightly ignore a body they do not read).
const ODD_BUT_PARSEABLE: [string, string | Uint8Array][] = [
  ["invalid UTF-8 (decoded with replacement characters)", new Uint8Array([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d])],
  ["100,000 nested arrays", "[".repeat(100_000) + "]".repeat(100_000)],
];
for (const e of ENDPOINTS.filter((x) => x.method !== "GET")) {
  for (const [what, raw] of [...MALFORMED, ...(e.body ? ODD_BUT_PARSEABLE : [])]) {
    add({
      category: "malformed JSON",
      name: `${e.method} ${e.route}: ${what}`,
      request: (w) => ({ method: e.method, path: e.path(w), who: "alice", raw, headers: { "content-type": "application/json" } }),
      status: 400,
    });
  }
}

// ---- wrong content types: the working body, sent so that it must not be read as JSON

// Not read as JSON: the routes say to send JSON (contacts and the bank ask for the missing fields instead).
const NOT_JSON = /^(Invalid request body: send it as JSON, with Content-Type: application\/json\.|Missing [Ii]nformation|Invalid request body: Nothing to change)/;
const CONTENT_TYPES: { what: string; status?: number; error?: string | RegExp; request(body: string): Pick<Req, "raw" | "headers"> }[] = [
  { what: "text/plain", error: NOT_JSON, request: (b) => ({ raw: b, headers: { "content-type": "text/plain" } }) },
  { what: "text/csv", error: NOT_JSON, request: (b) => ({ raw: b, headers: { "content-type": "text/csv" } }) },
  { what: "a form", error: NOT_JSON, request: () => ({ raw: "name=Bob&address=0x00&value=1.5", headers: { "content-type": "application/x-www-form-urlencoded" } }) },
  {
    what: "multipart",
    error: NOT_JSON,
    request: (b) => ({ raw: `--x\r\nContent-Disposition: form-data; name="json"\r\n\r\n${b}\r\n--x--\r\n`, headers: { "content-type": "multipart/form-data; boundary=x" } }),
  },
  { what: "application/xml", error: NOT_JSON, request: (b) => ({ raw: b, headers: { "content-type": "application/xml" } }) },
  { what: "no content type", error: NOT_JSON, request: (b) => ({ raw: new TextEncoder().encode(b) }) },
  // body-parser takes any utf-* charset; UTF-8 bytes read as UTF-16 are not JSON.
  { what: "UTF-8 bytes labelled UTF-16", status: 400, request: (b) => ({ raw: b, headers: { "content-type": "application/json; charset=utf-16" } }) },
  { what: "JSON in Latin-1", status: 415, request: (b) => ({ raw: b, headers: { "content-type": "application/json; charset=iso-8859-1" } }) },
  { what: "gzip that is not gzip", error: "The request body could not be decompressed: it is not valid gzip or deflate data.", request: (b) => ({ raw: b, headers: { "content-type": "application/json", "content-encoding": "gzip" } }) },
  { what: "an unknown encoding", status: 415, request: (b) => ({ raw: b, headers: { "content-type": "application/json", "content-encoding": "compress" } }) },
];
for (const e of withBody) {
  for (const t of CONTENT_TYPES) {
    add({
      category: "content type",
      name: `${e.method} ${e.route}: ${t.what}`,
      request: (w) => ({ method: e.method, path: e.path(w), who: "alice", ...t.request(JSON.stringify(e.body!(w))) }),
      status: t.status,
      error: t.error,
    });
  }
}

// ---- wrong types for every field

const NOT_TEXT: unknown[] = [12345, 0, true, [], ["x"], {}, { $ne: null }, null];
const NOT_ID: unknown[] = ["abc", "1.5", 1.5, 0, true, [], [1], {}, { $gt: 0 }];
const fields: [string, (string | number)[], unknown[]][] = [
  ["POST /api/auth/wallet-auth", ["address"], NOT_TEXT],
  ["POST /api/auth/wallet-auth", ["message"], NOT_TEXT],
  ["POST /api/auth/wallet-auth", ["signature"], NOT_TEXT],
  ["POST /api/reward-multiplier", ["value"], [1.5, ...NOT_TEXT]],
  ["POST /api/reward-multiplier", ["operation"], ["SET", "multiply", "", ...NOT_TEXT]],
  ["POST /api/batch/parse-csv", ["csvData"], [...NOT_TEXT, ["Name,Address,Amount"]]],
  ["POST /api/batch/execute", ["recipients"], ["0x00", 5, {}, null, [5], [null], [[]], [{}], [{ address: B }]]],
  ["POST /api/batch/execute", ["recipients", 0, "address"], NOT_TEXT],
  ["POST /api/batch/execute", ["recipients", 0, "amount"], [5, ...NOT_TEXT]],
  ["POST /api/batch/execute", ["recipients", 0, "name"], [12345, true, [], {}]],
  ["POST /api/batch/execute", ["payer"], [12345, true, [], {}]],
  ["POST /api/batch/:id/transactions", ["chunkIndex"], ["0", "abc", 0.5, true, [], {}, null]],
  ["POST /api/batch/:id/transactions", ["txHash"], [...NOT_TEXT, "0x1234", `0x${"zz".repeat(32)}`, TX_HASH.slice(2)]],
  ["POST /api/contacts/import", ["csvData"], [...NOT_TEXT, ["Name,Address"]]],
  ["POST /api/contacts", ["name"], NOT_TEXT],
  ["POST /api/contacts", ["address"], NOT_TEXT],
  // notes: null is a valid "none".
  ["POST /api/contacts", ["notes"], [12345, true, [], {}]],
  ["PATCH /api/contacts/:id", ["name"], NOT_TEXT],
  ["PATCH /api/contacts/:id", ["notes"], [12345, true, [], {}]],
  ["POST /api/bank/accounts", ["name"], NOT_TEXT],
  ["POST /api/bank/accounts", ["type"], ["Checking", "loan", ...NOT_TEXT]],
  ["POST /api/bank/accounts", ["accountNumber"], [123456789, ...NOT_TEXT, "12", "12345678901234567890", "1234-5678"]],
  ["POST /api/bank/accounts", ["routingNumber"], [21000021, ...NOT_TEXT, "12345678", "0210000210"]],
  ["POST /api/bank/wallets", ["name"], NOT_TEXT],
  ["POST /api/bank/wallets", ["address"], NOT_TEXT],
  ["POST /api/bank/wallets", ["challenge"], [...NOT_TEXT, "0x1234", "g".repeat(32)]],
  ["POST /api/bank/wallets", ["signature"], [...NOT_TEXT, "0x1234", `0x${"zz".repeat(65)}`]],
  ["POST /api/bank/wallets/challenge", ["address"], NOT_TEXT],
  ["POST /api/bank/wallets/:id/verify", ["challenge"], [...NOT_TEXT, "0x1234"]],
  ["POST /api/bank/wallets/:id/verify", ["signature"], [...NOT_TEXT, "0x1234"]],
  ["POST /api/bank/deposits", ["bankAccountId"], [...NOT_ID, null]],
  ["POST /api/bank/deposits", ["amount"], [10, ...NOT_TEXT]],
  // walletId: null means "the primary wallet".
  ["POST /api/bank/deposits", ["walletId"], NOT_ID],
];
for (const [name, at, values] of fields) {
  const [method, route] = name.split(" ");
  for (const value of values) fieldCase("wrong type", endpoint(method, route), at, describeValue(value), value, { status: 400 });
}
// Required fields left out: each is a 400, never a default.
for (const [name, at] of [
  ["POST /api/auth/wallet-auth", ["signature"]],
  ["POST /api/reward-multiplier", ["operation"]],
  ["POST /api/batch/execute", ["recipients"]],
  ["POST /api/batch/execute", ["recipients", 0, "amount"]],
  ["POST /api/batch/:id/transactions", ["txHash"]],
  ["POST /api/contacts", ["address"]],
  ["POST /api/bank/accounts", ["routingNumber"]],
  ["POST /api/bank/deposits", ["amount"]],
] as [string, (string | number)[]][]) {
  const [method, route] = name.split(" ");
  fieldCase("wrong type", endpoint(method, route), at, "left out", REMOVE, { status: 400 });
}
// An empty list of recipients is no batch.
fieldCase("wrong type", endpoint("POST", "/api/batch/execute"), ["recipients"], "an empty list", [], { status: 400, error: /^No valid recipients found/ });

// ---- amounts: negative, exponent, 19 decimals, huge; each where a token or dollar amount is read

const multiplier = endpoint("POST", "/api/reward-multiplier");
const execute = endpoint("POST", "/api/batch/execute");
const deposit = endpoint("POST", "/api/bank/deposits");
const parseCsv = endpoint("POST", "/api/batch/parse-csv");
/** The spec's form of execute: one amount for a list of addresses. */
const spreadForm = (amount: unknown) => ({ recipients: [B, C], amount });

/** parse-csv reports a bad cell in a 200, under the row: the spec's reason and nothing valid. */
function csvRowCase(category: Category, cell: "address" | "amount" | "name", value: string, reason: string) {
  const row = { name: "Bob", address: B, amount: "5", [cell]: value };
  const quote = (text: string) => `"${text.replace(/"/g, '""')}"`;
  add({
    category,
    name: `POST /api/batch/parse-csv: ${cell} cell ${describeValue(value)}`,
    request: () => ({
      method: "POST",
      path: parseCsv.path({} as World),
      who: "alice",
      json: { csvData: `Name,Address,Amount\n${quote(row.name)},${quote(row.address)},${quote(row.amount)}\n` },
    }),
    accepted: (body) => {
      expect(body.data.validRecipients).to.deep.equal([]);
      expect(body.data.invalidEntries).to.have.length(1);
      expect(body.data.invalidEntries[0].reason).to.equal(reason);
      expect(body.data.totalAmount).to.equal("0");
    },
  });
}

const amountCategories: [Category, string[]][] = [
  ["negative amount", NEGATIVE],
  ["exponent amount", EXPONENT],
  ["19 decimals", DECIMALS_19],
  ["huge number", HUGE_TEXT],
];
for (const [category, values] of amountCategories) {
  for (const value of values) {
    const what = describeValue(value);
    fieldCase(category, multiplier, ["value"], what, value, { status: 400, error: /^Invalid value/ });
    fieldCase(category, execute, ["recipients", 0, "amount"], what, value, { status: 400, error: /^The batch has invalid recipients, so nothing was started: recipient 1: Invalid amount/ });
    add({
      category,
      name: `POST /api/batch/execute (one amount for all): ${what}`,
      request: () => ({ method: "POST", path: execute.path({} as World), who: "alice", json: spreadForm(value) }),
      status: 400,
      error: /^The batch has invalid recipients/,
    });
    fieldCase(category, deposit, ["amount"], what, value, { status: 400, error: /^Invalid Deposit: / });
    csvRowCase(category, "amount", value, "Invalid amount");
  }
}
// The multiplier's "add" with each bad value (the loop above broke `operation`; this breaks `value` under add).
for (const [category, values] of amountCategories) {
  for (const value of values) {
    add({
      category,
      name: `POST /api/reward-multiplier add: ${describeValue(value)}`,
      request: () => ({ method: "POST", path: multiplier.path({} as World), who: "alice", json: { value, operation: "add" } }),
      status: 400,
      error: /^Invalid value/,
    });
  }
}
// Dollars have cents: three decimals is one too many; the mock's limit is 1,000,000.00.
fieldCase("19 decimals", deposit, ["amount"], "3 decimals of a dollar", "1.001", { status: 400, error: /has 3 decimals/ });
fieldCase("huge number", deposit, ["amount"], "one cent over the limit", "1000000.01", { status: 400, error: /at most 1,000,000.00 USD/ });
fieldCase("huge number", deposit, ["amount"], "41 digits", "9".repeat(41), { status: 400 });
fieldCase("huge number", multiplier, ["value"], "81 digits", "9".repeat(81), { status: 400 });
fieldCase("huge number", multiplier, ["value"], "2^256 - 1 whole tokens (beyond a uint256 in base units)", MAX_UINT256.toString(), { status: 400, error: /^Invalid value/ });
fieldCase("huge number", execute, ["recipients", 0, "amount"], "101 characters", "1".repeat(101), { status: 400 });
// Each amount fits, the total does not: the contract could never pay it.
add({
  category: "huge number",
  name: "POST /api/batch/execute: two amounts whose total is beyond a uint256",
  request: () => {
    const half = ((MAX_UINT256 / 2n + 1n) / 10n ** 18n + 1n).toString();
    return { method: "POST", path: execute.path({} as World), who: "alice", json: { recipients: [{ address: B, amount: half }, { address: C, amount: half }] } };
  },
  status: 400,
});
// JSON numbers too large for a double arrive as Infinity; too large for an id or an index.
rawJsonCase("huge number", multiplier, "value 1e400 as a JSON number", () => '{"value": 1e400, "operation": "set"}', { status: 400 });
rawJsonCase("huge number", deposit, "bankAccountId 1e400", (w) => `{"bankAccountId": 1e400, "amount": "10", "walletId": ${w.walletId}}`, { status: 400 });
rawJsonCase("huge number", deposit, "amount 1e400 as a JSON number", (w) => `{"bankAccountId": ${w.accountId}, "amount": 1e400}`, { status: 400 });
rawJsonCase("huge number", endpoint("POST", "/api/batch/:id/transactions"), "chunkIndex 1e400", () => `{"chunkIndex": 1e400, "txHash": "${TX_HASH}"}`, { status: 400 });
for (const value of [2 ** 31, 2 ** 53 + 2, Number.MAX_VALUE]) {
  fieldCase("huge number", deposit, ["bankAccountId"], String(value), value, { status: 400 });
  fieldCase("huge number", deposit, ["walletId"], String(value), value, { status: 400 });
  fieldCase("huge number", endpoint("POST", "/api/batch/:id/transactions"), ["chunkIndex"], String(value), value, { status: 400 });
}
fieldCase("huge number", deposit, ["bankAccountId"], "2147483648 as text", "2147483648", { status: 400 });
fieldCase("negative amount", deposit, ["bankAccountId"], "-1", -1, { status: 400 });
fieldCase("negative amount", endpoint("POST", "/api/batch/:id/transactions"), ["chunkIndex"], "-1", -1, { status: 400 });
// A chunk the job does not have.
fieldCase("huge number", endpoint("POST", "/api/batch/:id/transactions"), ["chunkIndex"], "a chunk the job does not have", 7, { status: 400, error: /has no chunk 7/ });

// ---- addresses

const addressFields: [Endpoint, (string | number)[], RegExp?][] = [
  [endpoint("POST", "/api/contacts"), ["address"], /^Invalid address - /],
  [endpoint("PATCH", "/api/contacts/:id"), ["address"], /^Invalid address - /],
  [endpoint("POST", "/api/bank/wallets"), ["address"], /^Invalid Address: /],
  [endpoint("POST", "/api/bank/wallets/challenge"), ["address"], /^Invalid Address: /],
  [execute, ["recipients", 0, "address"], /recipient 1: Invalid Ethereum address/],
  [execute, ["payer"], /^payer: /],
  [endpoint("POST", "/api/auth/wallet-auth"), ["address"]],
];
for (const [what, address] of BAD_ADDRESSES) {
  for (const [e, at, error] of addressFields) fieldCase("address", e, at, what, address, { status: 400, error });
  add({
    category: "address",
    name: `POST /api/batch/execute (one amount for all): ${what}`,
    request: () => ({ method: "POST", path: execute.path({} as World), who: "alice", json: { recipients: [B, address], amount: "1" } }),
    status: 400,
    error: /recipient 2: Invalid Ethereum address/,
  });
  csvRowCase("address", "address", address, "Invalid Ethereum address");
  add({
    category: "address",
    name: `GET /api/accounts/:address/history: ${what}`,
    request: () => ({ method: "GET", path: `/api/accounts/${encodeURIComponent(address)}/history`, who: "nobody" }),
    // A wrong checksum is still 0x and 40 hex: a read may take it (the index is in lower case).
    ...(address === BAD_CHECKSUM ? { accepted: (body: any) => expect(body).to.deep.equal({ items: [], nextCursor: null }) } : { status: 400 }),
  });
}
fieldCase("address", endpoint("POST", "/api/bank/wallets"), ["address"], "the zero address", `0x${"0".repeat(40)}`, { status: 400, error: "Invalid Address: the zero address cannot hold tokens." });
fieldCase("address", endpoint("POST", "/api/bank/wallets"), ["address"], "a wallet Alice already has", C.toLowerCase(), { status: 409, error: /^Duplicate Wallet: / });
fieldCase("address", endpoint("POST", "/api/contacts"), ["address"], "a contact Alice already has, in capitals", `0x${A.slice(2).toUpperCase()}`, { status: 409, error: /^Duplicate address - / });

// ---- unicode and control characters

const LONG = "x".repeat(10_000);
const textFields: [Endpoint, (string | number)[], [string, string, (string | RegExp)?][]][] = [
  [
    endpoint("POST", "/api/contacts"),
    ["name"],
    [
      ["a NUL", "Bob\u0000", /^Invalid name - /],
      ["a line break", "Bo\nb", /^Invalid name - /],
      ["an RTL override", "Bob\u202Egnp.exe", /^Invalid name - /],
      ["a bidi isolate", "\u2066Bob", /^Invalid name - /],
      ["an escape sequence", "Bob\u001b[31m", /^Invalid name - /],
      ["10,000 characters", LONG, /^Name too long - /],
      ["101 emoji", "😀".repeat(101), /^Name too long - /],
      ["only zero-width spaces", "   ", /^Missing information - /],
    ],
  ],
  [
    endpoint("POST", "/api/contacts"),
    ["notes"],
    [
      ["a NUL", "a\u0000b", /^Invalid notes - /],
      ["an RTL override", "\u202Eevil", /^Invalid notes - /],
      ["10,000 characters", LONG, /^Notes too long - /],
    ],
  ],
  [
    endpoint("PATCH", "/api/contacts/:id"),
    ["name"],
    [
      ["a NUL", "Bob\u0000", /^Invalid name - /],
      ["an RTL override", "Bob\u202E", /^Invalid name - /],
      ["10,000 characters", LONG, /^Name too long - /],
    ],
  ],
  [
    endpoint("POST", "/api/bank/accounts"),
    ["name"],
    [
      ["a NUL", "Savings\u0000"],
      ["a line break", "Sav\nings"],
      ["an RTL override", "Savings\u202Egnp"],
      ["101 characters", "s".repeat(101)],
    ],
  ],
  [
    endpoint("POST", "/api/bank/accounts"),
    ["accountNumber"],
    [
      ["fullwidth digits", "\uFF10\uFF11\uFF12\uFF13\uFF14\uFF15"],
      ["Arabic-Indic digits", "\u0661\u0662\u0663\u0664\u0665"],
      ["a NUL between digits", "0001\u00002345"],
    ],
  ],
  [
    endpoint("POST", "/api/bank/wallets"),
    ["name"],
    [
      ["a NUL", "Cold\u0000"],
      ["a tab", "Co\tld"],
      ["an RTL override", "Cold\u202E"],
      ["10,000 characters", LONG],
    ],
  ],
  [
    execute,
    ["recipients", 0, "name"],
    [
      ["a NUL", "Bob\u0000", /Invalid name/],
      ["a line break", "Bo\nb", /Invalid name/],
      ["an RTL override", "Bob\u202Egnp.exe", /Invalid name/],
      ["150 characters", "n".repeat(150), /Invalid name/],
      ["10,000 characters", LONG],
    ],
  ],
  [
    multiplier,
    ["value"],
    [
      ["fullwidth digits", "\uFF11.\uFF15", /^Invalid value/],
      ["Arabic-Indic digits", "\u0661", /^Invalid value/],
      ["an emoji", "1.5💰", /^Invalid value/],
      ["a NUL", "1.5\u0000", /^Invalid value/],
    ],
  ],
  [multiplier, ["operation"], [["a NUL", "set\u0000"], ["Cyrillic 'ѕ'", "\u0455et"]]],
  [deposit, ["amount"], [["a euro sign", "10€", /^Invalid Deposit: /], ["a NUL", "10\u0000", /^Invalid Deposit: /], ["fullwidth digits", "\uFF11\uFF10", /^Invalid Deposit: /]]],
  [
    endpoint("POST", "/api/auth/wallet-auth"),
    ["message"],
    [
      ["a NUL", "localhost wants you to sign in\u0000"],
      ["4,001 characters", "m".repeat(4001)],
      ["only spaces", "   "],
    ],
  ],
];
for (const [e, at, values] of textFields) {
  for (const [what, value, error] of values) fieldCase("unicode/control", e, at, what, value, { status: 400, error });
}
csvRowCase("unicode/control", "name", "Bob\u0000", "Invalid name");
csvRowCase("unicode/control", "name", "Bob\u202Egnp.exe", "Invalid name");
csvRowCase("unicode/control", "amount", "5\u0000", "Invalid amount");
csvRowCase("unicode/control", "address", `${B}\u200B`, "Invalid Ethereum address");
fieldCase("unicode/control", parseCsv, ["csvData"], "only NUL bytes", "\u0000\u0000\u0000", { status: 400, error: /^The CSV header must name the columns/ });
fieldCase("unicode/control", endpoint("POST", "/api/contacts/import"), ["csvData"], "only NUL bytes", "\u0000\u0000\u0000", { status: 400, error: /^The CSV header must name the columns/ });
fieldCase("unicode/control", endpoint("POST", "/api/contacts/import"), ["csvData"], "a row whose name has a NUL", `Name,Address\nBob\u0000,${B}\n`, {
  accepted: (body) => {
    expect(body.imported).to.equal(0);
    expect(body.skipped).to.deep.equal([{ line: 2, reason: "Invalid name - The name cannot contain control characters such as line breaks or tabs" }]);
  },
});
for (const [what, query] of [
  ["a NUL in the search", "?search=%00"],
  ["an RTL override in the search", "?search=%E2%80%AE"],
] as const) {
  add({
    category: "unicode/control",
    name: `GET /api/contacts: ${what}`,
    request: () => ({ method: "GET", path: `/api/contacts${query}`, who: "alice" }),
    // Nothing matches it; what matters is an answer, not a database error.
    accepted: (body) => expect(body).to.deep.include({ success: true, contacts: [], total: 0 }),
    ...(query.includes("%00") ? { accepted: undefined, status: 400, error: /^Invalid request query: search: / } : {}),
  });
}
for (const [what, query] of [
  ["a NUL", "%00"],
  ["an RTL override", "Transfer%E2%80%AE"],
  ["an emoji", "%F0%9F%98%80"],
] as const) {
  add({
    category: "unicode/control",
    name: `GET /api/events: eventName with ${what}`,
    request: () => ({ method: "GET", path: `/api/events?eventName=${query}`, who: "nobody" }),
    status: 400,
    error: /^Unknown eventName /,
  });
}

// ---- 10 MB bodies: the JSON limit is 1 MB, and a CSV travels inside JSON

const TEN_MB = 10 * 1024 * 1024;
const bigText = () => "a".repeat(TEN_MB);
for (const e of withBody) {
  add({
    category: "10 MB body",
    name: `${e.method} ${e.route}: 10 MB of JSON`,
    request: (w) => ({ method: e.method, path: e.path(w), who: "alice", json: { ...e.body!(w), padding: bigText() } }),
    status: 413,
    error: "The request body is larger than the 1 MB limit.",
  });
}
for (const e of [parseCsv, endpoint("POST", "/api/contacts/import")]) {
  const csv = () => `Name,Address,Amount\n${`Bob,${B},5\n`.repeat(Math.ceil(TEN_MB / 50))}`;
  add({
    category: "10 MB body",
    name: `${e.method} ${e.route}: a 10 MB CSV inside the JSON`,
    request: () => ({ method: "POST", path: e.route, who: "alice", json: { csvData: csv() } }),
    status: 413,
  });
  add({
    category: "10 MB body",
    name: `${e.method} ${e.route}: a 10 MB CSV sent as text/csv`,
    request: () => ({ method: "POST", path: e.route, who: "alice", raw: csv(), headers: { "content-type": "text/csv" } }),
    status: 400,
    error: NOT_JSON,
  });
  add({
    category: "10 MB body",
    name: `${e.method} ${e.route}: 10 MB that gzip squeezes to a few KB`,
    request: () => ({
      method: "POST",
      path: e.route,
      who: "alice",
      raw: new Uint8Array(gzipSync(JSON.stringify({ csvData: bigText() }))),
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
    }),
    status: 413,
  });
  add({
    category: "10 MB body",
    name: `${e.method} ${e.route}: 10 MB streamed without a length`,
    request: () => ({
      method: "POST",
      path: e.route,
      who: "alice",
      headers: { "content-type": "application/json" },
      raw: () => {
        const chunk = new TextEncoder().encode("a".repeat(64 * 1024));
        let sent = 0;
        return new ReadableStream<Uint8Array>({
          pull(controller) {
            if (sent === 0) controller.enqueue(new TextEncoder().encode('{"csvData":"'));
            if (sent >= TEN_MB) {
              controller.enqueue(new TextEncoder().encode('"}'));
              controller.close();
              return;
            }
            sent += chunk.length;
            controller.enqueue(chunk);
          },
        });
      },
    }),
    status: 413,
  });
}

// ---- query strings and path parameters

const q = (category: Category, method: Req["method"], route: string, who: Who, status: number, error?: RegExp | string): Case => ({
  category,
  name: `${method} ${route}`,
  request: () => ({ method, path: route, who }),
  status,
  error,
});
const qw = (method: Req["method"], pathOf: (w: World) => string, label: string, who: Who, status: number, error?: RegExp | string, body?: unknown): Case => ({
  category: "query/path",
  name: `${method} ${label}`,
  request: (w) => ({ method, path: pathOf(w), who, json: body }),
  status,
  error,
});
for (const query of [
  "limit=0",
  "limit=-1",
  "limit=1e3",
  "limit=abc",
  "limit=1.5",
  "limit=1&limit=2",
  `limit=${EVENTS_MAX_LIMIT + 1}`,
  "limit=1234567",
  "fromBlock=-1",
  "fromBlock=1e3",
  "fromBlock=0x10",
  "fromBlock=1234567890123456",
  "fromBlock=5&toBlock=3",
  "toBlock=abc",
  "toBlock=",
  "eventName=Nope",
  `eventName=${"T".repeat(65)}`,
  "eventName=Transfer&eventName=Approval",
  "cursor=abc",
  "cursor=1-2-3",
  "cursor=-1-0",
  `cursor=${"1".repeat(41)}`,
]) {
  add(q("query/path", "GET", `/api/events?${query}`, "nobody", 400));
}
for (const query of ["limit=0", `limit=${HISTORY_MAX_LIMIT + 1}`, "limit=x", "cursor=abc", "cursor=9999999999999999-1"]) {
  add(q("query/path", "GET", `/api/accounts/${A}/history?${query}`, "nobody", 400));
}
for (const query of ["points=0", "points=5001", "points=abc", "points=1.5", "points=-5"]) add(q("query/path", "GET", `/api/stats/supply?${query}`, "nobody", 400));
// The holders' own cases (sort, order, search, paging, addresses) are in holders.test.ts.
for (const query of ["sort=rank", "order=up", "search=alice", "offset=-1", "limit=501"]) add(q("query/path", "GET", `/api/holders?${query}`, "alice", 400, /^Invalid request query: /));
add(q("query/path", "GET", `/api/rewards/${BAD_CHECKSUM}`, "alice", 400, /wrong checksum/));
for (const query of [
  "limit=0",
  "limit=101",
  "limit=abc",
  "before=yesterday",
  "before=2020-13-01T00:00:00Z",
  "before=2021-02-30T00:00:00Z",
  "before=1700000000",
  "before=99999-01-01T00:00:00Z",
]) {
  add(q("query/path", "GET", `/api/batch?${query}`, "alice", 400));
}
for (const id of ["not-a-uuid", "1", "%00", "..%2F..%2Fconfig", "00000000-0000-0000-0000-00000000000g"]) {
  add(q("query/path", "GET", `/api/batch/${id}`, "alice", 400, /^Invalid request path: id: /));
  add({ ...q("query/path", "POST", `/api/batch/${id}/transactions`, "alice", 400), request: () => ({ method: "POST", path: `/api/batch/${id}/transactions`, who: "alice", json: { chunkIndex: 0, txHash: TX_HASH } }) });
}
add(q("query/path", "GET", "/api/batch/00000000-0000-4000-8000-000000000000", "alice", 404, /^No batch job /));
for (const query of ["offset=-1", "offset=abc", "offset=1234567", "limit=0", "limit=10001", "limit=1e3"]) {
  cases.push(qw("GET", (w) => `${jobPath(w)}?${query}`, `/api/batch/:id?${query}`, "alice", 400, /^Invalid request query: /));
}
for (const query of ["limit=0", "limit=1001", "offset=-1", "offset=1e3", `search=${"s".repeat(201)}`, "search=a&search=b"]) {
  add(q("query/path", "GET", `/api/contacts?${query}`, "alice", 400, /^Invalid request query: /));
}
for (const id of ["abc", "0", "-1", "1.5", "1e3", "99999999999", "2147483648", "%00", "0x10"]) {
  add({ ...q("query/path", "PATCH", `/api/contacts/${id}`, "alice", 400, /^Invalid request path: id: /), request: () => ({ method: "PATCH", path: `/api/contacts/${id}`, who: "alice", json: { name: "X" } }) });
  add(q("query/path", "DELETE", `/api/contacts/${id}`, "alice", 400, /^Invalid request path: id: /));
  add(q("query/path", "DELETE", `/api/bank/accounts/${id}`, "alice", 400, /^Invalid request path: id: /));
  add(q("query/path", "POST", `/api/bank/wallets/${id}/primary`, "alice", 400, /^Invalid request path: id: /));
  add(q("query/path", "DELETE", `/api/bank/wallets/${id}`, "alice", 400, /^Invalid request path: id: /));
  add(q("query/path", "GET", `/api/bank/deposits/${id}`, "alice", 400, /^Invalid request path: id: /));
}
for (const id of ["2147483647", "1"]) {
  add(q("query/path", "GET", `/api/bank/deposits/${id}`, "bob", 404, /^Deposit \d+ was not found among your deposits\.$/));
  add(q("query/path", "DELETE", `/api/contacts/${id}`, "bob", 404, "Contact not found - It may have been deleted"));
}
for (const query of ["limit=0", "limit=501", "limit=abc", "before=abc", "before=-1", "before=2147483648", "before=999999999999", "before=1e3"]) {
  add(q("query/path", "GET", `/api/audit?${query}`, "admin", 400, /^Invalid request query: /));
}
add(q("query/path", "GET", "/api/nope", "nobody", 404, "No such endpoint: GET /api/nope"));
add(q("query/path", "GET", "/nope", "nobody", 404, "No such endpoint: GET /nope"));
add(q("query/path", "POST", "/api/token", "nobody", 404, "No such endpoint: POST /api/token"));
add(q("query/path", "PUT", "/api/contacts/1", "alice", 404));
add(q("query/path", "GET", `/api/contacts/${"9".repeat(4000)}`, "alice", 404, /^No such endpoint: GET \/api\/contacts\/9+\.\.\.$/));
add(q("query/path", "GET", `/api/accounts/${"0x".padEnd(4000, "f")}/history`, "nobody", 400, /is not a valid address/));
add({
  category: "query/path",
  name: "GET a 20 KB URL",
  request: () => ({ method: "GET", path: `/api/events?eventName=${"x".repeat(20_000)}`, who: "nobody" }),
  status: 431,
});
add({
  category: "query/path",
  name: "GET with a 20 KB header",
  request: () => ({ method: "GET", path: "/api/token", who: "nobody", headers: { "x-padding": "p".repeat(20_000) } }),
  status: 431,
});

// ---- auth: missing, malformed, expired and forged tokens, against every protected endpoint

const seconds = () => Math.floor(Date.now() / 1000);
const claims = (uid: string, over: Record<string, unknown> = {}) => ({
  iss: `https://securetoken.google.com/${FIREBASE_PROJECT}`,
  aud: FIREBASE_PROJECT,
  sub: uid,
  user_id: uid,
  // Not before the user was created: the emulator treats older sign-ins as revoked.
  auth_time: seconds(),
  iat: seconds(),
  exp: seconds() + 3600,
  firebase: { identities: {}, sign_in_provider: "password" },
  ...over,
});
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
const signedWith = (alg: string, payload: object, sign: (data: string) => string) => {
  const data = `${b64({ alg, typ: "JWT", kid: "forged" })}.${b64(payload)}`;
  return `${data}.${sign(data)}`;
};

/** Each refused with 401; `uid` is Alice's, so a token wrongly accepted would act on her rows. */
const BAD_AUTH: [string, (w: World) => string, string?][] = [
  ["no Authorization header", () => ""],
  ["'Bearer' alone", () => "Bearer"],
  ["Basic credentials", () => "Basic YWxpY2U6cGFzc3dvcmQ="],
  ["a token of random text", () => "Bearer not-a-token"],
  ["three dots of garbage", () => "Bearer a.b.c"],
  ["two tokens", (w) => `Bearer ${w.alice.idToken} ${w.alice.idToken}`],
  ["a 10 KB token", () => `Bearer ${"a".repeat(10_000)}`],
  ["claims for another project (aud)", (w) => `Bearer ${unsignedToken(claims(w.alice.uid, { aud: "other-project" }))}`],
  ["claims from another issuer", (w) => `Bearer ${unsignedToken(claims(w.alice.uid, { iss: "https://securetoken.google.com/other-project" }))}`],
  ["claims from a non-Google issuer", (w) => `Bearer ${unsignedToken(claims(w.alice.uid, { iss: `https://evil.example/${FIREBASE_PROJECT}` }))}`],
  ["an expired token", (w) => `Bearer ${unsignedToken(claims(w.alice.uid, { iat: seconds() - 7200, exp: seconds() - 3600 }))}`, "Your session has expired: sign in again."],
  ["no subject", (w) => `Bearer ${unsignedToken(claims(w.alice.uid, { sub: undefined }))}`],
  ["an empty subject", (w) => `Bearer ${unsignedToken(claims(w.alice.uid, { sub: "" }))}`],
  ["a 129-character subject", () => `Bearer ${unsignedToken(claims("u".repeat(129)))}`],
  ["a subject with a NUL", (w) => `Bearer ${unsignedToken(claims(`${w.alice.uid}\u0000`))}`],
  ["a subject with a line break", (w) => `Bearer ${unsignedToken(claims(`${w.alice.uid}\nadmin`))}`],
  ["claims that are a list", () => `Bearer ${b64({ alg: "none" })}.${b64([1, 2])}.`],
  ["RS256 with a made-up signature", (w) => `Bearer ${signedWith("RS256", claims(w.alice.uid), () => "c2lnbmF0dXJl")}`],
  ["HS256 signed with a guessed secret", (w) => `Bearer ${signedWith("HS256", claims(w.alice.uid), (d) => createHmac("sha256", "secret").update(d).digest("base64url"))}`],
  ["alg none with a signature part", (w) => `Bearer ${signedWith("none", claims(w.alice.uid), () => "c2ln")}`],
];
for (const e of protectedEndpoints) {
  for (const [what, header, error] of BAD_AUTH) {
    add({
      category: "auth",
      name: `${e.method} ${e.route}: ${what}`,
      request: (w) => ({ method: e.method, path: e.path(w), who: "nobody", authorization: header(w), json: e.body?.(w) }),
      status: 401,
      error: error ?? /^(Sign in first|Your session token is not valid)/,
    });
  }
}

// ---- other users: Bob (and an admin wallet) reaching for Alice's rows answers as for a missing one

const otherUser: [Who, Req["method"], string, (w: World) => string, ((w: World) => unknown)?, (string | RegExp)?][] = [
  ["bob", "GET", "/api/batch/:id", jobPath, undefined, /^No batch job .* among yours\.$/],
  ["bob", "POST", "/api/batch/:id/transactions", (w) => `${jobPath(w)}/transactions`, () => ({ chunkIndex: 0, txHash: TX_HASH }), /^No batch job /],
  ["bob", "PATCH", "/api/contacts/:id", (w) => `/api/contacts/${w.contactId}`, () => ({ name: "Mine now" }), "Contact not found - It may have been deleted"],
  ["bob", "PATCH", "/api/contacts/:id (address)", (w) => `/api/contacts/${w.contactId}`, () => ({ address: B }), "Contact not found - It may have been deleted"],
  ["bob", "DELETE", "/api/contacts/:id", (w) => `/api/contacts/${w.contactId}`, undefined, "Contact not found - It may have been deleted"],
  ["bob", "DELETE", "/api/bank/accounts/:id", (w) => `/api/bank/accounts/${w.accountId}`, undefined, /^Bank account \d+ was not found among your bank accounts\.$/],
  ["bob", "POST", "/api/bank/wallets/:id/primary", (w) => `/api/bank/wallets/${w.spareWalletId}/primary`, undefined, /^Wallet \d+ was not found among your wallets\.$/],
  ["bob", "DELETE", "/api/bank/wallets/:id", (w) => `/api/bank/wallets/${w.spareWalletId}`, undefined, /^Wallet \d+ was not found among your wallets\.$/],
  ["bob", "GET", "/api/bank/deposits/:id", (w) => `/api/bank/deposits/${w.depositId}`, undefined, /^Deposit \d+ was not found among your deposits\.$/],
  ["bob", "POST", "/api/bank/deposits (Alice's account)", () => "/api/bank/deposits", (w) => ({ bankAccountId: w.accountId, amount: "10" }), /^Invalid Deposit: bank account \d+ was not found/],
  [
    "bob",
    "POST",
    "/api/bank/deposits (Alice's account and wallet)",
    () => "/api/bank/deposits",
    (w) => ({ bankAccountId: String(w.accountId), amount: "10", walletId: w.walletId }),
    /^Invalid Deposit: bank account \d+ was not found/,
  ],
  ["admin", "PATCH", "/api/contacts/:id", (w) => `/api/contacts/${w.contactId}`, () => ({ notes: "seen by admin" }), "Contact not found - It may have been deleted"],
  ["admin", "GET", "/api/batch/:id", jobPath, undefined, /^No batch job /],
  ["admin", "DELETE", "/api/bank/accounts/:id", (w) => `/api/bank/accounts/${w.accountId}`, undefined, /^Bank account /],
];
for (const [who, method, label, pathOf, body, error] of otherUser) {
  add({
    category: "other user",
    name: `${who} ${method} ${label} of Alice's`,
    request: (w) => ({ method, path: pathOf(w), who, json: body?.(w) }),
    status: 404,
    error,
  });
}
add({ ...q("other user", "GET", "/api/audit", "alice", 403, "Admin only: sign in with a wallet listed in ADMIN_WALLETS."), name: "alice (not an admin) GET /api/audit" });
// Listings answer 200 with the caller's own rows only: nothing of Alice's.
const listings: [string, string, (body: any, w: World) => void][] = [
  ["/api/contacts", "contacts", (body, w) => expect(body.contacts.map((c: any) => c.id)).to.not.include(w.contactId)],
  ["/api/contacts?search=landlord", "contacts found by Alice's note", (body) => expect(body).to.deep.include({ contacts: [], total: 0 })],
  ["/api/batch", "batch jobs", (body, w) => expect(body.jobs.map((j: any) => j.jobId)).to.not.include(w.jobId)],
  ["/api/batch/status", "the latest batch job", (body) => expect(body.data).to.equal(null)],
  ["/api/bank/accounts", "bank accounts", (body, w) => expect(body.accounts.map((a: any) => a.id)).to.not.include(w.accountId)],
  ["/api/bank/wallets", "wallets", (body, w) => expect(body.wallets.map((a: any) => a.id)).to.not.include.members([w.walletId, w.spareWalletId])],
  ["/api/bank/deposits", "deposits", (body, w) => expect(body.deposits.map((d: any) => d.id)).to.not.include(w.depositId)],
];
for (const [route, what, check] of listings) {
  add({ category: "other user", name: `bob GET ${route}: no ${what} of Alice's`, request: () => ({ method: "GET", path: route, who: "bob" }), accepted: check });
}
add({
  category: "other user",
  name: "bob GET /api/contacts/export: no contact of Alice's",
  request: () => ({ method: "GET", path: "/api/contacts/export", who: "bob" }),
  accepted: (body) => expect(body).to.equal("Name,Address,Notes\r\n"),
});

// ---------------------------------------------------------------- running them

interface Answer {
  status: number;
  contentType: string;
  text: string;
  body: any;
}

/** What the tables hold that belongs to users: every row, in a stable order. */
const USER_TABLES = { contacts, batchJobs, batchChunks, batchRecipients, bankAccounts, bankWallets, bankWalletChallenges, deposits, auditLog, siweNonces };

describe("Bad input, everywhere (a table-driven suite)", function () {
  this.timeout(30_000);
  let server: RunningServer;
  let world: World;
  interface Tally {
    cases: number;
    passed: number;
    refused4xx: number;
    reported200: number;
    serverErrors: number;
  }
  const outcomes = new Map<Category, Tally>();
  const tallyOf = (category: Category): Tally => {
    const tally = outcomes.get(category) ?? { cases: 0, passed: 0, refused4xx: 0, reported200: 0, serverErrors: 0 };
    outcomes.set(category, tally);
    return tally;
  };

  async function send(r: Req): Promise<Answer> {
    const headers: Record<string, string> = { ...r.headers };
    const token = r.who === "nobody" ? undefined : world[r.who].idToken;
    if (r.authorization !== undefined) {
      if (r.authorization !== "") headers.authorization = r.authorization;
    } else if (token) headers.authorization = `Bearer ${token}`;
    let body: string | Uint8Array | ReadableStream<Uint8Array> | undefined;
    if (r.raw !== undefined) body = typeof r.raw === "function" ? r.raw() : r.raw;
    else if (r.json !== undefined) {
      body = JSON.stringify(r.json);
      headers["content-type"] ??= "application/json";
    }
    // Node's fetch sends bytes and streams as they are; the DOM typings know no Uint8Array<ArrayBufferLike>.
    const init: RequestInit & { duplex?: "half" } = { method: r.method, headers, body: body as BodyInit | undefined };
    if (body instanceof ReadableStream) init.duplex = "half";
    const res = await fetch(`${server.url}${r.path}`, init);
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* kept as text: the assertion shows it */
    }
    // Bad input too gets a declared answer: a status its endpoint lists, in the declared shape.
    checkAnswer(r.method, r.path, res.status, parsed, res.headers.get("content-type"));
    return { status: res.status, contentType: res.headers.get("content-type") ?? "", text, body: parsed };
  }

  async function call(who: Who, method: string, route: string, json?: unknown) {
    const answer = await send({ method, path: route, who, json });
    if (answer.status >= 300) throw new Error(`${method} ${route}: ${answer.status} ${answer.text}`);
    return answer.body;
  }

  async function userRows(): Promise<Record<string, string[]>> {
    const db = server.services.db.db;
    const out: Record<string, string[]> = {};
    for (const [name, table] of Object.entries(USER_TABLES)) {
      const rows = (await db.select().from(table as unknown as typeof contacts)) as Record<string, unknown>[];
      // The bank's worker verifies accounts on its own clock (BANK_VERIFY_MS=0: at its next tick),
      // which may fall inside a case: those two columns are time's to change, not a request's.
      const kept = name === "bankAccounts" ? rows.map(({ status: _status, verifiedAt: _verifiedAt, ...rest }) => rest) : rows;
      out[name] = kept.map((row) => JSON.stringify(row)).sort();
    }
    return out;
  }

  before(async function () {
    this.timeout(120_000);
    const adminWallet = Wallet.createRandom();
    server = await startTestServer({
      // Hundreds of CSV and sign-in requests in a minute: the limits are the security suite's to test.
      RATE_LIMIT_AUTH_PER_MINUTE: "100000",
      RATE_LIMIT_CSV_PER_MINUTE: "100000",
      MOCK_BANK_WRITES_PER_MINUTE: "100000",
      // Accounts verify at once (so a deposit can exist); deposits never reach their mint during the run.
      BANK_VERIFY_MS: "0",
      BANK_PROCESSING_MS: "3600000",
      BANK_COMPLETE_MS: "3600000",
      ADMIN_WALLETS: adminWallet.address,
    });
    const alice = await emailUser();
    const bob = await emailUser();
    const admin = await walletUser(server, adminWallet as unknown as Wallet);
    world = { alice, bob, admin: { idToken: admin.idToken, uid: `wallet:${adminWallet.address.toLowerCase()}` } } as unknown as World;

    world.contactId = (await call("alice", "POST", "/api/contacts", { name: "Landlord", address: A, notes: "landlord" })).contact.id;
    world.accountId = (await call("alice", "POST", "/api/bank/accounts", { name: "Everyday", type: "checking", accountNumber: "000123456789", routingNumber: "021000021" })).account.id;
    await call("alice", "GET", "/api/bank/accounts"); // verifies it (BANK_VERIFY_MS=0)
    world.walletId = (await call("alice", "POST", "/api/bank/wallets", { name: "Main", address: C })).wallet.id;
    world.spareWalletId = (await call("alice", "POST", "/api/bank/wallets", { name: "Spare", address: D })).wallet.id;
    world.depositId = (await call("alice", "POST", "/api/bank/deposits", { bankAccountId: world.accountId, amount: "10", walletId: world.walletId })).deposit.id;
    world.jobId = (await call("alice", "POST", "/api/batch/execute", { recipients: [{ name: "Eve", address: E, amount: "1" }] })).jobId;

    // A sign-in that would succeed as it is: every wallet-auth case breaks one field of it.
    const signer = Wallet.createRandom();
    const message = await siweMessage(server, signer);
    world.signIn = { address: signer.address, message, signature: await signer.signMessage(message) };
  });

  after(async function () {
    await server?.close();
    const rows = [...outcomes.entries()];
    const total = rows.reduce((n, [, o]) => n + o.cases, 0);
    const passed = rows.reduce((n, [, o]) => n + o.passed, 0);
    const refused = rows.reduce((n, [, o]) => n + o.refused4xx, 0);
    const reported = rows.reduce((n, [, o]) => n + o.reported200, 0);
    const serverErrors = rows.reduce((n, [, o]) => n + o.serverErrors, 0);
    // One line for the issue's note: cases per category, and how they ended.
    console.log(
      `      bad-input cases: ${total} (${rows.map(([c, o]) => `${c} ${o.cases}`).join(", ")}); ` +
        `passed ${passed}: ${refused} refused with a 4xx JSON error, ${reported} answered 200 without the bad value taking effect; ${serverErrors} answered 5xx; ${total - passed} failed`,
    );
  });

  it("the table names every endpoint of the API's declaration (openapi.test.ts checks that the server mounts exactly those)", () => {
    expect(Object.keys(API).length).to.be.greaterThan(30);
    expect(ENDPOINTS.map((e) => `${e.method} ${e.route}`).sort()).to.deep.equal(Object.keys(API).sort());
  });

  it("the forged-claims control: the same claims unchanged are accepted (the emulator's unsigned tokens), so each variant fails for its one change", async () => {
    const answer = await send({ method: "GET", path: "/api/auth/me", who: "nobody", authorization: `Bearer ${unsignedToken(claims(world.alice.uid))}` });
    expect(answer.status, answer.text).to.equal(200);
    expect(answer.body.user.uid).to.equal(world.alice.uid);
  });

  it("the working bodies work: each would change the database if a case's one broken field were ignored", async () => {
    // On throwaway users, so Alice's rows stay as the cases expect them.
    for (const route of ["/api/contacts", "/api/contacts/import", "/api/bank/accounts", "/api/bank/wallets", "/api/batch/execute", "/api/reward-multiplier"]) {
      const carol = await emailUser();
      const e = endpoint("POST", route);
      const before = await userRows();
      const answer = await send({ method: "POST", path: e.path(world), who: "nobody", authorization: `Bearer ${carol.idToken}`, json: e.body!(world) });
      expect(answer.status, `${route}: ${answer.text}`).to.be.oneOf([200, 201]);
      expect(await userRows(), route).to.not.deep.equal(before);
    }
  });

  for (const c of cases) {
    it(`[${c.category}] ${c.name}`, async () => {
      const tally = tallyOf(c.category);
      tally.cases++;
      const before = await userRows();
      const request = c.request(world);
      const answer = await send(request);
      const shown = `${answer.status} ${answer.text.slice(0, 300)}`;
      if (answer.status >= 500) tally.serverErrors++;

      expect(answer.status, shown).to.be.below(500);
      if (c.accepted) {
        expect(answer.status, shown).to.equal(200);
        c.accepted(answer.body, world);
        tally.reported200++;
      } else {
        expect(answer.status, shown).to.be.within(400, 499);
        if (c.status !== undefined) expect(answer.status, shown).to.equal(c.status);
        expect(answer.contentType, shown).to.match(/^application\/json/);
        expect(answer.body, shown).to.be.an("object");
        expect(Object.keys(answer.body).sort(), shown).to.deep.equal(["error", "success"]);
        expect(answer.body.success).to.equal(false);
        const error = answer.body.error as string;
        // A sentence: some words, no stack trace, no page, not the whole input echoed back.
        expect(error, shown).to.be.a("string").and.match(/\w{2,}.*\w/);
        expect(error).to.not.match(/\n\s+at |<html|<!DOCTYPE/i);
        expect(error.length, shown).to.be.below(1000);
        if (typeof c.error === "string") expect(error).to.equal(c.error);
        else if (c.error) expect(error).to.match(c.error);
        tally.refused4xx++;
      }
      expect(await userRows(), "the database must be unchanged").to.deep.equal(before);
      tally.passed++;
    });
  }

  describe("formula-leading CSV cells", () => {
    const FORMULAS = ["=HYPERLINK(\"http://evil.example\",\"x\")", "+1+1", "-2+3", "@SUM(A1)", "=cmd|' /C calc'!A0"];

    function tallied(fn: () => Promise<void>) {
      return async () => {
        const tally = tallyOf("formula CSV");
        tally.cases++;
        await fn();
        tally.reported200++;
        tally.passed++;
      };
    }

    for (const formula of FORMULAS) {
      it(
        `parse-csv refuses ${describeValue(formula)} as an address and as an amount, and keeps it as plain text in a name`,
        tallied(async () => {
          const csvData = [`Name,Address,Amount`, `Bob,"${formula.replace(/"/g, '""')}",5`, `Bob,${B},"${formula.replace(/"/g, '""')}"`, `"${formula.replace(/"/g, '""')}",${C},5`].join("\n");
          const answer = await send({ method: "POST", path: "/api/batch/parse-csv", who: "alice", json: { csvData } });
          expect(answer.status, answer.text).to.equal(200);
          expect(answer.body.data.invalidEntries.map((e: any) => [e.line, e.reason])).to.deep.equal([
            [2, "Invalid Ethereum address"],
            [3, "Invalid amount"],
          ]);
          expect(answer.body.data.validRecipients).to.deep.equal([{ line: 4, name: formula, address: C, amount: "5" }]);
        }),
      );

      it(
        `contacts import skips ${describeValue(formula)} as an address, and export escapes it in a name and in notes`,
        tallied(async () => {
          const user = await emailUser();
          const cell = `"${formula.replace(/"/g, '""')}"`;
          const csvData = [`Name,Address,Notes`, `${cell},${B},${cell}`, `Bob,${cell},`].join("\n");
          const imported = await send({ method: "POST", path: "/api/contacts/import", who: "nobody", authorization: `Bearer ${user.idToken}`, json: { csvData } });
          expect(imported.status, imported.text).to.equal(200);
          expect(imported.body.imported).to.equal(1);
          expect(imported.body.skipped).to.deep.equal([{ line: 3, reason: "Invalid address - Please enter a valid Ethereum address" }]);
          const exported = await send({ method: "GET", path: "/api/contacts/export", who: "nobody", authorization: `Bearer ${user.idToken}` });
          expect(exported.status).to.equal(200);
          const escaped = `'${formula}`;
          const quoted = /[",]/.test(escaped) ? `"${escaped.replace(/"/g, '""')}"` : escaped;
          expect(exported.text).to.equal(`Name,Address,Notes\r\n${quoted},${B},${quoted}`);
        }),
      );
    }

    for (const prefix of ["=", "+", "-", "@"]) {
      it(
        `a contact added with a name and notes starting ${JSON.stringify(prefix)} exports them with a leading quote`,
        tallied(async () => {
          const user = await emailUser();
          const as = { who: "nobody" as const, authorization: `Bearer ${user.idToken}` };
          const created = await send({ method: "POST", path: "/api/contacts", ...as, json: { name: `${prefix}Name`, address: B, notes: `${prefix}1+1 then text` } });
          expect(created.status, created.text).to.equal(201);
          const exported = await send({ method: "GET", path: "/api/contacts/export", ...as });
          expect(exported.text).to.equal(`Name,Address,Notes\r\n'${prefix}Name,${B},'${prefix}1+1 then text`);
        }),
      );
    }
  });
});
