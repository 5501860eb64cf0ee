import { z } from "zod";
import { parsePositiveTokenAmount } from "@common/amounts";
import { NewBankAccount } from "@common/api/bank";
import { ContactAddress, ContactName, ContactNotes } from "@common/api/contacts";
import { maxRecipientsPerChunk } from "@common/gasLimits";

/**
 * A scenario's Firebase test user (issue 31, part 1): who signs in, the wallet they pay from, their
 * contacts, bank accounts, and a batch job left half paid. Applied through the API server, as a
 * client would (./user.ts). Each field reuses the API's own declaration (common/api/contacts.ts,
 * bank.ts), so the file is refused with the words the API would answer. Account names are the
 * scenario's (`accounts:`); the engine's schema resolves them.
 */

/** A name from the scenario's `accounts:`. */
const AccountName = z
  .string({ message: "must be the name of one of the scenario's accounts" })
  .regex(/^[A-Za-z][A-Za-z0-9_-]{0,39}$/, "must be the name of one of the scenario's accounts (letters, digits, - and _)");

/** A contact's address: an address as the Contacts screen takes it (its own sentences), or an account's name. */
const AccountOrAddress = z
  .string({ message: "must be the name of one of the scenario's accounts, or an address" })
  .superRefine((text, ctx) => {
    const checked = (/^\s*0x/i.test(text) ? ContactAddress : AccountName).safeParse(text);
    if (!checked.success) for (const issue of checked.error.issues) ctx.addIssue({ code: "custom", message: issue.message });
  });

export const ScenarioContact = z.strictObject({
  name: ContactName,
  address: AccountOrAddress,
  notes: ContactNotes.optional(),
});
export type ScenarioContact = z.output<typeof ScenarioContact>;

/** A bank account as POST /api/bank/accounts takes it, with its digits checked as the bank checks them; checking unless said. */
export const ScenarioBankAccount = NewBankAccount.extend({
  type: NewBankAccount.shape.type.default("checking"),
  accountNumber: NewBankAccount.shape.accountNumber.regex(/^\d{4,17}$/, "the account number must be 4 to 17 digits"),
  routingNumber: NewBankAccount.shape.routingNumber.regex(/^\d{9}$/, "the routing number must be exactly 9 digits"),
}).strict();
export type ScenarioBankAccount = z.output<typeof ScenarioBankAccount>;

/** Recipients a job may have at most (BATCH_MAX_ROWS' default; a server set lower refuses with its own sentence). */
const BATCH_RECIPIENTS_MAX = 10_000;

export const ScenarioBatch = z
  .strictObject({
    name: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9 _-]{0,59}$/, "must be 1 to 60 letters, digits, spaces, - or _")
      .default("Scenario batch")
      .meta({ description: "Names the job: its recipients are called '<name> 1', '<name> 2', ..., which is how a second apply finds it." }),
    payer: AccountName.optional().meta({ description: "The account that pays it; the user's wallet when left out." }),
    recipients: z
      .number({ message: "must be a number of recipients" })
      .int("must be a whole number of recipients")
      .min(1, "must be at least 1")
      .max(BATCH_RECIPIENTS_MAX, `must be at most ${BATCH_RECIPIENTS_MAX.toLocaleString("en-US")}`)
      .meta({
        description: `How many new addresses it pays. The server cuts a job into chunks of BATCH_CHUNK_SIZE (${maxRecipientsPerChunk()} by default): a job half paid needs more recipients than one chunk holds.`,
      }),
    amountEach: z.string({ message: 'must be an amount of USDX such as "10" or "0.5"' }).refine(
      (text) => {
        try {
          parsePositiveTokenAmount(text);
          return true;
        } catch {
          return false;
        }
      },
      { message: 'must be an amount of USDX above 0 such as "10" or "0.5"' },
    ),
    paidChunks: z
      .number({ message: "must be a number of chunks" })
      .int("must be a whole number of chunks")
      .min(0, "must be 0 or more")
      .meta({ description: "The chunks paid on chain, from the first: the rest are left open." }),
  })
  .meta({ description: "A batch job the user started, its first paidChunks chunks paid from the payer." });
export type ScenarioBatch = z.output<typeof ScenarioBatch>;

export const ScenarioUser = z
  .strictObject({
    email: z.email({ message: "must be an email address" }).max(200, "must be at most 200 characters"),
    password: z
      .string({ message: "must be text" })
      .min(6, "must be at least 6 characters (Firebase's minimum)")
      .max(100, "must be at most 100 characters"),
    wallet: AccountName.optional().meta({
      description:
        "The user's wallet: added to their mock-bank wallets, proved by its signature of the bank's challenge, and the batch's payer unless it names another.",
    }),
    contacts: z
      .array(ScenarioContact)
      .default([])
      .refine((list) => new Set(list.map((c) => c.name)).size === list.length, "each contact needs a name of its own"),
    bankAccounts: z
      .array(ScenarioBankAccount)
      .default([])
      .refine((list) => new Set(list.map((a) => a.name)).size === list.length, "each bank account needs a name of its own"),
    batch: ScenarioBatch.optional(),
  })
  .refine((user) => !user.batch || user.batch.payer !== undefined || user.wallet !== undefined, {
    message: "the batch needs a payer: name one, or give the user a wallet",
    path: ["batch", "payer"],
  })
  .meta({
    description:
      "A Firebase test user, made in the Auth emulator (or signed in, when it exists), with what the API keeps for it. Sign in to the dashboard with its email and password.",
  });
export type ScenarioUser = z.output<typeof ScenarioUser>;
