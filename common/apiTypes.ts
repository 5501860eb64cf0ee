import type { HistoryType } from "./events";

/**
 * What the API answers, as types: the server's services build these, the dashboard reads them.
 * One declaration each, so a change to an answer is a type error on both sides.
 */

/** A contract event as the API answers it (spec section 3, plus its decoded arguments). */
export interface ContractEvent {
  name: string;
  signature: string;
  contract: string;
  transactionHash: string;
  logIndex: number;
  blockNumber: number;
  /** Unix seconds. */
  timestamp: number;
  args: Record<string, string | boolean>;
  /** Transfer only: the shares it moved and what they were worth (see TransferMoved). */
  sharesMoved?: string;
  amountMoved?: string;
}

/**
 * What a Transfer really moved. USDX converts the amount to shares rounding down at the multiplier
 * in effect at that log, so the event's value can exceed what moved, and a value worth less than
 * one share moves nothing though the event is emitted.
 */
export interface TransferMoved {
  /** Shares moved: floor(value * 1e18 / multiplier), base units as a decimal string. */
  sharesMoved: string;
  /** The tokens those shares were worth: floor(shares * multiplier / 1e18), base units; "0" when no share moved. */
  amountMoved: string;
}

export interface EventPage {
  events: ContractEvent[];
  range: { fromBlock: number; toBlock: number; hasMore: boolean };
  /** Pass back as `cursor` for the next, older page; null on the last page. */
  cursor: string | null;
}

export interface HistoryEntry extends TransferMoved {
  hash: string;
  type: HistoryType;
  from: string;
  to: string;
  /** USDX, as an exact decimal string. */
  amount: string;
  /** The event's value in base units (18 decimals); what moved is `amountMoved`. */
  amountRaw: string;
  blockNumber: number;
  logIndex: number;
  timestamp: number;
  status: "confirmed";
}

export interface HistoryPage {
  items: HistoryEntry[];
  /** Pass back as `cursor` for the next, older page; null on the last page. */
  nextCursor: string | null;
}

export interface TokenInfo {
  /** Base units, as decimal strings (they exceed JavaScript numbers). */
  totalSupply: string;
  totalShares: string;
  decimals: number;
  rewardMultiplier: string;
  paused: boolean;
  name: string;
  symbol: string;
  blockNumber: number;
  /**
   * 'chain': read from the node at `blockNumber`. 'index': the node could not be asked (a rate
   * limited or failing RPC provider), so these are the index's figures as of its checkpoint.
   */
  source?: "chain" | "index";
}

export interface RoleHolders {
  roleName: string;
  roleHash: string;
  holders: string[];
}

export interface BlockedAccount {
  address: string;
  isBlocked: true;
  since: { blockNumber: number; timestamp: number; transactionHash: string } | null;
}

/** One point of the supply chart; the three figures are decimal strings (18 decimals, formatted). */
export interface SupplyPoint {
  blockNumber: number;
  timestamp: number;
  totalSupply: string;
  totalShares: string;
  rewardMultiplier: string;
}

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

/** A stored contact (spec section 3): the address checksummed, empty notes as null. */
export interface Contact {
  id: number;
  name: string;
  address: string;
  notes: string | null;
  /** ISO 8601. */
  createdAt: string;
}

/** GET /api/contacts: one page of a user's contacts, and how many match in all. */
export interface ContactPage {
  contacts: Contact[];
  total: number;
}

/** POST /api/contacts/import: what was added, and each skipped line with its reason. */
export interface ImportResult {
  imported: number;
  skipped: { line: number; reason: string }[];
  contacts: Contact[];
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

// ---------------------------------------------------------------- operations (GET /api/monitoring)

/** The parts of the service /monitoring shows, in its order. */
export const MONITORED_PARTS = ["chain", "database", "auth", "indexer", "batchWatcher", "mockBank"] as const;
export type MonitoredPart = (typeof MONITORED_PARTS)[number];

export interface PartHealth {
  part: MonitoredPart;
  ok: boolean;
  /** What the part is doing, in words ("block 1,234", "PostgreSQL", "off: MOCK_BANK=off"). */
  detail: string;
  /** The part's last failure (RPC URLs reduced to their origin), and when; null when it never failed since start. */
  lastError: string | null;
  lastErrorAt: string | null;
}

/** One sample of the answering replica's figures: the interval that ended at `at` (ms since the epoch). */
export interface MonitoringPoint {
  at: number;
  requestsPerSecond: number;
  /** Request latency percentiles over the interval, in ms (null: no request in it). */
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  /** Blocks between the chain's head and the index's checkpoint (null before the first step). */
  indexerLag: number | null;
  rpcErrorsPerSecond: number;
}

/** GET /api/monitoring: what an operator sees at /monitoring. Public, so nothing secret. */
export interface MonitoringAnswer {
  /** Answered by this replica (figures are its own); whether it runs the background work. */
  replica: { leader: boolean; mode: "sole" | "advisory-lock"; startedAt: string };
  build: {
    version: string;
    /** The source's git commit (short), when the server knows it. */
    commit: string | null;
    network: string;
    chainId: number;
    proxy: string;
    implementation: string;
    batchPayments: string;
    deploymentBlock: number;
    deployedAt: string;
  };
  parts: PartHealth[];
  series: { intervalSeconds: number; points: MonitoringPoint[] };
}
