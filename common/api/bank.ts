import { z } from "zod";
import { ADDRESS_TYPED, parseAddress, ZERO_ADDRESS_TYPED } from "../addresses";
import { TOKEN_DECIMALS } from "../token";
import { endpoints } from "./endpoint";
import {
  Address,
  BaseUnits,
  checksumHolds,
  Dollars,
  digitsUpTo,
  IN_WORDS,
  IsoDate,
  MAX_SERIAL_ID,
  TokenAmount,
  TxHash,
  ok,
  rowId,
} from "./schemas";

/**
 * /api/bank: the mock bank. Bank accounts that verify themselves after a delay, the user's wallets,
 * and deposits that mint real USDX with the server's minter key. Each user sees and changes only
 * their own rows: another user's id answers 404 like a missing one.
 */

// ---------------------------------------------------------------- records

export const BankAccountType = z.enum(["checking", "savings"]);
export type BankAccountType = z.infer<typeof BankAccountType>;

export const DepositStatus = z
  .enum(["pending", "processing", "completed", "failed"])
  .meta({ description: "pending, then processing from processingAt; completed once its mint is mined, or failed (see error)." });
export type DepositStatus = z.infer<typeof DepositStatus>;

const RowId = z.number().int().min(1).meta({ example: 1 });
const Count = z.number().int().min(0);
const Millis = z.number().int().min(0);

export const BankAccount = z
  .strictObject({
    id: RowId,
    name: z.string().meta({ example: "Everyday Checking" }),
    type: BankAccountType,
    lastFour: z
      .string()
      .meta({ description: "The account number's last four digits: the full numbers are never stored.", example: "6789" }),
    status: z
      .enum(["pending", "verified"])
      .meta({ description: "pending until verifyAt, then verified: deposits come only from a verified account." }),
    createdAt: IsoDate,
    verifyAt: IsoDate.meta({ description: "When the mock verifies it." }),
    verifiedAt: IsoDate.nullable(),
  })
  .meta({ id: "BankAccount" });
export type BankAccount = z.infer<typeof BankAccount>;

export const BankWallet = z
  .strictObject({
    id: RowId,
    name: z.string().meta({ example: "Main wallet" }),
    address: Address,
    isPrimary: z.boolean().meta({ description: "A deposit that names no wallet goes to the primary one. Exactly one wallet is primary." }),
    balance: TokenAmount.nullable().meta({ description: "Its USDX balance on the chain; null when the node did not answer." }),
    balanceRaw: BaseUnits.nullable(),
    createdAt: IsoDate,
    verified: z
      .boolean()
      .meta({ description: "The user proved they control the address: it is their wallet sign-in, or they signed a challenge for it." }),
    verifiedBy: z.enum(["sign-in", "signature"]).nullable(),
  })
  .meta({ id: "BankWallet" });
export type BankWallet = z.infer<typeof BankWallet>;

/** POST /api/bank/wallets/challenge: a single-use message to sign with the wallet (personal_sign), good until expiresAt. */
export const BankWalletChallenge = z.strictObject({
  challenge: z.string().meta({ description: "Send it back with the signature.", example: "3f8a1c0e9b7d4a2f6e5c1b0a9d8e7f6a" }),
  message: z
    .string()
    .meta({ description: "The exact text to sign: it names the dashboard, your account, the wallet, the chain and when it expires." }),
  address: Address,
  expiresAt: IsoDate,
});
export type BankWalletChallenge = z.infer<typeof BankWalletChallenge>;

/**
 * The test faucet's daily caps (per UTC day, counting deposits that have not failed) and what is
 * left today. Amounts are US dollars = USDX, 2 decimals with thousands separators ('1,000.00').
 */
export const BankFaucetLimits = z
  .strictObject({
    window: z.literal("utc-day"),
    resetsAt: IsoDate.meta({ description: "When today's counts start over (the next 00:00 UTC).", example: "2026-11-26T00:00:00.000Z" }),
    perUserDaily: Dollars.meta({ description: "What one user may deposit in a day, in US dollars." }),
    totalDaily: Dollars.meta({ description: "What all users together may deposit in a day, in US dollars.", example: "100,000.00" }),
    perUserDailyDeposits: Count.meta({ description: "Deposits one user may make in a day.", example: 10 }),
    totalDailyDeposits: Count.meta({ description: "Deposits all users together may make in a day.", example: 1000 }),
    userLeftToday: Dollars.meta({ description: "What is left today for you.", example: "250.00" }),
    totalLeftToday: Dollars.meta({ description: "What is left today for all users.", example: "98,500.00" }),
    userDepositsLeftToday: Count.meta({ example: 7 }),
    totalDepositsLeftToday: Count.meta({ example: 990 }),
  })
  .meta({ id: "BankFaucetLimits" });
export type BankFaucetLimits = z.infer<typeof BankFaucetLimits>;

const Fee = z.string().meta({ description: "The fee in US dollars: none.", example: "0.00" });
const Rate = z.string().meta({ description: "US dollars per USDX.", example: "1" });

export const Deposit = z
  .strictObject({
    id: RowId,
    amount: z.string().meta({ description: "US dollars, 2 decimals.", example: "125.50" }),
    amountRaw: BaseUnits.meta({ description: "USDX minted, in base units (1 USD = 1 USDX).", example: "125500000000000000000" }),
    fee: Fee,
    rate: Rate,
    status: DepositStatus,
    timestamp: IsoDate.meta({ description: "When it was requested." }),
    processingAt: IsoDate,
    completeAt: IsoDate.meta({ description: "When it is due to be minted." }),
    completedAt: IsoDate.nullable(),
    walletAddress: Address.meta({ description: "Where the USDX is minted." }),
    txHash: TxHash.nullable().meta({ description: "The mint's transaction, once it is sent." }),
    error: z.string().nullable().meta({ description: "Why it failed." }),
    bankAccount: z.strictObject({
      id: RowId,
      name: z.string().meta({ example: "Everyday Checking" }),
      lastFour: z.string().meta({ example: "6789" }),
    }),
  })
  .meta({ id: "Deposit" });
export type Deposit = z.infer<typeof Deposit>;

/** GET /api/bank/terms: fee and rate as decimal strings, the per-deposit limit in dollars, timings in ms. */
export const BankTerms = z.strictObject({
  fee: Fee,
  rate: Rate,
  maxDeposit: z.string().meta({ description: "The largest deposit, in US dollars.", example: "1000000.00" }),
  verifyMs: Millis.meta({ description: "How long a new bank account stays pending.", example: 5000 }),
  processingMs: Millis.meta({ description: "How long after it is requested a deposit turns processing.", example: 3000 }),
  completeMs: Millis.meta({ description: "How long after it is requested a deposit is minted.", example: 8000 }),
  minter: Address.nullable().meta({ description: "The account whose key mints the deposits." }),
  mode: z
    .enum(["local", "faucet"])
    .meta({ description: "'local': the bank on the local chain, to any wallet. 'faucet': a capped test faucet, to proved wallets only." }),
  walletProofRequired: z.boolean().meta({ description: "Deposits go only to wallets the user proved they control (faucet mode)." }),
  maxAccounts: Count.meta({ description: "Bank accounts one user may keep.", example: 10 }),
  maxWallets: Count.meta({ description: "Wallets one user may keep.", example: 10 }),
  faucet: BankFaucetLimits.nullable().meta({ description: "Faucet mode: the daily caps and what is left today; null otherwise." }),
});
export type BankTerms = z.infer<typeof BankTerms>;

// ---------------------------------------------------------------- input

// The digits of 1 to the integer column's largest: the document states the bound of the text form too.
const ID_TEXT = digitsUpTo(MAX_SERIAL_ID);

/** An id as a JSON number or a string of digits (form values are strings). */
const id = (what: string) =>
  z.union([z.number().int().min(1).max(MAX_SERIAL_ID), z.string().regex(ID_TEXT).transform(Number)], {
    message: `${what} must be the id (a whole number) of one of yours`,
  });

const pathId = z.object({ id: rowId("the").meta({ description: "The id of one of yours.", example: 1 }) });

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

/*
 * Every rule of a body is declared here, so the document states it; a problem is a clause in the
 * bank's words ('the routing number must be exactly 9 digits'), which server/src/routes/bank.ts
 * answers after the body's title ('Invalid Bank Account: ...').
 */

// Digits only, surrounding spaces allowed (they are trimmed off).
const ACCOUNT_NUMBER_TYPED = /^\s*\d{4,17}\s*$/;
const ROUTING_NUMBER_TYPED = /^\s*\d{9}\s*$/;

/** A bank account number's text: 4 to 17 digits, trimmed. */
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

const address = z
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

const newWallet = z
  .object({
    name: name("wallet").meta({ example: "Main wallet" }),
    address,
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

// ---------------------------------------------------------------- endpoints

/** Every bank answer says it is a mock. */
const bankOk = <T extends z.ZodRawShape>(fields: T) =>
  ok({ mock: z.literal(true).meta({ description: "Always true: a simulated bank, no real money moves." }), ...fields });

const removed = bankOk({ id: RowId.meta({ description: "The id removed." }) });

export const bankApi = endpoints({
  "GET /api/bank/terms": {
    tag: "Mock bank",
    summary: "The bank's terms",
    description:
      "Fee (none), rate (1 USD = 1 USDX), the largest deposit, the mock's delays and the mode. In 'faucet' mode, also the daily caps and what is left of them today, for you and for all users.\n\nEvery /api/bank endpoint answers 503, with the reason, while the mock bank is off on this server (it never runs on a mainnet). A body whose required fields are absent, null or blank answers 400 'Missing Information: ...' naming them; a wrong field, '<title>: <what is wrong>' ('Invalid Deposit: ...').",
    access: "user",
    answer: bankOk(BankTerms.shape),
    errors: [503],
  },
  "GET /api/bank/accounts": {
    tag: "Mock bank",
    summary: "Your bank accounts",
    description: "Oldest first. A pending account whose verifyAt has passed is answered verified.",
    access: "user",
    answer: bankOk({ accounts: z.array(BankAccount) }),
    errors: [503],
  },
  "POST /api/bank/accounts": {
    tag: "Mock bank",
    summary: "Add a bank account",
    description:
      "It starts pending and is verified verifyMs later (see the terms); deposits come only from a verified account. Only the account number's last four digits are kept. At most maxAccounts per user (409 beyond). Rate limited per user.",
    access: "user",
    body: NewBankAccount,
    status: 201,
    answer: bankOk({ account: BankAccount }),
    errors: [409, 429, 503],
  },
  "DELETE /api/bank/accounts/:id": {
    tag: "Mock bank",
    summary: "Remove a bank account",
    description:
      "One that past deposits name is hidden instead, so their history keeps its name. Refused (409) while one of its deposits is pending or processing.",
    access: "user",
    params: pathId,
    answer: removed,
    errors: [404, 409, 503],
  },
  "GET /api/bank/wallets": {
    tag: "Mock bank",
    summary: "Your wallets, with their balances",
    description:
      "Oldest first, each with its USDX balance read from the chain. After a wallet sign-in, that wallet is added as the primary one if you have none, and marked verified.",
    access: "user",
    answer: bankOk({ wallets: z.array(BankWallet) }),
    errors: [503],
  },
  "POST /api/bank/wallets/challenge": {
    tag: "Mock bank",
    summary: "A message to sign, proving you control a wallet",
    description:
      "A single-use message for you and this address, good for five minutes. Sign it with the wallet (personal_sign: it costs nothing and sends no transaction) and send the challenge and signature to POST /api/bank/wallets or POST /api/bank/wallets/{id}/verify. In 'faucet' mode deposits go only to wallets proved this way or by a wallet sign-in. Rate limited per user, in one budget with wallet additions and verifications.",
    access: "user",
    body: z.object({ address }),
    status: 201,
    answer: bankOk(BankWalletChallenge.shape),
    errors: [429, 503],
  },
  "POST /api/bank/wallets": {
    tag: "Mock bank",
    summary: "Add a wallet",
    description:
      "The first wallet is the primary one. Send a signed challenge (both challenge and signature, or neither) to add it verified; the address of your wallet sign-in is verified without one. A proof that does not hold is a 403 and adds nothing. The same address twice, or more than maxWallets, is a 409. Rate limited per user, in one budget with challenges and verifications.",
    access: "user",
    body: newWallet,
    status: 201,
    answer: bankOk({ wallet: BankWallet }),
    errors: [403, 409, 429, 503],
  },
  "POST /api/bank/wallets/:id/verify": {
    tag: "Mock bank",
    summary: "Verify a wallet with a signed challenge",
    description:
      "The challenge must have been issued to you for this wallet's address, unused and unexpired, and signed by that address; otherwise a 403 says which. Rate limited per user, in one budget with challenges and wallet additions.",
    access: "user",
    params: pathId,
    body: WalletProof,
    answer: bankOk({ wallet: BankWallet }),
    errors: [403, 404, 429, 503],
  },
  "POST /api/bank/wallets/:id/primary": {
    tag: "Mock bank",
    summary: "Make a wallet the primary one",
    description: "Deposits that name no wallet go to it; the one primary before is not any more.",
    access: "user",
    params: pathId,
    answer: bankOk({ wallet: BankWallet }),
    errors: [404, 503],
  },
  "DELETE /api/bank/wallets/:id": {
    tag: "Mock bank",
    summary: "Remove a wallet",
    description: "The primary wallet cannot be removed (409): make another primary first.",
    access: "user",
    params: pathId,
    answer: removed,
    errors: [404, 409, 503],
  },
  "GET /api/bank/deposits": {
    tag: "Mock bank",
    summary: "Your deposits",
    description: "Newest first, at most 500.",
    access: "user",
    answer: bankOk({ deposits: z.array(Deposit) }),
    errors: [503],
  },
  "GET /api/bank/deposits/:id": {
    tag: "Mock bank",
    summary: "One deposit",
    description:
      "Poll it to follow a deposit: pending, processing from processingAt, minted from completeAt, then completed with its txHash or failed with its error.",
    access: "user",
    params: pathId,
    answer: bankOk({ deposit: Deposit }),
    errors: [404, 503],
  },
  "POST /api/bank/deposits": {
    tag: "Mock bank",
    summary: "Deposit US dollars, minting USDX",
    description:
      "From one of your verified bank accounts to walletId, or to your primary wallet. No fee; 1 USD = 1 USDX, minted by the server's minter at completeAt. An account or wallet that is not yours is a 404. In 'faucet' mode the wallet must be verified (403 otherwise) and the daily caps apply: a deposit past one is a 429 saying how much is left today. Rate limited per user.",
    access: "user",
    body: NewDeposit,
    status: 201,
    answer: bankOk({ deposit: Deposit }),
    errors: [403, 404, 429, 503],
  },
});
