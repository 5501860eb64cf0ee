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
export type { RecipientField, JobStatus, ChunkStatus, RecipientStatus, RecipientProblem, ParsedRecipients, ChunkPlan, JobSummary, ChunkDetail, RecipientDetail } from "./api/batch";

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
