import { expect } from "chai";
import { Wallet } from "ethers";
import type { RunningServer } from "../src/index";
import { openApiDocument } from "../src/routes/openapiDocument";
import { checkWithDocument } from "./documentCheck";
import { call, emailUser, startTestServer, walletUser } from "./helpers";

/**
 * Issue 29, item 12: what a service used to refuse while the request's declaration let it through
 * is declared now, so the OpenAPI document states it (a pattern, a bound, an if/then) or, where JSON
 * Schema cannot (two parameters compared, a checksum, a value past uint256), says it in words. Each
 * test reads the rule in the document, then sends requests it refuses: call() checks each against
 * the document too (documentCheck.ts), so a rule the document leaves out fails here. The sentences
 * are the ones the services answered.
 */

type Json = Record<string, unknown>;
const doc = () => JSON.parse(JSON.stringify(openApiDocument())) as { paths: Record<string, Record<string, Json>> };
const bodySchema = (route: string, method = "post") =>
  (doc().paths[route][method].requestBody as { content: Record<string, { schema: Json }> }).content["application/json"].schema;
const properties = (schema: Json) => schema.properties as Record<string, Json>;
const parameter = (route: string, name: string, method = "get") =>
  (doc().paths[route][method].parameters as { name: string; schema: Json; description?: string }[]).find((p) => p.name === name)!;
/** Whether `pattern` (a JSON Schema pattern, read as ajv reads it) matches `text`. */
const matches = (pattern: unknown, text: string) => new RegExp(String(pattern), "u").test(text);

const A = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const WRONG_CHECKSUM = `${A.slice(0, -1)}D`;
const ZERO = `0x${"0".repeat(40)}`;

describe("The OpenAPI document states what the server checks (issue 29, item 12)", function () {
  this.timeout(60_000);
  const adminWallet = Wallet.createRandom() as unknown as Wallet;
  let server: RunningServer;
  let token: string;
  let admin: string;

  before(async function () {
    this.timeout(120_000);
    server = await startTestServer({ ADMIN_WALLETS: adminWallet.address });
    token = (await emailUser()).idToken;
    admin = (await walletUser(server, adminWallet)).idToken;
  });
  after(() => server?.close());

  /** Each request is refused with its sentence (and, through call(), by the document too). */
  async function refused(method: string, path: string, cases: [string, unknown, string][], as = token) {
    for (const [what, body, error] of cases) {
      const answer = await call(server, method, path, { token: as, body });
      expect(answer.status, what).to.equal(400);
      expect(answer.body.error, what).to.equal(error);
    }
  }

  it("the mock bank's bodies: account and routing numbers' digits, a wallet's address, a deposit's dollars", async () => {
    const account = properties(bodySchema("/api/bank/accounts"));
    expect(matches(account.accountNumber.pattern, " 000123456789 ")).to.equal(true);
    expect(matches(account.accountNumber.pattern, "123")).to.equal(false);
    expect(matches(account.routingNumber.pattern, "021000021")).to.equal(true);
    expect(matches(account.routingNumber.pattern, "02100002")).to.equal(false);
    const wallet = properties(bodySchema("/api/bank/wallets")).address;
    expect(wallet).to.deep.include({ not: { pattern: "^\\s*0x0{40}\\s*$" } });
    expect(String(wallet.description)).to.match(/checksum/);
    const amount = properties(bodySchema("/api/bank/deposits")).amount;
    expect(["125.50", "1000000.00", "0.01"].map((text) => matches(amount.pattern, text))).to.deep.equal([true, true, true]);
    expect(["0", "0.00", "1.005", "1000000.01", "-5", "1e3"].some((text) => matches(amount.pattern, text))).to.equal(false);

    const numbers = { name: "Everyday", type: "checking", accountNumber: "000123456789", routingNumber: "021000021" };
    await refused("POST", "/api/bank/accounts", [
      ["3 digits", { ...numbers, accountNumber: "123" }, "Invalid Bank Account: the account number must be 4 to 17 digits."],
      ["8 routing digits", { ...numbers, routingNumber: "02100002" }, "Invalid Bank Account: the routing number must be exactly 9 digits."],
      [
        "a blank name",
        { ...numbers, name: "   " },
        "Missing Information: please provide the account name, type, account number and routing number (missing: name).",
      ],
    ]);
    await refused("POST", "/api/bank/wallets", [
      ["the zero address", { name: "Zero", address: ZERO }, "Invalid Address: the zero address cannot hold tokens."],
      [
        "a wrong checksum (stated in words)",
        { name: "Typo", address: WRONG_CHECKSUM },
        `Invalid Address: '${WRONG_CHECKSUM}' has a wrong checksum (mixed upper and lower case that does not match): check it for a typo.`,
      ],
    ]);
    await refused("POST", "/api/bank/deposits", [
      ["0", { bankAccountId: 1, amount: "0" }, "Invalid Deposit: the amount must be greater than 0."],
      [
        "3 decimals",
        { bankAccountId: 1, amount: "1.005" },
        "Invalid Deposit: '1.005' has 3 decimals; a US dollar amount has at most 2 (cents).",
      ],
      ["a cent over", { bankAccountId: 1, amount: "1000000.01" }, "Invalid Deposit: a mock deposit is at most 1,000,000.00 USD."],
    ]);
  });

  it("POST /api/reward-multiplier: a value above 0 with at most 18 decimals, never below 1.0 for 'set', within uint256 (in words)", async () => {
    const schema = bodySchema("/api/reward-multiplier");
    const value = properties(schema).value;
    expect(matches(value.pattern, "1.05")).to.equal(true);
    expect(["0", "-1", "1e18", "1.0000000000000000001"].some((text) => matches(value.pattern, text))).to.equal(false);
    const [setRule] = schema.allOf as { if: Json; then: { properties: { value: { pattern: string } } } }[];
    expect(setRule.if).to.deep.equal({ properties: { operation: { const: "set" } }, required: ["operation"] });
    expect(matches(setRule.then.properties.value.pattern, "0.5")).to.equal(false);
    expect(matches(setRule.then.properties.value.pattern, "1.0")).to.equal(true);
    expect(String(value.description)).to.match(/2\^256 - 1/);

    await refused("POST", "/api/reward-multiplier", [
      ["0", { value: "0", operation: "add" }, "Invalid value: Please enter a valid positive number."],
      [
        "an exponent",
        { value: "1e18", operation: "set" },
        "Invalid value: '1e18' is not a plain decimal amount (digits and at most one '.'). Please enter a valid positive number.",
      ],
      ["set below 1.0", { value: "0.5", operation: "set" }, "Invalid value: the reward multiplier cannot be set below 1.0."],
      [
        "past uint256 (stated in words)",
        { value: (2n ** 256n).toString(), operation: "add" },
        "Invalid value: the number is larger than the contract can hold (2^256 - 1 in 18-decimal units).",
      ],
    ]);
  });

  it("event reads: fromBlock after toBlock (and fromDate after toDate) refused in words, the cursor and the event filter as patterns", async () => {
    for (const route of ["/api/events", "/api/events/export", "/api/accounts/{address}/history/export"]) {
      expect(parameter(route, "fromBlock").schema.description ?? parameter(route, "fromBlock").description, route).to.match(
        /not after toBlock/,
      );
      if (route !== "/api/accounts/{address}/history/export") {
        const eventName = parameter(route, "eventName").schema;
        expect(
          ["Transfer", "transfer", " All Events ", "RewardMultiplierUpdated", "BatchPaid"].every((t) => matches(eventName.pattern, t)),
          route,
        ).to.equal(true);
        expect(matches(eventName.pattern, "Nope"), route).to.equal(false);
      }
    }
    const cursor = parameter("/api/events", "cursor").schema;
    expect(matches(cursor.pattern, "12-3")).to.equal(true);
    expect(matches(cursor.pattern, "abc")).to.equal(false);

    await refused("GET", "/api/events?fromBlock=5&toBlock=3", [["a reversed range", undefined, "fromBlock (5) is after toBlock (3)."]]);
    await refused("GET", "/api/events/export?fromBlock=9&toBlock=8", [
      ["a reversed range", undefined, "fromBlock (9) is after toBlock (8)."],
    ]);
    await refused("GET", `/api/accounts/${A}/history/export?fromDate=2026-02-01&toDate=2026-01-31`, [
      ["reversed days", undefined, "fromDate (2026-02-01) is after toDate (2026-01-31)."],
    ]);
    await refused("GET", "/api/events?cursor=abc", [["a made-up cursor", undefined, "cursor must be the cursor of an earlier page."]]);
    await refused("GET", `/api/accounts/${A}/history?cursor=1-2-3`, [
      ["a made-up cursor", undefined, "cursor must be the cursor of an earlier page."],
    ]);
    await refused("GET", "/api/events?eventName=Nope", [
      [
        "an unknown filter",
        undefined,
        "Unknown eventName 'Nope': use one of All Events, Transfer, Approval, Pause, Unpause, RewardMultiplierUpdated, RoleGranted, RoleRevoked, Blocked, Unblocked.",
      ],
    ]);
    // The same range in order, and a filter in another case, are taken.
    expect((await call(server, "GET", "/api/events?fromBlock=3&toBlock=5&eventName=TRANSFER")).status).to.equal(200);
  });

  it("POST /api/alerts/rules: the threshold and step percentage for their kinds, the webhook URL's form", async () => {
    const schema = bodySchema("/api/alerts/rules");
    const fields = properties(schema);
    const inner = (field: Json) => (field.anyOf as Json[]).find((s) => s.type === "string")!;
    expect(matches(inner(fields.threshold).pattern, "10000.5")).to.equal(true);
    expect(matches(inner(fields.threshold).pattern, "")).to.equal(true);
    expect(matches(inner(fields.threshold).pattern, "-5")).to.equal(false);
    expect(matches(inner(fields.stepPercent).pattern, "1000")).to.equal(true);
    expect(matches(inner(fields.stepPercent).pattern, "1000.01")).to.equal(false);
    expect(matches(fields.webhookUrl.pattern, "https://hooks.example.com/usdx")).to.equal(true);
    expect(
      ["ftp://h/x", "http://user:pass@h/", "http:/h", "https://h/a b"].some((url) => matches(fields.webhookUrl.pattern, url)),
    ).to.equal(false);
    const rules = schema.allOf as { if: { properties: { kind: { enum: string[] } } }; then: { properties: Json } }[];
    expect(rules[0].if.properties.kind.enum).to.include.members(["role", "pause", "upgrade", "blocklist", "safe"]);
    expect(Object.keys(rules[0].then.properties)).to.deep.equal(["threshold"]);
    expect(rules[1].if.properties.kind.enum).not.to.include("multiplier");
    expect(Object.keys(rules[1].then.properties)).to.deep.equal(["stepPercent"]);

    const url = "https://hooks.example.com/usdx";
    await refused(
      "POST",
      "/api/alerts/rules",
      [
        [
          "a threshold where none applies",
          { kind: "pause", threshold: "5", webhookUrl: url },
          "A 'Pause or unpause' rule takes no threshold: leave it empty.",
        ],
        [
          "a negative amount",
          { kind: "mint", threshold: "-5", webhookUrl: url },
          "Invalid amount: '-5' is not a plain decimal amount (digits and at most one '.'). Enter a number such as 10000, or leave it empty.",
        ],
        [
          "an amount past uint256 (stated in words)",
          { kind: "burn", threshold: "9".repeat(60), webhookUrl: url },
          "Invalid amount: larger than the contract can hold.",
        ],
        [
          "a step percentage with a sign",
          { kind: "multiplier", stepPercent: "1%", webhookUrl: url },
          "Invalid step percentage: '1%' is not a percentage from 0 to 1000 with at most two decimals. Enter a number such as 1 or 0.5, or leave it empty.",
        ],
        [
          "a step percentage where none applies",
          { kind: "mint", stepPercent: "1", webhookUrl: url },
          "A 'Mint above an amount' rule takes no step percentage: leave it empty.",
        ],
        [
          "ftp",
          { kind: "mint", webhookUrl: "ftp://hooks.example.com/usdx" },
          "Invalid webhook URL: The webhook URL must start with http:// or https://, not ftp://.",
        ],
        [
          "a user name",
          { kind: "mint", webhookUrl: "https://user@hooks.example.com/usdx" },
          "Invalid webhook URL: The webhook URL may not carry a user name or password: receivers check each delivery's signature instead.",
        ],
        [
          "one slash",
          { kind: "mint", webhookUrl: "http:/hooks.example.com/usdx" },
          "Invalid webhook URL: 'http:/hooks.example.com/usdx' is not a URL: enter a full address such as https://hooks.example.com/usdx.",
        ],
        [
          "a host no URL parser reads (stated in words)",
          { kind: "mint", webhookUrl: "https://hooks.example.com:99999/usdx" },
          "Invalid webhook URL: 'https://hooks.example.com:99999/usdx' is not a URL: enter a full address such as https://hooks.example.com/usdx.",
        ],
      ],
      admin,
    );
  });

  it("POST /api/batch/execute: each recipient's address, amount and name, at least one, the payer; a checksum and a total past uint256 in words", async () => {
    const [perRecipient, oneAmount] = bodySchema("/api/batch/execute").anyOf as Json[];
    const recipients = properties(perRecipient).recipients;
    expect(recipients.minItems).to.equal(1);
    const item = properties(recipients.items as Json);
    expect(matches(item.address.pattern, A)).to.equal(true);
    expect(matches(item.amount.pattern, "0")).to.equal(false);
    expect(matches(item.name.pattern, "😀".repeat(100))).to.equal(true);
    expect(matches(item.name.pattern, "n".repeat(101))).to.equal(false);
    expect(matches(item.name.pattern, "Bo\nb")).to.equal(false);
    expect(matches(properties(oneAmount).amount.pattern, "25")).to.equal(true);
    expect(matches(properties(perRecipient).payer.pattern, "0x12")).to.equal(false);

    const half = ((2n ** 256n - 1n) / 2n / 10n ** 18n + 1n).toString();
    await refused("POST", "/api/batch/execute", [
      ["no recipients", { recipients: [] }, "No valid recipients found: the batch has no recipients."],
      [
        "a name of 101 characters",
        { recipients: [{ name: "n".repeat(101), address: A, amount: "1" }] },
        "The batch has invalid recipients, so nothing was started: recipient 1: Invalid name (The name has 101 characters; at most 100).",
      ],
      [
        "a wrong checksum (stated in words)",
        { recipients: [A, WRONG_CHECKSUM], amount: "1" },
        `The batch has invalid recipients, so nothing was started: recipient 2: Invalid Ethereum address ('${WRONG_CHECKSUM}' has a wrong checksum (mixed upper and lower case that does not match): check it for a typo).`,
      ],
      [
        "a total past uint256 (stated in words)",
        {
          recipients: [
            { address: A, amount: half },
            { address: A, amount: half },
          ],
        },
        "The batch's total is larger than any USDX amount can be (2^256 - 1 base units), so nothing was started.",
      ],
      [
        "a payer that is no address",
        { recipients: [{ address: A, amount: "1" }], payer: "0x12" },
        "payer: '0x12' is not a valid address: it must be 0x followed by 40 hex characters.",
      ],
    ]);
    // 100 emoji are 100 characters to both.
    const started = await call(server, "POST", "/api/batch/execute", {
      token,
      body: { recipients: [{ name: "😀".repeat(100), address: A, amount: "1" }] },
    });
    expect(started.status, JSON.stringify(started.body)).to.equal(201);
  });

  it("the rest: rewards refuse the zero address, a SafeTx carries no ether and no refund, a CSV body is not blank", async () => {
    expect(parameter("/api/rewards/{address}", "address").schema).to.deep.include({ not: { pattern: "^\\s*0x0{40}\\s*$" } });
    expect(properties(bodySchema("/api/safes/{safe}/proposals")).tx).to.deep.equal({ $ref: "#/components/schemas/SafeTx" });
    const tx = properties(
      (JSON.parse(JSON.stringify(openApiDocument())) as { components: { schemas: Record<string, Json> } }).components.schemas.SafeTx,
    );
    expect(tx.value.allOf).to.deep.equal([{ pattern: "^0+$" }]);
    expect(tx.gasToken.const).to.equal(ZERO);
    expect(properties(bodySchema("/api/batch/parse-csv")).csvData.pattern).to.equal("\\S");
    expect(properties(bodySchema("/api/contacts/import")).csvData.pattern).to.equal("\\S");

    await refused("GET", `/api/rewards/${ZERO}`, [
      ["the zero address", undefined, "The zero address holds no USDX: it is where mints come from and burns go."],
    ]);
    const safeTx = {
      to: A,
      value: "0",
      data: "0x8456cb59",
      operation: 0,
      safeTxGas: "0",
      baseGas: "0",
      gasPrice: "0",
      gasToken: ZERO,
      refundReceiver: ZERO,
      nonce: "0",
    };
    const signature = `0x${"11".repeat(64)}1b`;
    // A is no Safe: the body is refused before the Safe is read.
    await refused("POST", `/api/safes/${A}/proposals`, [
      ["ether", { tx: { ...safeTx, value: "5" }, signature }, "A proposal sends no ether: value must be 0, not 5."],
      [
        "a gas price",
        { tx: { ...safeTx, gasPrice: "007" }, signature },
        "gasPrice must be 0, not 7: a proposal pays no refund (the owner who executes it pays the gas).",
      ],
      [
        "a refund receiver",
        { tx: { ...safeTx, refundReceiver: A }, signature },
        "refundReceiver must be the zero address: a proposal pays no refund (the owner who executes it pays the gas).",
      ],
    ]);
    const empty = "The CSV file is empty: it needs a header row and at least one row of data.";
    await refused("POST", "/api/batch/parse-csv", [["spaces only", { csvData: " \n\t" }, empty]]);
    await refused("POST", "/api/contacts/import", [["spaces only", { csvData: "\uFEFF  " }, empty]]);
  });

  it("the document's check catches a document that leaves one of these rules out", () => {
    const before = doc();
    const account = properties(
      (before.paths["/api/bank/accounts"].post.requestBody as { content: Record<string, { schema: Json }> }).content["application/json"]
        .schema,
    );
    delete account.routingNumber.pattern;
    const refusal = { success: false, error: "Invalid Bank Account: the routing number must be exactly 9 digits." };
    const request = {
      method: "POST",
      path: "/api/bank/accounts",
      contentType: "application/json",
      body: JSON.stringify({ name: "Everyday", type: "checking", accountNumber: "000123456789", routingNumber: "02100002" }),
    };
    expect(() => checkWithDocument(request, 400, refusal, "application/json", before)).to.throw(/but the OpenAPI document calls it valid/);
    expect(() => checkWithDocument(request, 400, refusal, "application/json")).not.to.throw();
    // A rule stated in words only (fromBlock after toBlock) passes unstated; the same request with its range in order is taken.
    const reversed = { method: "GET", path: "/api/events?fromBlock=5&toBlock=3" };
    expect(() =>
      checkWithDocument(reversed, 400, { success: false, error: "fromBlock (5) is after toBlock (3)." }, "application/json"),
    ).not.to.throw();
  });
});
