/**
 * The API's records, as types: declared once, as zod schemas, in common/api/ (the API's declaration);
 * re-exported here for the server's services and the dashboard. Types only: the dashboard's bundle
 * carries no zod.
 */
export type { ContractEvent, TransferMoved, EventPage, HistoryEntry, HistoryPage, TokenInfo, RoleHolders, BlockedAccount, SupplyPoint } from "./api/token";
export type { Contact, ContactPage, ImportResult } from "./api/contacts";
export type { MonitoredPart, PartHealth, MonitoringPoint, MonitoringAnswer } from "./api/operations";
export type { DashboardConfig } from "./api/configuration";
export type { SessionUser } from "./api/signIn";
export type { AuditEntry } from "./api/administration";

// --- The mock bank (/api/bank): every answer also carries `success: true, mock: true`. ---

export type BankAccountType = "checking" | "savings";
export type DepositStatus = "pending" | "processing" | "completed" | "failed";

export interface BankAccount {
  id: number;
  name: string;
  type: BankAccountType;
  lastFour: string;
  status: "pending" | "verified";
  createdAt: string;
  verifyAt: string;
  verifiedAt: string | null;
}

export interface BankWallet {
  id: number;
  name: string;
  address: string;
  isPrimary: boolean;
  /** USDX balanceOf as a decimal string; null when the chain did not answer. */
  balance: string | null;
  balanceRaw: string | null;
  createdAt: string;
  /** The user proved they control the address: their wallet sign-in, or a signed challenge. */
  verified: boolean;
  verifiedBy: "sign-in" | "signature" | null;
}

/** POST /api/bank/wallets/challenge: a single-use message to sign with the wallet (personal_sign), good until expiresAt. */
export interface BankWalletChallenge {
  challenge: string;
  message: string;
  address: string;
  expiresAt: string;
}

/**
 * The test faucet's daily caps (per UTC day, counting deposits that have not failed) and what is
 * left today. Amounts are US dollars = USDX, 2 decimals with thousands separators ('1,000.00').
 */
export interface BankFaucetLimits {
  window: "utc-day";
  /** When today's counts start over (the next 00:00 UTC). */
  resetsAt: string;
  perUserDaily: string;
  totalDaily: string;
  perUserDailyDeposits: number;
  totalDailyDeposits: number;
  userLeftToday: string;
  totalLeftToday: string;
  userDepositsLeftToday: number;
  totalDepositsLeftToday: number;
}

export interface Deposit {
  id: number;
  /** US dollars, 2 decimals. */
  amount: string;
  /** USDX minted, in base units (1 USD = 1 USDX). */
  amountRaw: string;
  fee: string;
  rate: string;
  status: DepositStatus;
  /** When it was requested. */
  timestamp: string;
  processingAt: string;
  completeAt: string;
  completedAt: string | null;
  walletAddress: string;
  txHash: string | null;
  error: string | null;
  bankAccount: { id: number; name: string; lastFour: string };
}

/** GET /api/bank/terms: fee and rate as decimal strings, the per-deposit limit in dollars, timings in ms. */
export interface BankTerms {
  fee: string;
  rate: string;
  maxDeposit: string;
  verifyMs: number;
  processingMs: number;
  completeMs: number;
  /** The minter account that mints deposits; null when the bank is off. */
  minter: string | null;
  /** 'local': the spec's bank on the local chain (any wallet); 'faucet': a capped test faucet. */
  mode: "local" | "faucet";
  /** Faucet mode: deposits go only to wallets the user proved they control. */
  walletProofRequired: boolean;
  /** Bank accounts and wallets one user may keep. */
  maxAccounts: number;
  maxWallets: number;
  /** Faucet mode: the daily caps and what is left today; null otherwise. */
  faucet: BankFaucetLimits | null;
}


/** Batch payments (POST /api/batch/parse-csv, /execute, GET /api/batch, /:id, /status). */
export type RecipientField = "name" | "address" | "amount" | "row";
export type JobStatus = "processing" | "completed" | "failed";
/**
 * closed: the job failed and its submit window is over, so the chunk takes no more reports and the
 * watcher no longer follows its transaction; a payment of it by the job's wallet still confirms it.
 */
export type ChunkStatus = "pending" | "submitted" | "confirmed" | "failed" | "closed";
/** unpaid: the recipient's chunk was closed unpaid. */
export type RecipientStatus = "pending" | "paid" | "unpaid";

/**
 * What the batch API answers (server/src/routes/batch.ts and services/batch*.ts). Declared here
 * until they move to common/apiTypes.ts beside the other answers, where the server can share them.
 */

export interface RecipientProblem {
  field: RecipientField;
  /** 'Invalid Ethereum address', 'Invalid amount', 'Invalid name' or 'Invalid row'. */
  reason: string;
  /** What exactly is wrong, for a person fixing the file. */
  detail: string;
}

/** POST /api/batch/parse-csv's `data`. */
export interface ParsedRecipients {
  validRecipients: { line: number; name: string; address: string; amount: string }[];
  invalidEntries: { line: number; reason: string; name: string; address: string; amount: string; errors: RecipientProblem[] }[];
  /** Addresses on more than one valid row. */
  duplicates: { address: string; lines: number[] }[];
  totalRows: number;
  /** Sum of the valid rows: exact decimal USDX, and base units. */
  totalAmount: string;
  totalAmountRaw: string;
}

/** One transaction of a job: BatchPayments.pay(recipients, amounts, reference). */
export interface ChunkPlan {
  index: number;
  recipients: string[];
  /** Base units, as decimal strings. */
  amounts: string[];
  /** Base units. */
  total: string;
  reference: string;
}

export interface JobSummary {
  jobId: string;
  status: JobStatus;
  payer: string | null;
  totalAmount: string;
  totalAmountRaw: string;
  /** Every row's amount when they are all the same, else null. */
  amount: string | null;
  recipients: number;
  recipientsPaid: number;
  /** `failed` counts the closed chunks too. */
  chunks: { total: number; confirmed: number; submitted: number; failed: number };
  /** The newest chunk transaction, and all of them in chunk order. */
  txHash: string | null;
  txHashes: string[];
  error: string | null;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
}

export interface ChunkDetail {
  index: number;
  status: ChunkStatus;
  reference: string;
  recipients: number;
  /** Exact decimal USDX. */
  totalAmount: string;
  txHash: string | null;
  blockNumber: number | null;
  error: string | null;
}

export interface RecipientDetail {
  position: number;
  chunkIndex: number;
  name: string;
  address: string;
  /** Exact decimal USDX. */
  amount: string;
  status: RecipientStatus;
  txHash: string | null;
}
