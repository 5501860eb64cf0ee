/**
 * Bad bodies: malformed JSON, wrong content types, a wrong type in every field (or a required one
 * left out), and bodies of 10 MB.
 */
import { gzipSync } from "node:zlib";
import { SAFE_TX_DATA_MAX_BYTES } from "@common/api/safes";
import { B, casesOf, ENDPOINTS, REMOVE, TX_HASH, describeValue, endpoint, fieldCase, parseCsv, withBody, type Req } from "./table";

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

/** Malformed JSON: every endpoint that reads a body (and every other non-GET, since the parser runs first). */
export const malformedJsonCases = casesOf((add) => {
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
});

// Not read as JSON: the routes say to send JSON (contacts and the bank ask for the missing fields instead).
const NOT_JSON =
  /^(Invalid request body: send it as JSON, with Content-Type: application\/json\.|Missing [Ii]nformation|Invalid request body: Nothing to change)/;
const CONTENT_TYPES: { what: string; status?: number; error?: string | RegExp; request(body: string): Pick<Req, "raw" | "headers"> }[] = [
  { what: "text/plain", error: NOT_JSON, request: (b) => ({ raw: b, headers: { "content-type": "text/plain" } }) },
  { what: "text/csv", error: NOT_JSON, request: (b) => ({ raw: b, headers: { "content-type": "text/csv" } }) },
  {
    what: "a form",
    error: NOT_JSON,
    request: () => ({ raw: "name=Bob&address=0x00&value=1.5", headers: { "content-type": "application/x-www-form-urlencoded" } }),
  },
  {
    what: "multipart",
    error: NOT_JSON,
    request: (b) => ({
      raw: `--x\r\nContent-Disposition: form-data; name="json"\r\n\r\n${b}\r\n--x--\r\n`,
      headers: { "content-type": "multipart/form-data; boundary=x" },
    }),
  },
  { what: "application/xml", error: NOT_JSON, request: (b) => ({ raw: b, headers: { "content-type": "application/xml" } }) },
  { what: "no content type", error: NOT_JSON, request: (b) => ({ raw: new TextEncoder().encode(b) }) },
  // body-parser takes any utf-* charset; UTF-8 bytes read as UTF-16 are not JSON.
  {
    what: "UTF-8 bytes labelled UTF-16",
    status: 400,
    request: (b) => ({ raw: b, headers: { "content-type": "application/json; charset=utf-16" } }),
  },
  {
    what: "JSON in Latin-1",
    status: 415,
    request: (b) => ({ raw: b, headers: { "content-type": "application/json; charset=iso-8859-1" } }),
  },
  {
    what: "gzip that is not gzip",
    error: "The request body could not be decompressed: it is not valid gzip or deflate data.",
    request: (b) => ({ raw: b, headers: { "content-type": "application/json", "content-encoding": "gzip" } }),
  },
  {
    what: "an unknown encoding",
    status: 415,
    request: (b) => ({ raw: b, headers: { "content-type": "application/json", "content-encoding": "compress" } }),
  },
];

/** Wrong content types: the working body, sent so that it must not be read as JSON. */
export const contentTypeCases = casesOf((add) => {
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
});

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
  ["POST /api/safes/:safe/proposals", ["tx"], [...NOT_TEXT, "0x8456cb59"]],
  ["POST /api/safes/:safe/proposals", ["tx", "to"], [...NOT_TEXT, "0x1234", `0x${"zz".repeat(20)}`]],
  ["POST /api/safes/:safe/proposals", ["tx", "value"], [0, "-1", "1.5", "1e3", "0x10", "1".repeat(79), null]],
  [
    "POST /api/safes/:safe/proposals",
    ["tx", "data"],
    [12345, "8456cb59", "0x8456cb5", "0xzz", `0x${"00".repeat(SAFE_TX_DATA_MAX_BYTES + 1)}`, null],
  ],
  ["POST /api/safes/:safe/proposals", ["tx", "operation"], ["0", 2, -1, 0.5, true, null]],
  ["POST /api/safes/:safe/proposals", ["tx", "nonce"], [0, "-1", "1.5", "0x10", "1".repeat(21), null]],
  ["POST /api/safes/:safe/proposals", ["tx", "extra"], ["a field SafeTx does not have"]],
  ["POST /api/safes/:safe/proposals", ["signature"], [...NOT_TEXT, "0x1234", `0x${"zz".repeat(65)}`, `0x${"11".repeat(66)}`]],
  ["POST /api/safes/:safe/proposals/:hash/approvals", ["signature"], [...NOT_TEXT, "0x1234", `0x${"11".repeat(64)}`]],
];

/** Wrong types for every field; required fields left out. */
export const wrongTypeCases = casesOf((add) => {
  for (const [name, at, values] of fields) {
    const [method, route] = name.split(" ");
    for (const value of values) add(fieldCase("wrong type", endpoint(method, route), at, describeValue(value), value, { status: 400 }));
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
    ["POST /api/safes/:safe/proposals", ["tx", "gasToken"]],
    ["POST /api/safes/:safe/proposals", ["signature"]],
    ["POST /api/safes/:safe/proposals/:hash/approvals", ["signature"]],
  ] as [string, (string | number)[]][]) {
    const [method, route] = name.split(" ");
    add(fieldCase("wrong type", endpoint(method, route), at, "left out", REMOVE, { status: 400 }));
  }
  // An empty list of recipients is no batch.
  add(
    fieldCase("wrong type", endpoint("POST", "/api/batch/execute"), ["recipients"], "an empty list", [], {
      status: 400,
      error: /^No valid recipients found/,
    }),
  );
});

const TEN_MB = 10 * 1024 * 1024;
const bigText = () => "a".repeat(TEN_MB);

/** 10 MB bodies: the JSON limit is 1 MB, and a CSV travels inside JSON. */
export const bigBodyCases = casesOf((add) => {
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
});
