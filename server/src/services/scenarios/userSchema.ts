import { z } from "zod";
import { ContactName, ContactNotes } from "@common/api/contacts";
import { count } from "@common/wording";
import { AMOUNT_EXAMPLE, PositiveAmount, asText, missingOr, wholeNumber } from "./fields";

/*
 * The `user:` part of a scenario file: a Firebase test user with contacts, bank accounts and a batch
 * job left half paid. The API server applies it (server/src/services/scenarios/user.ts, through
 * apply.ts's userPart hook); the limits mirror the API's (common/api/contacts.ts, bank.ts, batch.ts).
 * Names it gives (wallet, a contact's address, the batch's payer) are checked against the file's
 * accounts in schema.ts.
 */

/** The most recipients a scenario's batch job may have: the server's default BATCH_MAX_ROWS. */
export const MAX_BATCH_RECIPIENTS = 10_000;

const ROUTING_WRONG = "must be the routing number: exactly 9 digits, in quotes";
const ACCOUNT_NUMBER_WRONG = "must be the account number: 4 to 17 digits, in quotes";
const Contact = z.strictObject(
  {
    name: ContactName,
    address: z.string({ error: missingOr("must be an account name or a 0x address") }),
    notes: ContactNotes.optional(),
  },
  { error: "must be { name, address, notes? }" },
);
const BankAccount = z.strictObject(
  {
    name: z
      .string({ error: missingOr("must be the bank account's name") })
      .trim()
      .min(1, "must be the bank account's name")
      .max(100, "must be at most 100 characters"),
    type: z.enum(["checking", "savings"], { error: "must be checking or savings" }).default("checking"),
    routingNumber: z.preprocess(asText, z.string({ error: missingOr(ROUTING_WRONG) }).regex(/^\d{9}$/, ROUTING_WRONG)),
    accountNumber: z.preprocess(asText, z.string({ error: missingOr(ACCOUNT_NUMBER_WRONG) }).regex(/^\d{4,17}$/, ACCOUNT_NUMBER_WRONG)),
  },
  { error: "must be { name, type?, routingNumber, accountNumber }" },
);
/** A batch job's name: its recipients are called '<name> 1', '<name> 2', ..., which is how a second apply finds it. */
const BATCH_NAME_WRONG = "must be 1 to 60 letters, digits, spaces, - or _";
const Batch = z.strictObject(
  {
    name: z
      .string({ error: missingOr(BATCH_NAME_WRONG) })
      .regex(/^[A-Za-z0-9][A-Za-z0-9 _-]{0,59}$/, BATCH_NAME_WRONG)
      .default("Scenario batch"),
    // Left out: the user's wallet pays (schema.ts refuses a batch with neither).
    payer: z.string({ error: "must be the paying account's name" }).optional(),
    recipients: wholeNumber(1, MAX_BATCH_RECIPIENTS, `must be a whole number of recipients from 1 to ${count(MAX_BATCH_RECIPIENTS)}`),
    amountEach: PositiveAmount(`must be what each recipient gets, an amount of USDX above 0, ${AMOUNT_EXAMPLE}`),
    paidChunks: wholeNumber(0, MAX_BATCH_RECIPIENTS, "must be a whole number of chunks already paid, 0 or more"),
  },
  { error: "must be { name?, payer?, recipients, amountEach, paidChunks }" },
);
export const User = z
  .strictObject(
    {
      email: z.email({ error: missingOr("must be an email address such as tester@example.com") }),
      password: z.string({ error: missingOr("must be a password of at least 6 characters") }).min(6, "must be at least 6 characters"),
      wallet: z.string({ error: missingOr("must be the account name of the user's wallet") }).optional(),
      contacts: z.array(Contact, { error: "must be a list of { name, address, notes? }" }).default([]),
      bankAccounts: z.array(BankAccount, { error: "must be a list of { name, type?, routingNumber, accountNumber }" }).default([]),
      batch: Batch.optional(),
    },
    { error: "must be { email, password, wallet?, contacts?, bankAccounts?, batch? }" },
  )
  .meta({
    description:
      "A Firebase test user to create, with contacts, bank accounts, and a batch job left half paid (its first `paidChunks` chunks paid). Applied through the API server by user.ts; neither the CLI nor the panel runs it yet, and their plan says so.",
  });

export type ScenarioUser = z.output<typeof User>;
export type ScenarioBatch = z.output<typeof Batch>;
/** The part as a value, for the tests that build one (the file's schema checks its account names). */
export const ScenarioUser = User;
