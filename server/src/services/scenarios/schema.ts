import { z } from "zod";
import { isAddress } from "ethers";
import { parseTokenAmount } from "@common/amounts";
import { checksumHolds } from "@common/api/schemas";
import { ROLE_NAMES, type RoleName } from "@common/roles";
import { count } from "@common/wording";
import { AMOUNT_EXAMPLE, Amount, PositiveAmount, asText, isAmount, missingOr, wholeNumber } from "./fields";
import { User } from "./userSchema";

/*
 * A scenario file's schema (scenarios/README.md shows each field with an example). Every sentence
 * here is what a tester reads after the file's name, the line and the field:
 *   scenarios/x.yaml, line 12, balances.alice: must be an amount of USDX such as "1000" or "0.5"
 * The state a file states, field by field (the same rules as the README's):
 *   - roles are token-wide: a role the file lists has exactly the holders listed (any other holder
 *     is revoked); a role it does not list keeps its holders.
 *   - paused is token-wide: left out, the token ends unpaused.
 *   - multiplier is token-wide: left out, it stays as the chain has it.
 *   - balances and blocked are for the accounts and Safes the file names: a named one not in
 *     balances ends at 0, one not in blocked ends unblocked. Addresses it does not name keep theirs.
 *   - a balance is reached at its target or less than one share's worth above it (balance =
 *     shares x multiplier), never below.
 */

/** A name of an account or a Safe: what the other fields refer to it by. */
export const NAME = /^[A-Za-z0-9](?:[A-Za-z0-9 _-]{0,46}[A-Za-z0-9_-])?$/;
const NAME_RULE = "use letters, digits, spaces, '-' or '_', up to 48 characters, starting and ending with a letter or digit";

/** The highest account index of the local mnemonic a file may name. */
export const MAX_ACCOUNT_INDEX = 9999;
/** At most this many generated transfers, and holders in a crowd. */
export const MAX_GENERATED_TRANSFERS = 1000;
export const MAX_HOLDERS = 100_000;
export const MAX_HISTORY_DAYS = 3650;

const Description = z
  .string({
    error: missingOr(
      "must be a sentence saying what a tester checks with this scenario",
      "is missing: say in a sentence what a tester checks with this scenario",
    ),
  })
  .trim()
  .min(1, "must be a sentence saying what a tester checks with this scenario")
  .max(300, "must be one sentence of at most 300 characters")
  .meta({ description: "One sentence: what a tester checks with this scenario. The dashboard's Scenarios panel shows it." });

const ACCOUNT_WRONG = "must be { index: N } (account N of the local mnemonic) or { generated: true } (a new test key, printed)";
const Account = z
  .strictObject(
    {
      index: wholeNumber(
        0,
        MAX_ACCOUNT_INDEX,
        `must be a whole number from 0 to ${MAX_ACCOUNT_INDEX}: an account of the local mnemonic`,
      ).optional(),
      generated: z.literal(true, { error: "must be true: a new test key made for this scenario" }).optional(),
    },
    { error: ACCOUNT_WRONG },
  )
  .refine((a) => (a.index === undefined) !== (a.generated === undefined), ACCOUNT_WRONG)
  .meta({
    description:
      "{ index: N }: account N of Hardhat's test mnemonic (unlocked on the node for the first 20). { generated: true }: a key derived from the scenario's and the account's names (so applying again finds the same account), printed with its private key.",
  });

const Safe = z
  .strictObject(
    {
      owners: z
        .array(z.string({ error: "must be an account name" }), { error: missingOr("must be a list of the owners' account names") })
        .min(1, "must name at least one owner")
        .max(10, "may name at most 10 owners"),
      threshold: wholeNumber(1, 10, "must be a whole number from 1 to the number of owners"),
    },
    { error: missingOr("must be { owners: [account names], threshold: N }") },
  )
  .meta({
    description:
      "A Safe v1.4.1 made of these owners (account names) and threshold. It is there already when the manifest names a Safe of this name with code, these owners and this threshold; else one is created and recorded in the manifest.",
  });

const Holders = z.array(z.string({ error: "must be an account or Safe name, or a 0x address" }), {
  error: "must be a list of account or Safe names (or 0x addresses)",
});

const Roles = z
  .partialRecord(z.enum(ROLE_NAMES), Holders, {
    // An unknown key of a record keyed by an enum is refused as an unrecognized key.
    error: (issue) =>
      (issue as { code: string }).code === "unrecognized_keys"
        ? `is not a role of USDX (the roles: ${ROLE_NAMES.join(", ")})`
        : "must map roles to their holders, such as MINTER_ROLE: [minter]",
  })
  .meta({
    description:
      "Token-wide: a role listed here has exactly these holders (others are revoked); a role not listed keeps its holders. DEFAULT_ADMIN_ROLE may not be left without one.",
  });

const BALANCE_WRONG = `must be an amount of USDX ${AMOUNT_EXAMPLE}, or { shares: N }`;
const Balance = z.union(
  [
    Amount(BALANCE_WRONG),
    z.strictObject({ shares: z.preprocess(asText, z.string().regex(/^\d{1,60}$/, "must be a whole number of shares such as 1")) }),
  ],
  { error: BALANCE_WRONG },
);

const Balances = z.record(z.string(), Balance, { error: "must map account and Safe names to their balances" }).meta({
  description: `The balance each named account or Safe ends with, in USDX (${AMOUNT_EXAMPLE}), or in shares ({ shares: 1 }: dust worth the multiplier in wei). A target, not an amount to mint: reached at it or less than one share's worth above. A named account or Safe left out ends at 0.`,
});

const Blocked = z.array(z.string({ error: "must be an account or Safe name" }), { error: "must be a list of account or Safe names" }).meta({
  description: "The named accounts and Safes that end blocked; every other one the file names ends unblocked.",
});

const MULTIPLIER_WRONG = 'must be the reward multiplier, 1.0 or more, such as "1.015", or { set: "1.0125", add: "0.0025" }';
const isMultiplier = (text: string) => isAmount(text) && parseTokenAmount(text) >= parseTokenAmount("1");
const Multiplier = z
  .union(
    [
      z.preprocess(asText, z.string().refine(isMultiplier, MULTIPLIER_WRONG)),
      z.strictObject({
        set: z.preprocess(
          asText,
          z
            .string({ error: missingOr("must be the multiplier to set, 1.0 or more") })
            .refine(isMultiplier, "must be the multiplier to set, 1.0 or more"),
        ),
        add: PositiveAmount('must be the increment to add after it, above 0, such as "0.0025"'),
      }),
    ],
    { error: MULTIPLIER_WRONG },
  )
  .meta({
    description:
      'Token-wide. "1.015": set to it. { set, add }: set, then add (both of the oracle\'s calls), ending at their sum. Left out: the multiplier stays as it is.',
  });

const Transfer = z.strictObject(
  {
    from: z.string({ error: missingOr("must be the sender's account or Safe name") }),
    to: z.string({ error: missingOr("must be the receiver's account or Safe name") }),
    amount: PositiveAmount(`must be an amount of USDX above 0, ${AMOUNT_EXAMPLE}`),
  },
  { error: "must be { from, to, amount }" },
);

const HISTORY_WRONG = "must be { transfers: [{ from, to, amount }] } or { generated: { count, between: [names], days } }";
const History = z
  .strictObject(
    {
      transfers: z
        .array(Transfer, { error: "must be a list of { from, to, amount }" })
        .min(1, "must list at least one transfer")
        .optional(),
      generated: z
        .strictObject(
          {
            count: wholeNumber(1, MAX_GENERATED_TRANSFERS, `must be a whole number of transfers from 1 to ${MAX_GENERATED_TRANSFERS}`),
            between: z
              .array(z.string({ error: "must be an account or Safe name" }), {
                error: "must be a list of at least two account or Safe names",
              })
              .min(2, "must name at least two accounts or Safes to transfer between"),
            days: wholeNumber(0, MAX_HISTORY_DAYS, `must be a whole number of days from 0 to ${MAX_HISTORY_DAYS}`),
          },
          { error: "must be { count, between: [names], days }" },
        )
        .optional(),
    },
    { error: HISTORY_WRONG },
  )
  .refine((h) => (h.transfers === undefined) !== (h.generated === undefined), HISTORY_WRONG)
  .meta({
    description:
      "Transfers to make once, so charts, rewards and exports have something to show: an explicit list in order, or `generated` (amounts and pairs from a generator seeded by the scenario's name, spread over `days` of block time). Made already when the chain's Transfer logs hold each of its transfers. Each sender is funded before it, so the balances still end at their targets.",
  });

const Crowd = z
  .strictObject(
    {
      count: wholeNumber(1, MAX_HOLDERS, `must be a whole number of holders from 1 to ${count(MAX_HOLDERS)}`),
      balance: PositiveAmount(`must be each holder's balance, an amount of USDX above 0, ${AMOUNT_EXAMPLE}`),
      payer: z.string({ error: missingOr("must be the account or Safe that pays them") }),
    },
    { error: "must be { count, balance, payer }" },
  )
  .meta({
    description:
      "A crowd of holders at addresses derived from the scenario's name, paid through BatchPayments by `payer` (who is minted what it pays). One below its balance is topped up; none is ever burned.",
  });

const FIELDS = ["description", "accounts", "safes", "roles", "balances", "blocked", "paused", "multiplier", "history", "holders", "user"];

const ScenarioShape = z.strictObject(
  {
    description: Description,
    accounts: z.record(z.string(), Account, { error: missingOr("must map account names to { index: N } or { generated: true }") }).meta({
      description: "The named accounts, in the order the printout lists them.",
    }),
    safes: z.record(z.string(), Safe, { error: "must map Safe names to { owners, threshold }" }).optional(),
    roles: Roles.optional(),
    balances: Balances.optional(),
    blocked: Blocked.optional(),
    paused: z.boolean({ error: "must be true or false" }).optional().meta({ description: "Token-wide; left out: not paused." }),
    multiplier: Multiplier.optional(),
    history: History.optional(),
    holders: Crowd.optional(),
    user: User.optional(),
  },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `is not a field of a scenario (the fields: ${FIELDS.join(", ")})`
        : issue.input === undefined
          ? "is empty: a scenario names at least its description and accounts"
          : "must be a map of fields such as description, accounts, balances",
  },
);

/** What a file says, once checked. */
export type ScenarioFile = z.output<typeof ScenarioShape>;
export type BalanceTarget = z.output<typeof Balance>;

/** A checked scenario, named after its file ("paused" for scenarios/paused.yaml). */
export interface Scenario extends ScenarioFile {
  name: string;
  /** Where it was read from, as the messages show it ("scenarios/paused.yaml"). */
  file?: string;
}

/** Every name the file gives to an account or a Safe, each checked against NAME. */
export const ScenarioSchema = ScenarioShape.superRefine((file, ctx) => {
  const problem = (path: PropertyKey[], message: string) => ctx.addIssue({ code: "custom", path, message });
  const accounts = Object.keys(file.accounts);
  const safes = Object.keys(file.safes ?? {});
  const holders = [...accounts, ...safes];
  const known = holders.length > 0 ? `the names: ${holders.join(", ")}` : "this file names none";
  const holderName = (value: string, path: PropertyKey[], allowAddress = false) => {
    if (holders.includes(value)) return;
    if (allowAddress && /^0x[0-9a-fA-F]{40}$/.test(value)) {
      if (!isAddress(value) || !checksumHolds(value))
        problem(path, `is not a valid address (its checksum is wrong): check it, or write it in lower case`);
      return;
    }
    problem(path, `names no account or Safe of this scenario ("${value}"; ${known})`);
  };

  if (accounts.length === 0) problem(["accounts"], "must name at least one account");
  const byIndex = new Map<number, string>();
  for (const name of accounts) {
    if (!NAME.test(name)) problem(["accounts", name], `is not a name: ${NAME_RULE}`);
    const account = file.accounts[name];
    if (account.index !== undefined) {
      const other = byIndex.get(account.index);
      if (other !== undefined) problem(["accounts", name, "index"], `is also ${other}'s index: give each account its own`);
      byIndex.set(account.index, name);
    }
  }
  for (const name of safes) {
    if (!NAME.test(name)) problem(["safes", name], `is not a name: ${NAME_RULE}`);
    if (accounts.includes(name)) problem(["safes", name], "is also an account's name: give the Safe a name of its own");
    const safe = file.safes![name];
    safe.owners.forEach((owner, i) => {
      if (!accounts.includes(owner)) problem(["safes", name, "owners", i], `must be an account of this scenario ("${owner}" is not one)`);
      if (safe.owners.indexOf(owner) !== i) problem(["safes", name, "owners", i], `names ${owner} twice`);
    });
    if (safe.threshold > safe.owners.length) {
      problem(["safes", name, "threshold"], `must be from 1 to the number of owners (${safe.owners.length})`);
    }
  }
  for (const role of Object.keys(file.roles ?? {}) as RoleName[]) {
    const list = file.roles![role]!;
    list.forEach((holder, i) => {
      holderName(holder, ["roles", role, i], true);
      if (list.indexOf(holder) !== i) problem(["roles", role, i], `names ${holder} twice`);
    });
    if (role === "DEFAULT_ADMIN_ROLE" && list.length === 0) {
      problem(["roles", role], "must name at least one holder: without an admin nobody could grant a role again");
    }
  }
  for (const name of Object.keys(file.balances ?? {})) holderName(name, ["balances", name]);
  (file.blocked ?? []).forEach((name, i, list) => {
    holderName(name, ["blocked", i]);
    if (list.indexOf(name) !== i) problem(["blocked", i], `names ${name} twice`);
  });
  if (file.history?.transfers) {
    file.history.transfers.forEach((t, i) => {
      holderName(t.from, ["history", "transfers", i, "from"]);
      holderName(t.to, ["history", "transfers", i, "to"]);
      if (t.from === t.to) problem(["history", "transfers", i, "to"], `is the sender too: ${t.from} cannot send to itself`);
    });
  }
  if (file.history?.generated) {
    const between = file.history.generated.between;
    between.forEach((name, i) => {
      holderName(name, ["history", "generated", "between", i]);
      if (between.indexOf(name) !== i) problem(["history", "generated", "between", i], `names ${name} twice`);
    });
  }
  if (file.holders) holderName(file.holders.payer, ["holders", "payer"]);
  const user = file.user;
  if (user) {
    if (user.wallet !== undefined && !accounts.includes(user.wallet)) {
      problem(["user", "wallet"], `must be an account of this scenario ("${user.wallet}" is not one)`);
    }
    (user.contacts ?? []).forEach((c, i) => holderName(c.address, ["user", "contacts", i, "address"], true));
    if (user.batch && user.batch.payer === undefined && user.wallet === undefined) {
      problem(["user", "batch", "payer"], "must name the paying account, or the user needs a wallet");
    } else if (user.batch?.payer !== undefined && !accounts.includes(user.batch.payer)) {
      problem(["user", "batch", "payer"], `must be an account of this scenario ("${user.batch.payer}" is not one)`);
    }
  }
});
