/**
 * Rules that moved from a service into an endpoint's declaration (issue 29, item 12), so the OpenAPI
 * document states them or says them in words: a request the document calls invalid (each case
 * checks that it does, or that its rule is one stated in words) gets the 400 sentence the service
 * used to answer, each rule once here (the other case files break the same fields in more ways).
 */
import {
  A,
  B,
  BAD_CHECKSUM,
  casesOf,
  deposit,
  endpoint,
  execute,
  fieldCase,
  multiplier,
  parseCsv,
  q,
  SAFE_SIGNATURE,
  SAFE_TX,
  type Case,
  type World,
} from "./table";

const ZERO = `0x${"0".repeat(40)}`;
const MAX_UINT256 = 2n ** 256n - 1n;
const NO_REFUND = "a proposal pays no refund (the owner who executes it pays the gas)";
const EVENT_FILTERS =
  "All Events, Transfer, Approval, Pause, Unpause, RewardMultiplierUpdated, RoleGranted, RoleRevoked, Blocked, Unblocked";

/** A new alert rule as the admin sends it (the table's own cases are Alice's, whom the admin check refuses first). */
function alertRuleCase(what: string, body: Record<string, unknown>, error: string): Case {
  return {
    category: "declared rule",
    name: `POST /api/alerts/rules: ${what}`,
    request: () => ({
      method: "POST",
      path: "/api/alerts/rules",
      who: "admin",
      json: { webhookUrl: "https://hooks.example.com/usdx", ...body },
    }),
    status: 400,
    error,
  };
}

const IN_WORDS = { document: "in words" } as const;

export const declaredRuleCases = casesOf((push) => {
  // Each request is invalid by the document's schemas, unless its rule is one stated in words.
  const add = (c: Case) => push({ document: "invalid", ...c });
  // The mock bank: the numbers' digits, a name not blank, a wallet's address, the dollars.
  const accounts = endpoint("POST", "/api/bank/accounts");
  const bankCase = (e: typeof accounts, at: string, what: string, value: unknown, error: string, more: Partial<Case> = {}) =>
    fieldCase("declared rule", e, [at], what, value, { status: 400, error, ...more });
  add(bankCase(accounts, "accountNumber", "3 digits", "123", "Invalid Bank Account: the account number must be 4 to 17 digits."));
  add(bankCase(accounts, "routingNumber", "8 digits", "02100002", "Invalid Bank Account: the routing number must be exactly 9 digits."));
  add(
    bankCase(
      accounts,
      "name",
      "only spaces",
      "   ",
      "Missing Information: please provide the account name, type, account number and routing number (missing: name).",
    ),
  );
  const wallets = endpoint("POST", "/api/bank/wallets");
  add(bankCase(wallets, "name", "only spaces", "  ", "Missing Information: please provide the wallet name and address (missing: name)."));
  add(
    bankCase(
      wallets,
      "address",
      "a wrong checksum",
      BAD_CHECKSUM,
      `Invalid Address: '${BAD_CHECKSUM}' has a wrong checksum (mixed upper and lower case that does not match): check it for a typo.`,
      IN_WORDS,
    ),
  );
  add(
    bankCase(
      endpoint("POST", "/api/bank/wallets/challenge"),
      "address",
      "the zero address",
      ZERO,
      "Invalid Address: the zero address cannot hold tokens.",
    ),
  );
  add(bankCase(deposit, "amount", "0.00", "0.00", "Invalid Deposit: the amount must be greater than 0."));

  // The reward multiplier: above 0, never below 1.0 for 'set', within uint256.
  add(
    fieldCase("declared rule", multiplier, ["value"], "0 (with 'set')", "0", {
      status: 400,
      error: "Invalid value: Please enter a valid positive number.",
    }),
  );
  add(
    fieldCase("declared rule", multiplier, ["value"], "0.5 with 'set'", "0.5", {
      status: 400,
      error: "Invalid value: the reward multiplier cannot be set below 1.0.",
    }),
  );
  add(
    fieldCase("declared rule", multiplier, ["value"], "2^256 - 1 whole tokens", MAX_UINT256.toString(), {
      status: 400,
      error: "Invalid value: the number is larger than the contract can hold (2^256 - 1 in 18-decimal units).",
      ...IN_WORDS,
    }),
  );

  // Event reads: a range in order (in words), the cursor, the filter.
  // A reversed range is a rule stated in words: JSON Schema cannot compare two parameters.
  for (const [path, who, error] of [
    ["/api/events?fromBlock=5&toBlock=3", "nobody", "fromBlock (5) is after toBlock (3)."],
    ["/api/events/export?fromBlock=9&toBlock=8", "alice", "fromBlock (9) is after toBlock (8)."],
    [`/api/accounts/${A}/history/export?fromBlock=5&toBlock=3`, "alice", "fromBlock (5) is after toBlock (3)."],
    [
      `/api/accounts/${A}/history/export?fromDate=2026-02-01&toDate=2026-01-31`,
      "alice",
      "fromDate (2026-02-01) is after toDate (2026-01-31).",
    ],
  ] as const)
    add({ ...q("declared rule", "GET", path, who, 400, error), ...IN_WORDS });
  add(q("declared rule", "GET", "/api/events?cursor=abc", "nobody", 400, "cursor must be the cursor of an earlier page."));
  add(q("declared rule", "GET", `/api/accounts/${A}/history?cursor=1-2-3`, "nobody", 400, "cursor must be the cursor of an earlier page."));
  for (const path of ["/api/events", "/api/events/export"])
    add(q("declared rule", "GET", `${path}?eventName=Nope`, "alice", 400, `Unknown eventName 'Nope': use one of ${EVENT_FILTERS}.`));

  // Alert rules: a threshold and a step for the kinds that take them, in their forms; the webhook URL's form.
  add(
    alertRuleCase(
      "a threshold on a pause rule",
      { kind: "pause", threshold: "5" },
      "A 'Pause or unpause' rule takes no threshold: leave it empty.",
    ),
  );
  add(
    alertRuleCase(
      "a negative amount",
      { kind: "mint", threshold: "-5" },
      "Invalid amount: '-5' is not a plain decimal amount (digits and at most one '.'). Enter a number such as 10000, or leave it empty.",
    ),
  );
  add(
    alertRuleCase(
      "a step of 19 decimals",
      { kind: "multiplier", threshold: "0.0000000000000000001" },
      "Invalid step: '0.0000000000000000001' has 19 decimals; USDX has 18. Enter a number such as 0.01, or leave it empty.",
    ),
  );
  add({
    ...alertRuleCase(
      "an amount past uint256",
      { kind: "burn", threshold: "9".repeat(60) },
      "Invalid amount: larger than the contract can hold.",
    ),
    ...IN_WORDS,
  });
  add(
    alertRuleCase(
      "a step percentage over 1000",
      { kind: "multiplier", stepPercent: "1000.01" },
      "Invalid step percentage: '1000.01' is not a percentage from 0 to 1000 with at most two decimals. Enter a number such as 1 or 0.5, or leave it empty.",
    ),
  );
  add(
    alertRuleCase(
      "a step percentage on a mint rule",
      { kind: "mint", stepPercent: "1" },
      "A 'Mint above an amount' rule takes no step percentage: leave it empty.",
    ),
  );
  add(
    alertRuleCase(
      "an ftp URL",
      { kind: "mint", webhookUrl: "ftp://hooks.example.com/usdx" },
      "Invalid webhook URL: The webhook URL must start with http:// or https://, not ftp://.",
    ),
  );
  add(
    alertRuleCase(
      "a URL with a password",
      { kind: "mint", webhookUrl: "https://user:secret@hooks.example.com/usdx" },
      "Invalid webhook URL: The webhook URL may not carry a user name or password: receivers check each delivery's signature instead.",
    ),
  );
  add(
    alertRuleCase(
      "a URL with a space",
      { kind: "mint", webhookUrl: "https://hooks.example.com/us dx" },
      "Invalid webhook URL: 'https://hooks.example.com/us dx' is not a URL: enter a full address such as https://hooks.example.com/usdx.",
    ),
  );

  // Batch payments: each recipient by the one rule, at least one, a total within uint256, the payer.
  add(
    fieldCase("declared rule", execute, ["recipients"], "an empty list", [], {
      status: 400,
      error: "No valid recipients found: the batch has no recipients.",
    }),
  );
  add(
    fieldCase("declared rule", execute, ["recipients", 0, "name"], "101 characters", "n".repeat(101), {
      status: 400,
      error:
        "The batch has invalid recipients, so nothing was started: recipient 1: Invalid name (The name has 101 characters; at most 100).",
    }),
  );
  add(
    fieldCase("declared rule", execute, ["recipients", 0, "address"], "a wrong checksum", BAD_CHECKSUM, {
      status: 400,
      error: `The batch has invalid recipients, so nothing was started: recipient 1: Invalid Ethereum address ('${BAD_CHECKSUM}' has a wrong checksum (mixed upper and lower case that does not match): check it for a typo).`,
      ...IN_WORDS,
    }),
  );
  add({
    category: "declared rule",
    name: "POST /api/batch/execute: a total past uint256",
    request: () => {
      const half = (MAX_UINT256 / 2n / 10n ** 18n + 1n).toString();
      return {
        method: "POST",
        path: execute.path({} as World),
        who: "alice",
        json: {
          recipients: [
            { address: B, amount: half },
            { address: A, amount: half },
          ],
        },
      };
    },
    status: 400,
    error: "The batch's total is larger than any USDX amount can be (2^256 - 1 base units), so nothing was started.",
    ...IN_WORDS,
  });
  add(
    fieldCase("declared rule", execute, ["payer"], "a wrong checksum", BAD_CHECKSUM, {
      status: 400,
      error: `payer: '${BAD_CHECKSUM}' has a wrong checksum (mixed upper and lower case that does not match): check it for a typo.`,
      ...IN_WORDS,
    }),
  );

  // The rest: rewards, a SafeTx's fixed fields, an empty CSV.
  add(
    q(
      "declared rule",
      "GET",
      `/api/rewards/${ZERO}`,
      "alice",
      400,
      "The zero address holds no USDX: it is where mints come from and burns go.",
    ),
  );
  const propose = endpoint("POST", "/api/safes/:safe/proposals");
  for (const [field, value, error] of [
    ["value", "5", "A proposal sends no ether: value must be 0, not 5."],
    ["safeTxGas", "50000", `safeTxGas must be 0, not 50000: ${NO_REFUND}.`],
    ["gasToken", A, `gasToken must be the zero address: ${NO_REFUND}.`],
  ] as const) {
    add({
      category: "declared rule",
      name: `POST /api/safes/:safe/proposals tx.${field}: ${value.slice(0, 12)}`,
      request: (w) => ({
        method: "POST",
        path: propose.path(w),
        who: "alice",
        json: { tx: { ...SAFE_TX, [field]: value }, signature: SAFE_SIGNATURE },
      }),
      status: 400,
      error,
    });
  }
  const empty = "The CSV file is empty: it needs a header row and at least one row of data.";
  add(fieldCase("declared rule", parseCsv, ["csvData"], "only spaces", " \r\n ", { status: 400, error: empty }));
  add(
    fieldCase("declared rule", endpoint("POST", "/api/contacts/import"), ["csvData"], "only spaces", "\t\n", { status: 400, error: empty }),
  );
});
