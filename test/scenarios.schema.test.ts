/**
 * A scenario file's schema (server/src/services/scenarios/schema.ts): every field, wrong, is
 * refused with the file, the line and the field, and a sentence; nothing here reaches a chain. The
 * last test walks the schema itself, so a field added without a case here fails it.
 */
import { expect } from "chai";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { z } from "zod";
import { loadScenario, parseScenario, ScenarioFileError } from "../server/src/services/scenarios/load";
import { ScenarioSchema } from "../server/src/services/scenarios/schema";

/** Lines 1 to 5; a case's own lines start at line 6. */
const BASE = `description: A scenario for the table.
accounts:
  admin: { index: 0 }
  alice: { index: 7 }
  bob: { generated: true }
`;

interface Case {
  /** The field as the message names it. */
  field: string;
  /** Lines after BASE (or, with `whole`, the whole file). */
  yaml: string;
  line: number;
  message: string | RegExp;
  whole?: boolean;
}

const CASES: Case[] = [
  // The file as a whole
  { field: "", whole: true, yaml: "description: [unclosed\n", line: 2, message: /is not readable YAML or JSON/ },
  {
    field: "",
    whole: true,
    yaml: "description: a\ndescription: b\naccounts: {}\n",
    line: 2,
    message: /is not readable YAML or JSON \(Map keys must be unique/,
  },
  { field: "", whole: true, yaml: "", line: 0, message: "is empty: a scenario names at least its description and accounts" },
  { field: "", whole: true, yaml: "- a list\n", line: 1, message: "must be a map of fields such as description, accounts, balances" },
  { field: "colour", yaml: "colour: blue\n", line: 6, message: /^is not a field of a scenario \(the fields: description, accounts, safes/ },
  // description
  {
    field: "description",
    whole: true,
    yaml: "accounts: { admin: { index: 0 } }\n",
    line: 1,
    message: "is missing: say in a sentence what a tester checks with this scenario",
  },
  {
    field: "description",
    whole: true,
    yaml: "description: ''\naccounts: { admin: { index: 0 } }\n",
    line: 1,
    message: "must be a sentence saying what a tester checks with this scenario",
  },
  {
    field: "description",
    whole: true,
    yaml: `description: ${"x".repeat(301)}\naccounts: { admin: { index: 0 } }\n`,
    line: 1,
    message: "must be one sentence of at most 300 characters",
  },
  // accounts
  { field: "accounts", whole: true, yaml: "description: d\n", line: 1, message: "is missing" },
  {
    field: "accounts",
    whole: true,
    yaml: "description: d\naccounts: [admin]\n",
    line: 2,
    message: "must map account names to { index: N } or { generated: true }",
  },
  { field: "accounts", whole: true, yaml: "description: d\naccounts: {}\n", line: 2, message: "must name at least one account" },
  {
    field: 'accounts."admin!"',
    whole: true,
    yaml: "description: d\naccounts:\n  admin!: { index: 0 }\n",
    line: 3,
    message: /^is not a name: use letters, digits, spaces/,
  },
  {
    field: "accounts.carol",
    yaml: "  carol: 9\n",
    line: 6,
    message: /^must be \{ index: N \} \(account N of the local mnemonic\) or \{ generated: true \}/,
  },
  {
    field: "accounts.carol.index",
    yaml: "  carol: { index: -1 }\n",
    line: 6,
    message: "must be a whole number from 0 to 9999: an account of the local mnemonic",
  },
  {
    field: "accounts.carol.index",
    yaml: "  carol: { index: 1.5 }\n",
    line: 6,
    message: "must be a whole number from 0 to 9999: an account of the local mnemonic",
  },
  { field: "accounts.carol.index", yaml: "  carol: { index: 7 }\n", line: 6, message: "is also alice's index: give each account its own" },
  {
    field: "accounts.carol.generated",
    yaml: "  carol: { generated: yes }\n",
    line: 6,
    message: "must be true: a new test key made for this scenario",
  },
  {
    field: "accounts.carol",
    yaml: "  carol: { index: 8, generated: true }\n",
    line: 6,
    message: /^must be \{ index: N \} \(account N of the local mnemonic\) or \{ generated: true \}/,
  },
  // safes
  { field: "safes", yaml: "safes: [Treasury]\n", line: 6, message: "must map Safe names to { owners, threshold }" },
  { field: "safes.Treasury", yaml: "safes:\n  Treasury: 2\n", line: 7, message: "must be { owners: [account names], threshold: N }" },
  {
    field: 'safes."Bad Safe!"',
    yaml: "safes:\n  Bad Safe!: { owners: [admin], threshold: 1 }\n",
    line: 7,
    message: /^is not a name: use letters/,
  },
  {
    field: "safes.alice",
    yaml: "safes:\n  alice: { owners: [admin], threshold: 1 }\n",
    line: 7,
    message: "is also an account's name: give the Safe a name of its own",
  },
  { field: "safes.Treasury.owners", yaml: "safes:\n  Treasury: { threshold: 1 }\n", line: 7, message: "is missing" },
  {
    field: "safes.Treasury.owners",
    yaml: "safes:\n  Treasury: { owners: [], threshold: 1 }\n",
    line: 7,
    message: "must name at least one owner",
  },
  {
    field: "safes.Treasury.owners[1]",
    yaml: "safes:\n  Treasury: { owners: [admin, zoe], threshold: 1 }\n",
    line: 7,
    message: 'must be an account of this scenario ("zoe" is not one)',
  },
  {
    field: "safes.Treasury.owners[1]",
    yaml: "safes:\n  Treasury: { owners: [admin, admin], threshold: 1 }\n",
    line: 7,
    message: "names admin twice",
  },
  {
    field: "safes.Treasury.threshold",
    yaml: "safes:\n  Treasury: { owners: [admin], threshold: 0 }\n",
    line: 7,
    message: "must be a whole number from 1 to the number of owners",
  },
  {
    field: "safes.Treasury.threshold",
    yaml: "safes:\n  Treasury:\n    owners: [admin, alice]\n    threshold: 3\n",
    line: 9,
    message: "must be from 1 to the number of owners (2)",
  },
  // roles
  { field: "roles", yaml: "roles: [admin]\n", line: 6, message: "must map roles to their holders, such as MINTER_ROLE: [minter]" },
  {
    field: "roles.BOSS_ROLE",
    yaml: "roles:\n  MINTER_ROLE: [alice]\n  BOSS_ROLE: [alice]\n",
    line: 8,
    message: /^is not a role of USDX \(the roles: DEFAULT_ADMIN_ROLE, MINTER_ROLE/,
  },
  {
    field: "roles.MINTER_ROLE",
    yaml: "roles:\n  MINTER_ROLE: alice\n",
    line: 7,
    message: "must be a list of account or Safe names (or 0x addresses)",
  },
  {
    field: "roles.MINTER_ROLE[0]",
    yaml: "roles:\n  MINTER_ROLE: [{ name: alice }]\n",
    line: 7,
    message: "must be an account or Safe name, or a 0x address",
  },
  {
    field: "roles.MINTER_ROLE[1]",
    yaml: "roles:\n  MINTER_ROLE: [alice, zoe]\n",
    line: 7,
    message: /^names no account or Safe of this scenario \("zoe"; the names: admin, alice, bob\)/,
  },
  {
    field: "roles.MINTER_ROLE[0]",
    yaml: "roles:\n  MINTER_ROLE: [0x70997970c51812dc3A010C7d01b50e0d17dc79C8]\n",
    line: 7,
    message: /^is not a valid address \(its checksum is wrong\)/,
  },
  { field: "roles.MINTER_ROLE[1]", yaml: "roles:\n  MINTER_ROLE: [alice, alice]\n", line: 7, message: "names alice twice" },
  {
    field: "roles.DEFAULT_ADMIN_ROLE",
    yaml: "roles:\n  DEFAULT_ADMIN_ROLE: []\n",
    line: 7,
    message: "must name at least one holder: without an admin nobody could grant a role again",
  },
  // balances
  { field: "balances", yaml: "balances: [alice]\n", line: 6, message: "must map account and Safe names to their balances" },
  {
    field: "balances.alice",
    yaml: "balances:\n  alice: 12x\n",
    line: 7,
    message: 'must be an amount of USDX such as "1000" or "0.5", or { shares: N }',
  },
  {
    field: "balances.alice",
    yaml: "balances:\n  alice: -5\n",
    line: 7,
    message: 'must be an amount of USDX such as "1000" or "0.5", or { shares: N }',
  },
  {
    field: "balances.alice",
    yaml: 'balances:\n  alice: "0.0000000000000000001"\n',
    line: 7,
    message: 'must be an amount of USDX such as "1000" or "0.5", or { shares: N }',
  },
  { field: "balances.zoe", yaml: "balances:\n  zoe: 5\n", line: 7, message: /^names no account or Safe of this scenario \("zoe"/ },
  {
    field: "balances.alice.shares",
    yaml: "balances:\n  alice: { shares: 1.5 }\n",
    line: 7,
    message: "must be a whole number of shares such as 1",
  },
  // blocked
  { field: "blocked", yaml: "blocked: alice\n", line: 6, message: "must be a list of account or Safe names" },
  { field: "blocked[0]", yaml: "blocked: [7]\n", line: 6, message: "must be an account or Safe name" },
  { field: "blocked[0]", yaml: "blocked: [zoe]\n", line: 6, message: /^names no account or Safe of this scenario \("zoe"/ },
  { field: "blocked[1]", yaml: "blocked: [alice, alice]\n", line: 6, message: "names alice twice" },
  // paused
  { field: "paused", yaml: "paused: yes\n", line: 6, message: "must be true or false" },
  // multiplier
  { field: "multiplier", yaml: "multiplier: 0.5\n", line: 6, message: /^must be the reward multiplier, 1\.0 or more, such as "1\.015"/ },
  { field: "multiplier", yaml: "multiplier: high\n", line: 6, message: /^must be the reward multiplier, 1\.0 or more/ },
  {
    field: "multiplier.set",
    yaml: 'multiplier: { set: "0.9", add: "0.2" }\n',
    line: 6,
    message: "must be the multiplier to set, 1.0 or more",
  },
  {
    field: "multiplier.add",
    yaml: 'multiplier: { set: "1.1", add: "0" }\n',
    line: 6,
    message: 'must be the increment to add after it, above 0, such as "0.0025"',
  },
  // history
  {
    field: "history",
    yaml: "history: { transfer: [] }\n",
    line: 6,
    message: /^must be \{ transfers: \[\{ from, to, amount \}\] \} or \{ generated/,
  },
  { field: "history.transfers", yaml: "history: { transfers: [] }\n", line: 6, message: "must list at least one transfer" },
  { field: "history.transfers[0]", yaml: "history:\n  transfers:\n    - alice to bob\n", line: 8, message: "must be { from, to, amount }" },
  {
    field: "history.transfers[0].from",
    yaml: "history:\n  transfers:\n    - { from: zoe, to: bob, amount: 5 }\n",
    line: 8,
    message: /^names no account or Safe of this scenario \("zoe"/,
  },
  {
    field: "history.transfers[0].to",
    yaml: "history:\n  transfers:\n    - { from: alice, to: alice, amount: 5 }\n",
    line: 8,
    message: "is the sender too: alice cannot send to itself",
  },
  { field: "history.transfers[0].to", yaml: "history:\n  transfers:\n    - { from: alice, amount: 5 }\n", line: 8, message: "is missing" },
  {
    field: "history.transfers[0].amount",
    yaml: "history:\n  transfers:\n    - { from: alice, to: bob, amount: 0 }\n",
    line: 8,
    message: 'must be an amount of USDX above 0, such as "1000" or "0.5"',
  },
  { field: "history.generated", yaml: "history: { generated: 5 }\n", line: 6, message: "must be { count, between: [names], days }" },
  {
    field: "history.generated.count",
    yaml: "history: { generated: { count: 0, between: [alice, bob], days: 1 } }\n",
    line: 6,
    message: "must be a whole number of transfers from 1 to 1000",
  },
  {
    field: "history.generated.count",
    yaml: "history: { generated: { count: 1001, between: [alice, bob], days: 1 } }\n",
    line: 6,
    message: "must be a whole number of transfers from 1 to 1000",
  },
  {
    field: "history.generated.between",
    yaml: "history: { generated: { count: 5, between: [alice], days: 1 } }\n",
    line: 6,
    message: "must name at least two accounts or Safes to transfer between",
  },
  {
    field: "history.generated.between[1]",
    yaml: "history: { generated: { count: 5, between: [alice, zoe], days: 1 } }\n",
    line: 6,
    message: /^names no account or Safe of this scenario \("zoe"/,
  },
  {
    field: "history.generated.between[1]",
    yaml: "history: { generated: { count: 5, between: [alice, alice], days: 1 } }\n",
    line: 6,
    message: "names alice twice",
  },
  {
    field: "history.generated.days",
    yaml: "history: { generated: { count: 5, between: [alice, bob], days: 1.5 } }\n",
    line: 6,
    message: "must be a whole number of days from 0 to 3650",
  },
  // holders
  { field: "holders", yaml: "holders: 10000\n", line: 6, message: "must be { count, balance, payer }" },
  {
    field: "holders.count",
    yaml: "holders: { count: 0, balance: 1, payer: admin }\n",
    line: 6,
    message: "must be a whole number of holders from 1 to 100,000",
  },
  {
    field: "holders.balance",
    yaml: "holders: { count: 5, balance: 0, payer: admin }\n",
    line: 6,
    message: `must be each holder's balance, an amount of USDX above 0, such as "1000" or "0.5"`,
  },
  { field: "holders.payer", yaml: "holders: { count: 5, balance: 1 }\n", line: 6, message: "is missing" },
  {
    field: "holders.payer",
    yaml: "holders: { count: 5, balance: 1, payer: zoe }\n",
    line: 6,
    message: /^names no account or Safe of this scenario \("zoe"/,
  },
  // user (applied by the API server; checked here all the same)
  { field: "user", yaml: "user: tester\n", line: 6, message: "must be { email, password, wallet?, contacts?, bankAccounts?, batch? }" },
  {
    field: "user.email",
    yaml: "user: { email: tester, password: secret1 }\n",
    line: 6,
    message: "must be an email address such as tester@example.com",
  },
  { field: "user.password", yaml: "user: { email: t@example.com, password: abc }\n", line: 6, message: "must be at least 6 characters" },
  {
    field: "user.wallet",
    yaml: "user: { email: t@example.com, password: secret1, wallet: zoe }\n",
    line: 6,
    message: 'must be an account of this scenario ("zoe" is not one)',
  },
  {
    field: "user.contacts",
    yaml: "user: { email: t@example.com, password: secret1, contacts: alice }\n",
    line: 6,
    message: "must be a list of { name, address, notes? }",
  },
  {
    field: "user.contacts[0]",
    yaml: "user:\n  email: t@example.com\n  password: secret1\n  contacts: [Alice]\n",
    line: 9,
    message: "must be { name, address, notes? }",
  },
  {
    field: "user.contacts[0].name",
    yaml: "user:\n  email: t@example.com\n  password: secret1\n  contacts:\n    - { address: alice }\n",
    line: 10,
    message: "Missing information - Please provide both name and address",
  },
  {
    field: "user.contacts[0].name",
    yaml: `user:\n  email: t@example.com\n  password: secret1\n  contacts:\n    - { name: ${"n".repeat(101)}, address: alice }\n`,
    line: 10,
    message: "Name too long - Please keep the name to 100 characters or fewer",
  },
  {
    field: "user.contacts[0].address",
    yaml: "user:\n  email: t@example.com\n  password: secret1\n  contacts:\n    - { name: Zoe, address: zoe }\n",
    line: 10,
    message: /^names no account or Safe of this scenario \("zoe"/,
  },
  {
    field: "user.contacts[0].notes",
    yaml: `user:\n  email: t@example.com\n  password: secret1\n  contacts:\n    - { name: Al, address: alice, notes: ${"n".repeat(501)} }\n`,
    line: 10,
    message: "Notes too long - Please keep the notes to 500 characters or fewer",
  },
  {
    field: "user.bankAccounts[0].name",
    yaml: 'user:\n  email: t@example.com\n  password: secret1\n  bankAccounts:\n    - { name: "", routingNumber: "021000021", accountNumber: "1234" }\n',
    line: 10,
    message: "must be the bank account's name",
  },
  {
    field: "user.bankAccounts[0].type",
    yaml: 'user:\n  email: t@example.com\n  password: secret1\n  bankAccounts:\n    - { name: B, type: business, routingNumber: "021000021", accountNumber: "1234" }\n',
    line: 10,
    message: "must be checking or savings",
  },
  {
    field: "user.bankAccounts[0].routingNumber",
    yaml: 'user:\n  email: t@example.com\n  password: secret1\n  bankAccounts:\n    - { name: B, routingNumber: "02100002", accountNumber: "1234" }\n',
    line: 10,
    message: "must be the routing number: exactly 9 digits, in quotes",
  },
  {
    field: "user.bankAccounts[0].accountNumber",
    yaml: 'user:\n  email: t@example.com\n  password: secret1\n  bankAccounts:\n    - { name: B, routingNumber: "021000021", accountNumber: "123" }\n',
    line: 10,
    message: "must be the account number: 4 to 17 digits, in quotes",
  },
  {
    field: "user.bankAccounts[0]",
    yaml: "user:\n  email: t@example.com\n  password: secret1\n  bankAccounts: [Checking]\n",
    line: 9,
    message: "must be { name, type?, routingNumber, accountNumber }",
  },
  {
    field: "user.bankAccounts",
    yaml: "user:\n  email: t@example.com\n  password: secret1\n  bankAccounts: B\n",
    line: 9,
    message: "must be a list of { name, type?, routingNumber, accountNumber }",
  },
  {
    field: "user.batch",
    yaml: "user:\n  email: t@example.com\n  password: secret1\n  batch: half\n",
    line: 9,
    message: "must be { payer, recipients, amountEach, paidChunks }",
  },
  {
    field: "user.batch.payer",
    yaml: "user:\n  email: t@example.com\n  password: secret1\n  batch: { payer: zoe, recipients: 10, amountEach: 1, paidChunks: 1 }\n",
    line: 9,
    message: 'must be an account of this scenario ("zoe" is not one)',
  },
  {
    field: "user.batch.recipients",
    yaml: "user:\n  email: t@example.com\n  password: secret1\n  batch: { payer: alice, recipients: 10001, amountEach: 1, paidChunks: 1 }\n",
    line: 9,
    message: "must be a whole number of recipients from 1 to 10,000",
  },
  {
    field: "user.batch.amountEach",
    yaml: "user:\n  email: t@example.com\n  password: secret1\n  batch: { payer: alice, recipients: 10, amountEach: -1, paidChunks: 1 }\n",
    line: 9,
    message: 'must be what each recipient gets, an amount of USDX above 0, such as "1000" or "0.5"',
  },
  {
    field: "user.batch.paidChunks",
    yaml: "user:\n  email: t@example.com\n  password: secret1\n  batch: { payer: alice, recipients: 10, amountEach: 1, paidChunks: -1 }\n",
    line: 9,
    message: "must be a whole number of chunks already paid, 0 or more",
  },
];

const FILE = "scenarios/table.yaml";

function problemsOf(text: string) {
  try {
    parseScenario(text, FILE, "table");
  } catch (error) {
    if (error instanceof ScenarioFileError) return error;
    throw error;
  }
  throw new Error("the file was accepted");
}

describe("scenario files: a wrong file is refused with its file, line and field", () => {
  for (const c of CASES) {
    const text = c.whole ? c.yaml : BASE + c.yaml;
    it(`${c.field || "the file"}: ${String(c.message).slice(0, 90)}`, () => {
      const error = problemsOf(text);
      const problem = error.problems.find(
        (p) => p.field === c.field && (typeof c.message === "string" ? p.message === c.message : c.message.test(p.message)),
      );
      expect(problem, `problems: ${error.message}`).to.not.equal(undefined);
      expect(problem!.line ?? 0).to.equal(c.line);
      const where = [FILE, c.line ? `line ${c.line}` : null, c.field || null].filter(Boolean).join(", ");
      expect(error.message).to.contain(`${where}: ${problem!.message}`);
    });
  }

  it("accepts the base file and keeps an amount's digits as written (YAML would read 9949.28375000000000001 as a float)", () => {
    const scenario = parseScenario(`${BASE}balances:\n  alice: 9949.28375000000000001\n  admin: 1000\n`, FILE, "table");
    expect(scenario.balances).to.deep.equal({ alice: "9949.28375000000000001", admin: "1000" });
    expect(scenario.name).to.equal("table");
  });

  it("reads JSON too, naming the line of a wrong field", () => {
    const json = JSON.stringify({ description: "d", accounts: { admin: { index: 0 } }, paused: "no" }, null, 2);
    const error = problemsOf(json);
    expect(error.message).to.equal(`${FILE}, line 8, paused: must be true or false`);
  });

  it("names the file it read, from the repository's root, and refuses one that is not there or not YAML or JSON", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "usdx-scenario-"));
    try {
      writeFileSync(path.join(dir, "x.yaml"), `${BASE}paused: maybe\n`);
      expect(() => loadScenario(path.join(dir, "x.yaml"))).to.throw(ScenarioFileError, /x\.yaml, line 6, paused: must be true or false$/);
      expect(() => loadScenario("scenarios/nowhere.yaml")).to.throw("scenarios/nowhere.yaml: there is no such file");
      writeFileSync(path.join(dir, "x.txt"), BASE);
      expect(() => loadScenario(path.join(dir, "x.txt"))).to.throw(/x\.txt: a scenario file ends in \.yaml, \.yml, \.json$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("takes scenarios/README.md's example, one of each field, as a valid scenario", () => {
    const readme = readFileSync(path.join(__dirname, "..", "scenarios", "README.md"), "utf8");
    const example = /```yaml\n([\s\S]*?)```/.exec(readme)![1];
    const scenario = parseScenario(example, "scenarios/README.md", "readme");
    const fields = schemaFields(ScenarioSchema).filter((f) => !f.includes(".") && !f.includes("["));
    expect(
      Object.keys(scenario)
        .filter((k) => k !== "name" && k !== "file")
        .sort(),
    ).to.deep.equal(fields.sort());
  });

  it("covers every field of the schema", () => {
    const covered = new Set(CASES.map((c) => generalize(c.field)));
    const missing = schemaFields(ScenarioSchema).filter((f) => !covered.has(f));
    expect(missing, "fields without a case in the table").to.deep.equal([]);
  });
});

/** accounts.carol.index -> accounts.*.index; history.transfers[0].from -> history.transfers[].from */
function generalize(field: string): string {
  const RECORDS = ["accounts", "safes", "balances"];
  return field
    .replace(/\[\d+\]/g, "[]")
    .replace(/"[^"]*"/g, "NAME")
    .split(".")
    .map((part, i, parts) => (i > 0 && RECORDS.includes(parts[i - 1]) && i === 1 ? "*" : part))
    .join(".")
    .replace(/^roles\.[A-Z_]+/, "roles.*");
}

/** Every field path of the schema, records' keys as *, lists' items as []. */
function schemaFields(schema: z.ZodType): string[] {
  const out = new Set<string>();
  const walk = (node: z.ZodType, at: string) => {
    const def = (node as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
    switch (def.type) {
      case "object":
        if (at) out.add(at);
        for (const [key, child] of Object.entries(def.shape as Record<string, z.ZodType>)) walk(child, at ? `${at}.${key}` : key);
        return;
      case "record":
        out.add(at);
        return walk(def.valueType as z.ZodType, `${at}.*`);
      case "array":
        out.add(at);
        return walk(def.element as z.ZodType, `${at}[]`);
      case "union":
        out.add(at);
        for (const option of def.options as z.ZodType[]) walk(option, at);
        return;
      case "optional":
      case "default":
      case "nullable":
        return walk(def.innerType as z.ZodType, at);
      case "pipe":
        return walk(
          (def.in as { _zod: { def: { type: string } } })._zod.def.type === "transform" ? (def.out as z.ZodType) : (def.in as z.ZodType),
          at,
        );
      default:
        out.add(at);
    }
  };
  walk(schema, "");
  return [...out].filter((f) => f !== "");
}
