import { z } from "zod";
import { ADDRESS_TYPED, parseAddress, ZERO_ADDRESS_TYPED } from "../addresses";
import { TOKEN_DECIMALS } from "../token";
import { checksumHolds, digitsUpTo, IN_WORDS, MAX_SERIAL_ID, rowId } from "./schemas";

/**
 * What the mock bank's requests carry (/api/bank, common/api/bank.ts). Every rule of a body is
 * declared here, so the OpenAPI document states it; a problem is a clause in the bank's words ('the
 * routing number must be exactly 9 digits'), which server/src/routes/bank.ts answers after the
 * body's title ('Invalid Bank Account: ...').
 */

export const BankAccountType = z.enum(["checking", "savings"]);
export type BankAccountType = z.infer<typeof BankAccountType>;

// The digits of 1 to the integer column's largest: the document states the bound of the text form too.
const ID_TEXT = digitsUpTo(MAX_SERIAL_ID);

/** An id as a JSON number or a string of digits (form values are strings). */
const id = (what: string) =>
  z.union([z.number().int().min(1).max(MAX_SERIAL_ID), z.string().regex(ID_TEXT).transform(Number)], {
    message: `${what} must be the id (a whole number) of one of yours`,
  });

export const pathId = z.object({ id: rowId("the").meta({ description: "The id of one of yours.", example: 1 }) });

// As for contacts: no control characters (Postgres refuses a NUL outright) and no bidi overrides.
const NAME_ALLOWED = /^[^\p{Cc}\u202A-\u202E\u2066-\u2069]*$/u;

// A required text with nothing but spaces is missing (the route answers it as 'Missing Information').
const NOT_BLANK = /\S/;

const name = (what: string) =>
  z
    .string({ message: `the ${what} name must be text` })
    .regex(NOT_BLANK, `the ${what} name is missing`)
    .max(100, `the ${what} name must be at most 100 characters`)
    .regex(NAME_ALLOWED, `the ${what} name cannot contain control characters such as line breaks or tabs`);

// Digits only, surrounding spaces allowed (they are trimmed off).
const ACCOUNT_NUMBER_TYPED = /^\s*\d{4,17}\s*$/;
const ROUTING_NUMBER_TYPED = /^\s*\d{9}\s*$/;

/** A bank number's text: `count` digits, trimmed. */
const digits = (what: string, pattern: RegExp, count: string) =>
  z
    .string({ message: `the ${what} must be text of ${count} digits` })
    .max(40, { message: `the ${what} must be ${count} digits`, abort: true })
    .regex(pattern, `the ${what} must be ${count} digits`)
    .trim();

export const NewBankAccount = z.object({
  name: name("account").meta({ example: "Everyday Checking" }),
  type: z.enum(BankAccountType.options, { message: "the type must be 'checking' or 'savings'" }),
  accountNumber: digits("account number", ACCOUNT_NUMBER_TYPED, "4 to 17").meta({
    description: "4 to 17 digits (surrounding spaces are trimmed); only the last four are kept.",
    example: "000123456789",
  }),
  routingNumber: digits("routing number", ROUTING_NUMBER_TYPED, "exactly 9").meta({
    description: "Exactly 9 digits (surrounding spaces are trimmed).",
    example: "021000021",
  }),
});
export type NewBankAccount = z.output<typeof NewBankAccount>;

/** parseAddress's own sentence for a text it refuses ('... is not a valid address: ...'). */
const addressProblem = (input: unknown) => {
  try {
    parseAddress(String(input));
    return "the address must be 0x followed by 40 hex characters";
  } catch (error) {
    return (error as Error).message;
  }
};

export const WalletAddress = z
  .string({ message: "the address must be text: 0x followed by 40 hex characters" })
  .max(100, { message: "the address must be 0x followed by 40 hex characters", abort: true })
  .regex(ADDRESS_TYPED, { error: (issue) => addressProblem(issue.input), abort: true })
  // A keccak-256 of the text: JSON Schema cannot compute it (stated in words, below).
  .refine(checksumHolds, { error: (issue) => addressProblem(issue.input), params: IN_WORDS, abort: true })
  .refine((text) => !ZERO_ADDRESS_TYPED.test(text), "the zero address cannot hold tokens")
  .trim()
  .meta({
    not: { pattern: ZERO_ADDRESS_TYPED.source },
    description:
      "0x and 40 hex characters (surrounding spaces are trimmed); mixed case must be a right EIP-55 checksum. Not the zero address.",
    example: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  });
const challenge = z
  .string({ message: "the challenge must be the text the server issued" })
  .regex(/^[0-9a-f]{32}$/, "the challenge must be the 32 hex characters the server issued")
  .meta({ description: "The challenge of POST /api/bank/wallets/challenge.", example: "3f8a1c0e9b7d4a2f6e5c1b0a9d8e7f6a" });
const signature = z
  .string({ message: "the signature must be text: 0x followed by 130 hex characters" })
  .regex(/^0x[0-9a-fA-F]{130}$/, "the signature must be 0x followed by 130 hex characters")
  .meta({ description: "The wallet's personal_sign signature of the challenge's message." });

/** A signature of a challenge the server issued: proof that the user controls the wallet. */
export const WalletProof = z.object({ challenge, signature });
export type WalletProof = z.output<typeof WalletProof>;

export const newWallet = z
  .object({
    name: name("wallet").meta({ example: "Main wallet" }),
    address: WalletAddress,
    challenge: challenge.optional(),
    signature: signature.optional(),
  })
  .refine((b) => (b.challenge === undefined) === (b.signature === undefined), {
    message: "send both the challenge and its signature, or neither",
    path: ["signature"],
  })
  .meta({ dependentRequired: { challenge: ["signature"], signature: ["challenge"] } });

/** A mock deposit's largest amount, in whole US dollars (a power of ten: DOLLARS_TYPED's whole part is one digit shorter). */
export const MAX_DEPOSIT_USD = 1_000_000n;
const MAX_DEPOSIT_CENTS = MAX_DEPOSIT_USD * 100n;
const CENT_IN_BASE_UNITS = 10n ** BigInt(TOKEN_DECIMALS - 2);
/**
 * US dollars as typed: digits with at most 2 decimals (cents), more than 0 and at most
 * MAX_DEPOSIT_USD, surrounding spaces allowed.
 */
const DOLLARS_TYPED = new RegExp(
  `^\\s*(?=\\d*\\.?\\d*[1-9])0*(?:\\d{1,${String(MAX_DEPOSIT_USD).length - 1}}(?:\\.\\d{1,2})?|${MAX_DEPOSIT_USD}(?:\\.0{1,2})?)\\s*$`,
);

/** Why an amount of dollars is refused (one that DOLLARS_TYPED does not match), in the bank's words. */
function dollarsProblem(input: string): string {
  const text = input.trim();
  if (/^-\s*\d/.test(text)) return `the amount must be greater than 0, and '${input}' is negative`;
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return `'${input}' is not an amount in US dollars: use digits and at most 2 decimals, such as '125.50'`;
  const fraction = match[2] ?? "";
  if (fraction.length > 2) return `'${input}' has ${fraction.length} decimals; a US dollar amount has at most 2 (cents)`;
  if (BigInt(match[1] + fraction.padEnd(2, "0")) === 0n) return "the amount must be greater than 0";
  return `a mock deposit is at most ${MAX_DEPOSIT_USD.toLocaleString("en-US")}.00 USD`;
}

/** Dollars (DOLLARS_TYPED) as the USDX base units a deposit mints: 1 USD = 1 USDX. */
function dollarsInBaseUnits(text: string): bigint {
  const [whole, cents = ""] = text.trim().split(".");
  const total = BigInt(whole) * 100n + BigInt(cents.padEnd(2, "0"));
  // DOLLARS_TYPED's own bound, said again so the conversion can never mint past it.
  if (total > MAX_DEPOSIT_CENTS) throw new Error("a deposit past the mock's limit was let through");
  return total * CENT_IN_BASE_UNITS;
}

export const NewDeposit = z.object({
  bankAccountId: id("bankAccountId").meta({ description: "One of your verified bank accounts." }),
  amount: z
    .string({ message: "the amount must be a decimal string in US dollars, such as '125.50'" })
    .max(40, { message: "the amount is too long", abort: true })
    .regex(DOLLARS_TYPED, { error: (issue) => dollarsProblem(String(issue.input)) })
    .transform(dollarsInBaseUnits)
    .meta({
      description: `US dollars: digits and at most 2 decimals, more than 0 and at most ${MAX_DEPOSIT_USD.toLocaleString("en-US")}.00 (surrounding spaces are trimmed). In 'faucet' mode the daily caps apply too (a 429).`,
      example: "125.50",
    }),
  walletId: id("walletId")
    .nullish()
    .transform((v) => v ?? undefined)
    .meta({ description: "The wallet to mint to; your primary wallet when absent or null." }),
});
export type NewDeposit = z.output<typeof NewDeposit>;
