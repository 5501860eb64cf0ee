/**
 * Bad values in fields that parse: amounts (negative, exponent, 19 decimals, huge), addresses, and
 * unicode and control characters; each where the API reads one.
 */
import { expect } from "chai";
import {
  A,
  B,
  BAD_CHECKSUM,
  C,
  casesOf,
  deposit,
  describeValue,
  endpoint,
  execute,
  fieldCase,
  multiplier,
  parseCsv,
  rawJsonCase,
  TX_HASH,
  type Case,
  type Category,
  type Endpoint,
  type World,
} from "./table";

const MAX_UINT256 = 2n ** 256n - 1n;

/** parse-csv reports a bad cell in a 200, under the row: the spec's reason and nothing valid. */
function csvRowCase(category: Category, cell: "address" | "amount" | "name", value: string, reason: string): Case {
  const row = { name: "Bob", address: B, amount: "5", [cell]: value };
  const quote = (text: string) => `"${text.replace(/"/g, '""')}"`;
  return {
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
  };
}

/** Amount text that is not a plain positive decimal a uint256 can hold, by category. */
const NEGATIVE = ["-1", "-0.5", "\u22121", "-0", "-0.000000000000000001"];
const EXPONENT = ["1e3", "1E3", "1e-3", "2e18", "0x10", "Infinity", "NaN", "1_000", "1,000", "+5"];
const DECIMALS_19 = ["1.0000000000000000001", "0.0000000000000000001"];
const HUGE_TEXT = ["1e400", (MAX_UINT256 + 2n).toString(), "9".repeat(80)];

/** The spec's form of execute: one amount for a list of addresses. */
const spreadForm = (amount: unknown) => ({ recipients: [B, C], amount });

const amountCategories: [Category, string[]][] = [
  ["negative amount", NEGATIVE],
  ["exponent amount", EXPONENT],
  ["19 decimals", DECIMALS_19],
  ["huge number", HUGE_TEXT],
];

/** Amounts: negative, exponent, 19 decimals, huge; each where a token or dollar amount is read. */
export const amountCases = casesOf((add) => {
  for (const [category, values] of amountCategories) {
    for (const value of values) {
      const what = describeValue(value);
      add(fieldCase(category, multiplier, ["value"], what, value, { status: 400, error: /^Invalid value/ }));
      add(
        fieldCase(category, execute, ["recipients", 0, "amount"], what, value, {
          status: 400,
          error: /^The batch has invalid recipients, so nothing was started: recipient 1: Invalid amount/,
        }),
      );
      add({
        category,
        name: `POST /api/batch/execute (one amount for all): ${what}`,
        request: () => ({ method: "POST", path: execute.path({} as World), who: "alice", json: spreadForm(value) }),
        status: 400,
        error: /^The batch has invalid recipients/,
      });
      add(fieldCase(category, deposit, ["amount"], what, value, { status: 400, error: /^Invalid Deposit: / }));
      add(csvRowCase(category, "amount", value, "Invalid amount"));
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
  add(fieldCase("19 decimals", deposit, ["amount"], "3 decimals of a dollar", "1.001", { status: 400, error: /has 3 decimals/ }));
  add(
    fieldCase("huge number", deposit, ["amount"], "one cent over the limit", "1000000.01", {
      status: 400,
      error: /at most 1,000,000.00 USD/,
    }),
  );
  add(fieldCase("huge number", deposit, ["amount"], "41 digits", "9".repeat(41), { status: 400 }));
  add(fieldCase("huge number", multiplier, ["value"], "81 digits", "9".repeat(81), { status: 400 }));
  add(
    fieldCase("huge number", multiplier, ["value"], "2^256 - 1 whole tokens (beyond a uint256 in base units)", MAX_UINT256.toString(), {
      status: 400,
      error: /^Invalid value/,
    }),
  );
  add(fieldCase("huge number", execute, ["recipients", 0, "amount"], "101 characters", "1".repeat(101), { status: 400 }));
  // Each amount fits, the total does not: the contract could never pay it.
  add({
    category: "huge number",
    name: "POST /api/batch/execute: two amounts whose total is beyond a uint256",
    request: () => {
      const half = ((MAX_UINT256 / 2n + 1n) / 10n ** 18n + 1n).toString();
      return {
        method: "POST",
        path: execute.path({} as World),
        who: "alice",
        json: {
          recipients: [
            { address: B, amount: half },
            { address: C, amount: half },
          ],
        },
      };
    },
    status: 400,
  });
  // JSON numbers too large for a double arrive as Infinity; too large for an id or an index.
  add(
    rawJsonCase("huge number", multiplier, "value 1e400 as a JSON number", () => '{"value": 1e400, "operation": "set"}', { status: 400 }),
  );
  add(
    rawJsonCase(
      "huge number",
      deposit,
      "bankAccountId 1e400",
      (w) => `{"bankAccountId": 1e400, "amount": "10", "walletId": ${w.walletId}}`,
      { status: 400 },
    ),
  );
  add(
    rawJsonCase("huge number", deposit, "amount 1e400 as a JSON number", (w) => `{"bankAccountId": ${w.accountId}, "amount": 1e400}`, {
      status: 400,
    }),
  );
  add(
    rawJsonCase(
      "huge number",
      endpoint("POST", "/api/batch/:id/transactions"),
      "chunkIndex 1e400",
      () => `{"chunkIndex": 1e400, "txHash": "${TX_HASH}"}`,
      { status: 400 },
    ),
  );
  for (const value of [2 ** 31, 2 ** 53 + 2, Number.MAX_VALUE]) {
    add(fieldCase("huge number", deposit, ["bankAccountId"], String(value), value, { status: 400 }));
    add(fieldCase("huge number", deposit, ["walletId"], String(value), value, { status: 400 }));
    add(fieldCase("huge number", endpoint("POST", "/api/batch/:id/transactions"), ["chunkIndex"], String(value), value, { status: 400 }));
  }
  add(fieldCase("huge number", deposit, ["bankAccountId"], "2147483648 as text", "2147483648", { status: 400 }));
  add(fieldCase("negative amount", deposit, ["bankAccountId"], "-1", -1, { status: 400 }));
  add(fieldCase("negative amount", endpoint("POST", "/api/batch/:id/transactions"), ["chunkIndex"], "-1", -1, { status: 400 }));
  // A chunk the job does not have.
  add(
    fieldCase("huge number", endpoint("POST", "/api/batch/:id/transactions"), ["chunkIndex"], "a chunk the job does not have", 7, {
      status: 400,
      error: /has no chunk 7/,
    }),
  );
});

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

const addressFields: [Endpoint, (string | number)[], RegExp?][] = [
  [endpoint("POST", "/api/contacts"), ["address"], /^Invalid address - /],
  [endpoint("PATCH", "/api/contacts/:id"), ["address"], /^Invalid address - /],
  [endpoint("POST", "/api/bank/wallets"), ["address"], /^Invalid Address: /],
  [endpoint("POST", "/api/bank/wallets/challenge"), ["address"], /^Invalid Address: /],
  [execute, ["recipients", 0, "address"], /recipient 1: Invalid Ethereum address/],
  [execute, ["payer"], /^payer: /],
  [endpoint("POST", "/api/auth/wallet-auth"), ["address"]],
  [endpoint("POST", "/api/safes/:safe/proposals"), ["tx", "to"], /^Invalid request body: tx\.to: /],
];

/** Addresses that are not 0x and 40 hex characters with a right (or no) checksum, wherever one is read. */
export const addressCases = casesOf((add) => {
  for (const [what, address] of BAD_ADDRESSES) {
    for (const [e, at, error] of addressFields) add(fieldCase("address", e, at, what, address, { status: 400, error }));
    add({
      category: "address",
      name: `POST /api/batch/execute (one amount for all): ${what}`,
      request: () => ({ method: "POST", path: execute.path({} as World), who: "alice", json: { recipients: [B, address], amount: "1" } }),
      status: 400,
      error: /recipient 2: Invalid Ethereum address/,
    });
    add(csvRowCase("address", "address", address, "Invalid Ethereum address"));
    add({
      category: "address",
      name: `GET /api/accounts/:address/history: ${what}`,
      request: () => ({ method: "GET", path: `/api/accounts/${encodeURIComponent(address)}/history`, who: "nobody" }),
      // One address rule for every address parameter: a wrong checksum too is refused, as rewards refuses it.
      status: 400,
    });
  }
  add(
    fieldCase("address", endpoint("POST", "/api/bank/wallets"), ["address"], "the zero address", `0x${"0".repeat(40)}`, {
      status: 400,
      error: "Invalid Address: the zero address cannot hold tokens.",
    }),
  );
  add(
    fieldCase("address", endpoint("POST", "/api/bank/wallets"), ["address"], "a wallet Alice already has", C.toLowerCase(), {
      status: 409,
      error: /^Duplicate Wallet: /,
    }),
  );
  add(
    fieldCase(
      "address",
      endpoint("POST", "/api/contacts"),
      ["address"],
      "a contact Alice already has, in capitals",
      `0x${A.slice(2).toUpperCase()}`,
      { status: 409, error: /^Duplicate address - / },
    ),
  );
});

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
  [
    multiplier,
    ["operation"],
    [
      ["a NUL", "set\u0000"],
      ["Cyrillic 'ѕ'", "\u0455et"],
    ],
  ],
  [
    deposit,
    ["amount"],
    [
      ["a euro sign", "10€", /^Invalid Deposit: /],
      ["a NUL", "10\u0000", /^Invalid Deposit: /],
      ["fullwidth digits", "\uFF11\uFF10", /^Invalid Deposit: /],
    ],
  ],
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

/** Unicode and control characters in text fields, CSV cells and queries. */
export const unicodeCases = casesOf((add) => {
  for (const [e, at, values] of textFields) {
    for (const [what, value, error] of values) add(fieldCase("unicode/control", e, at, what, value, { status: 400, error }));
  }
  add(csvRowCase("unicode/control", "name", "Bob\u0000", "Invalid name"));
  add(csvRowCase("unicode/control", "name", "Bob\u202Egnp.exe", "Invalid name"));
  add(csvRowCase("unicode/control", "amount", "5\u0000", "Invalid amount"));
  add(csvRowCase("unicode/control", "address", `${B}\u200B`, "Invalid Ethereum address"));
  add(
    fieldCase("unicode/control", parseCsv, ["csvData"], "only NUL bytes", "\u0000\u0000\u0000", {
      status: 400,
      error: /^The CSV header must name the columns/,
    }),
  );
  add(
    fieldCase("unicode/control", endpoint("POST", "/api/contacts/import"), ["csvData"], "only NUL bytes", "\u0000\u0000\u0000", {
      status: 400,
      error: /^The CSV header must name the columns/,
    }),
  );
  add(
    fieldCase(
      "unicode/control",
      endpoint("POST", "/api/contacts/import"),
      ["csvData"],
      "a row whose name has a NUL",
      `Name,Address\nBob\u0000,${B}\n`,
      {
        accepted: (body) => {
          expect(body.imported).to.equal(0);
          expect(body.skipped).to.deep.equal([
            { line: 2, reason: "Invalid name - The name cannot contain control characters such as line breaks or tabs" },
          ]);
        },
      },
    ),
  );
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
});
