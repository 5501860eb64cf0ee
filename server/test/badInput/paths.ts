/** Bad query strings and path parameters, unknown routes, and URLs and headers too large to read. */
import { EVENTS_MAX_LIMIT, HISTORY_MAX_LIMIT } from "@common/events";
import { A, BAD_CHECKSUM, casesOf, jobPath, q, SAFE_SIGNATURE, SAFE_TX, TX_HASH, type Case, type Req, type Who, type World } from "./table";

// The one address rule's sentences (common/api/schemas.ts AddressInput), for every address parameter.
const NOT_AN_ADDRESS = /^Invalid request path: address: must be 0x followed by 40 hex characters$/;
const WRONG_CHECKSUM = /^Invalid request path: address: has a wrong checksum/;

const qw = (
  method: Req["method"],
  pathOf: (w: World) => string,
  label: string,
  who: Who,
  status: number,
  error?: RegExp | string,
  body?: unknown,
): Case => ({
  category: "query/path",
  name: `${method} ${label}`,
  request: (w) => ({ method, path: pathOf(w), who, json: body }),
  status,
  error,
});

/** Query strings and path parameters. */
export const queryAndPathCases = casesOf((add) => {
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
  // The exports: a range is checked as the pages check theirs, and dates are real days.
  for (const query of [
    "fromBlock=-1",
    "fromBlock=1e3",
    "fromBlock=0x10",
    "fromBlock=1234567890123456",
    "toBlock=",
    "fromBlock=5&toBlock=3",
    "fromBlock=1&fromBlock=2",
    "fromDate=2026-13-01",
    "fromDate=2026-02-30",
    "toDate=2025-02-29",
    "toDate=31/01/2026",
    "fromDate=20260101",
    "fromDate=2026-01-01T00:00:00Z",
    `toDate=${"9".repeat(300)}`,
    "fromDate=2026-02-01&toDate=2026-01-31",
  ]) {
    add(q("query/path", "GET", `/api/accounts/${A}/history/export?${query}`, "alice", 400));
  }
  for (const query of [
    "fromBlock=abc",
    "toBlock=-5",
    "fromBlock=9&toBlock=8",
    "eventName=Nope",
    `eventName=${"T".repeat(65)}`,
    "eventName=Transfer&eventName=Approval",
  ]) {
    add(q("query/path", "GET", `/api/events/export?${query}`, "alice", 400));
  }
  add(q("query/path", "GET", `/api/accounts/${"0x".padEnd(4000, "f")}/history/export`, "alice", 400, NOT_AN_ADDRESS));
  add(
    q(
      "query/path",
      "GET",
      "/api/accounts/0x12/history/export",
      "alice",
      400,
      "Invalid request path: address: must be 0x followed by 40 hex characters",
    ),
  );
  for (const query of ["points=0", "points=5001", "points=abc", "points=1.5", "points=-5"])
    add(q("query/path", "GET", `/api/stats/supply?${query}`, "nobody", 400));
  // The holders' own cases (sort, order, search, paging, addresses) are in holders.test.ts.
  for (const query of ["sort=rank", "order=up", "search=alice", "offset=-1", "limit=501"])
    add(q("query/path", "GET", `/api/holders?${query}`, "alice", 400, /^Invalid request query: /));
  add(q("query/path", "GET", `/api/rewards/${BAD_CHECKSUM}`, "alice", 400, WRONG_CHECKSUM));
  add(q("query/path", "GET", `/api/accounts/${BAD_CHECKSUM}/history`, "nobody", 400, WRONG_CHECKSUM));
  add(q("query/path", "GET", `/api/accounts/${BAD_CHECKSUM}/history/export`, "alice", 400, WRONG_CHECKSUM));
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
    add(q("query/path", "GET", `/api/batch/${id}/export`, "alice", 400, /^Invalid request path: id: /));
    add({
      ...q("query/path", "POST", `/api/batch/${id}/transactions`, "alice", 400),
      request: () => ({ method: "POST", path: `/api/batch/${id}/transactions`, who: "alice", json: { chunkIndex: 0, txHash: TX_HASH } }),
    });
  }
  // A Safe's address and a proposal's hash in the path: checked before any chain read.
  const NOT_A_SAFE_ADDRESS = /^Invalid request path: safe: must be 0x followed by 40 hex characters/;
  const safes: [string, RegExp][] = [
    ["0x12", NOT_A_SAFE_ADDRESS],
    [BAD_CHECKSUM.slice(0, -1), NOT_A_SAFE_ADDRESS],
    ["Operations%20Safe", NOT_A_SAFE_ADDRESS],
    [`0x${"f".repeat(4000)}`, NOT_A_SAFE_ADDRESS],
    [BAD_CHECKSUM, /^Invalid request path: safe: has a wrong checksum/],
  ];
  for (const [safe, error] of safes) {
    add(q("query/path", "GET", `/api/safes/${safe}/proposals`, "alice", 400, error));
    add({
      ...q("query/path", "POST", `/api/safes/${safe}/proposals`, "alice", 400, error),
      request: () => ({
        method: "POST",
        path: `/api/safes/${safe}/proposals`,
        who: "alice",
        json: { tx: SAFE_TX, signature: SAFE_SIGNATURE },
      }),
    });
  }
  for (const hash of ["0x12", TX_HASH.slice(0, -1), `${TX_HASH}00`, "latest"]) {
    add({
      ...q("query/path", "POST", `/api/safes/${A}/proposals/${hash}/approvals`, "alice", 400, /^Invalid request path: hash: /),
      request: () => ({
        method: "POST",
        path: `/api/safes/${A}/proposals/${hash}/approvals`,
        who: "alice",
        json: { signature: SAFE_SIGNATURE },
      }),
    });
  }
  // An address that is no Safe: a 404 in words, after the input is read.
  add(q("query/path", "GET", `/api/safes/${A}/proposals`, "alice", 404, `${A} is not a Safe on this chain: it has no contract code.`));
  add(q("query/path", "GET", "/api/batch/00000000-0000-4000-8000-000000000000", "alice", 404, /^No batch job /));
  add(q("query/path", "GET", "/api/batch/00000000-0000-4000-8000-000000000000/export", "alice", 404, /^No batch job /));
  for (const query of ["offset=-1", "offset=abc", "offset=1234567", "limit=0", "limit=10001", "limit=1e3"]) {
    add(qw("GET", (w) => `${jobPath(w)}?${query}`, `/api/batch/:id?${query}`, "alice", 400, /^Invalid request query: /));
  }
  for (const query of ["limit=0", "limit=1001", "offset=-1", "offset=1e3", `search=${"s".repeat(201)}`, "search=a&search=b"]) {
    add(q("query/path", "GET", `/api/contacts?${query}`, "alice", 400, /^Invalid request query: /));
  }
  for (const id of ["abc", "0", "-1", "1.5", "1e3", "99999999999", "2147483648", "%00", "0x10"]) {
    add({
      ...q("query/path", "PATCH", `/api/contacts/${id}`, "alice", 400, /^Invalid request path: id: /),
      request: () => ({ method: "PATCH", path: `/api/contacts/${id}`, who: "alice", json: { name: "X" } }),
    });
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
  for (const query of [
    "limit=0",
    "limit=501",
    "limit=abc",
    "before=abc",
    "before=-1",
    "before=2147483648",
    "before=999999999999",
    "before=1e3",
  ]) {
    add(q("query/path", "GET", `/api/audit?${query}`, "admin", 400, /^Invalid request query: /));
  }
  add(q("query/path", "GET", "/api/nope", "nobody", 404, "No such endpoint: GET /api/nope"));
  add(q("query/path", "GET", "/nope", "nobody", 404, "No such endpoint: GET /nope"));
  add(q("query/path", "POST", "/api/token", "nobody", 404, "No such endpoint: POST /api/token"));
  add(q("query/path", "PUT", "/api/contacts/1", "alice", 404));
  add(q("query/path", "GET", `/api/contacts/${"9".repeat(4000)}`, "alice", 404, /^No such endpoint: GET \/api\/contacts\/9+\.\.\.$/));
  add(q("query/path", "GET", `/api/accounts/${"0x".padEnd(4000, "f")}/history`, "nobody", 400, NOT_AN_ADDRESS));
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
});
