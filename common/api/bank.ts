import { z } from "zod";
import { BankAccountType, NewBankAccount, NewDeposit, newWallet, pathId, WalletAddress, WalletProof } from "./bankInput";
import { endpoints } from "./endpoint";
import { Address, BaseUnits, Dollars, IsoDate, TokenAmount, TxHash, ok } from "./schemas";

/**
 * /api/bank: the mock bank. Bank accounts that verify themselves after a delay, the user's wallets,
 * and deposits that mint real USDX with the server's minter key. Each user sees and changes only
 * their own rows: another user's id answers 404 like a missing one.
 */

// ---------------------------------------------------------------- records

export { BankAccountType } from "./bankInput";

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
    body: z.object({ address: WalletAddress }),
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
