import { create } from "zustand";
import { toast } from "@/components/ui/toast";
import { formatUsdx, plural } from "@/lib/format";
import type { ChunkPlan, JobDetail, ParsedRecipients, RecipientField } from "../api/types";

/**
 * The Payments screen's state (PRODUCT.md section 4's batch transfer screen: initial, transferring,
 * completed, failed). A store rather than component state: a batch keeps going, and keeps its
 * progress, while the person looks at another screen and comes back.
 */

/** PRODUCT.md section 9: the overall transfer timeout. */
export const TRANSFER_TIMEOUT_MS = 5 * 60_000;
export const TIMEOUT_TITLE = "Transfer timeout";
export const TIMEOUT_MESSAGE = "The transfer is taking longer than expected. Please check the status later.";
/** PRODUCT.md section 8: the failed panel's text when the status has no error. */
export const FAILED_FALLBACK = "Transaction failed. Please try again or check the console for more details.";

export type Phase = "initial" | "transferring" | "completed" | "failed";

/** One CSV row as the table shows it: valid or not, with each problem under its cell. */
export interface RecipientRow {
  line: number;
  name: string;
  address: string;
  amount: string;
  valid: boolean;
  /** The reason per cell ('Invalid Ethereum address'); 'row' is a broken CSV line. */
  problems: Partial<Record<RecipientField, { reason: string; detail: string }>>;
  duplicate: boolean;
}

export interface Upload {
  fileName: string;
  parsed: ParsedRecipients;
  /** Valid and invalid rows together, in file order. */
  rows: RecipientRow[];
}

/** The job the server planned: what the wallet pays, chunk by chunk. */
export interface StartedJob {
  jobId: string;
  /** Exact decimal USDX, and base units. */
  totalAmount: string;
  totalAmountRaw: string;
  recipients: number;
  chunks: ChunkPlan[];
  /** Paid from a Safe: each chunk is a proposal its owners approve and execute (hooks/proposeChunks.ts). */
  safe?: { address: string; name: string; multiSendCallOnly: string } | null;
}

/** What this browser knows of a chunk: the server's poll adds what the chain says. */
export type ChunkProgressStatus = "waiting" | "sending" | "submitted" | "proposed" | "paid" | "failed";

export interface ChunkProgress {
  status: ChunkProgressStatus;
  txHash: string | null;
}

/** What the screen is doing inside 'transferring'. */
export type Step = "permit" | "chunk" | "watching" | "proposing" | "awaiting approval";

export interface PaymentsState {
  upload: Upload | null;
  /** 'Pay from': the address of a Safe the wallet owns, or null for the wallet itself. */
  payFrom: string | null;
  addToContacts: boolean;
  phase: Phase;
  job: StartedJob | null;
  chunks: ChunkProgress[];
  step: Step | null;
  activeChunk: number | null;
  /** The newest chunk transaction (the spec's txHash). */
  txHash: string | null;
  error: string | null;
  /** What became of 'Add recipients to contacts', shown beside the progress. */
  contactsNote: string | null;
  /** Counts the runs (Start, each Try Again): a run that is no longer current stops sending. */
  run: number;
  /** Hashes sent in the current run. */
  runHashes: string[];
  /** When the current run reported its last chunk: a server answer asked for before it is stale. */
  sendingDoneAt: number | null;
  /** The newest status poll answer. */
  server: JobDetail | null;
}

const initialState: PaymentsState = {
  upload: null,
  payFrom: null,
  addToContacts: false,
  phase: "initial",
  job: null,
  chunks: [],
  step: null,
  activeChunk: null,
  txHash: null,
  error: null,
  contactsNote: null,
  run: 0,
  runHashes: [],
  sendingDoneAt: null,
  server: null,
};

export const usePayments = create<PaymentsState>(() => ({ ...initialState }));

/** Merges the parser's valid and invalid rows in file order, each problem under its cell. */
export function toRows(parsed: ParsedRecipients): RecipientRow[] {
  const duplicateLines = new Set(parsed.duplicates.flatMap((d) => d.lines));
  const rows: RecipientRow[] = [
    ...parsed.validRecipients.map((r) => ({ ...r, valid: true, problems: {}, duplicate: duplicateLines.has(r.line) })),
    ...parsed.invalidEntries.map((r) => ({
      line: r.line,
      name: r.name,
      address: r.address,
      amount: r.amount,
      valid: false,
      problems: Object.fromEntries(
        (r.errors ?? [{ field: "row" as const, reason: r.reason, detail: r.reason }]).map((e) => [
          e.field,
          { reason: e.reason, detail: e.detail },
        ]),
      ),
      duplicate: false,
    })),
  ];
  return rows.sort((a, b) => a.line - b.line);
}

/** A newly parsed file replaces the recipients (uploads happen only before a batch starts). */
export function setUpload(fileName: string, parsed: ParsedRecipients): void {
  usePayments.setState((s) => ({
    ...initialState,
    addToContacts: s.addToContacts,
    payFrom: s.payFrom,
    run: s.run + 1,
    upload: { fileName, parsed, rows: toRows(parsed) },
  }));
}

let timeout: ReturnType<typeof setTimeout> | null = null;

/** The overall timeout, off: a Safe's chunks wait for its owners' approvals, which may take hours. */
export function disarmTimeout(): void {
  if (timeout !== null) clearTimeout(timeout);
  timeout = null;
}

/** Starts a run (Start, or Try Again): transferring, with the overall timeout armed. Answers the run's number. */
export function beginRun(job: StartedJob, keepChunks = false): number {
  const state = usePayments.getState();
  const run = state.run + 1;
  usePayments.setState({
    phase: "transferring",
    job,
    chunks:
      keepChunks && state.chunks.length === job.chunks.length ? state.chunks : job.chunks.map(() => ({ status: "waiting", txHash: null })),
    step: "permit",
    activeChunk: null,
    error: null,
    run,
    runHashes: [],
    sendingDoneAt: null,
  });
  disarmTimeout();
  timeout = setTimeout(() => {
    const now = usePayments.getState();
    if (now.run !== run || now.phase !== "transferring") return;
    toast({ title: TIMEOUT_TITLE, description: TIMEOUT_MESSAGE, variant: "destructive" });
    fail(TIMEOUT_MESSAGE);
  }, TRANSFER_TIMEOUT_MS);
  return run;
}

/** Whether `run` is still the one transferring (a timeout or a failure stops it). */
export const isCurrent = (run: number) => usePayments.getState().run === run && usePayments.getState().phase === "transferring";

export function updateChunk(index: number, change: Partial<ChunkProgress>): void {
  usePayments.setState((s) => ({ chunks: s.chunks.map((c, i) => (i === index ? { ...c, ...change } : c)) }));
}

/** A chunk transaction the wallet sent: the newest hash, remembered for this run. */
export function chunkSent(index: number, hash: string): void {
  updateChunk(index, { status: "submitted", txHash: hash });
  usePayments.setState((s) => ({ txHash: hash, runHashes: [...s.runHashes, hash.toLowerCase()] }));
}

export function fail(message: string | null): void {
  disarmTimeout();
  usePayments.setState({ phase: "failed", error: message || FAILED_FALLBACK, step: null, activeChunk: null });
}

function complete(txHash: string | null): void {
  disarmTimeout();
  const { job } = usePayments.getState();
  usePayments.setState((s) => ({ phase: "completed", txHash: txHash ?? s.txHash, step: null, activeChunk: null, error: null }));
  if (job) {
    const description = `sent ${formatUsdx(BigInt(job.totalAmountRaw))} USDX to ${plural(job.recipients, "recipient")}`;
    toast({ title: "Batch transfer completed", description });
  }
}

/**
 * PRODUCT.md section 4's polling rules: 'completed' completes and stores the txHash; 'failed' fails;
 * otherwise a newly arriving txHash is remembered. A failure counts only when it is about this run:
 * a chunk failed with a hash this run sent, or the answer was asked for after the run's last report
 * (a Try Again starts on a job the server still calls failed until the new transactions arrive).
 */
export function applyServerStatus(detail: JobDetail, askedAt: number): void {
  const state = usePayments.getState();
  if (!state.job || detail.job.jobId !== state.job.jobId) return;
  usePayments.setState({ server: detail });
  if (state.phase !== "transferring") return;
  const { job } = detail;
  if (job.status === "completed") {
    complete(job.txHash);
    return;
  }
  if (job.status === "failed") {
    const failedHere = detail.chunks.some(
      (c) => c.status === "failed" && c.txHash !== null && state.runHashes.includes(c.txHash.toLowerCase()),
    );
    const afterLastReport = state.sendingDoneAt !== null && askedAt >= state.sendingDoneAt;
    if (failedHere || afterLastReport) {
      fail(job.error);
      return;
    }
  }
  if (job.txHash && job.txHash.toLowerCase() !== state.txHash?.toLowerCase()) usePayments.setState({ txHash: job.txHash });
}

/** Try Again's other way out when nothing was paid: back to the recipients, keeping them. */
export function backToRecipients(): void {
  disarmTimeout();
  usePayments.setState((s) => ({ ...initialState, upload: s.upload, addToContacts: s.addToContacts, payFrom: s.payFrom, run: s.run + 1 }));
}

/** Start New Batch: recipients, tx hash and status cleared. Also the screen's reset for tests. */
export function resetPayments(): void {
  disarmTimeout();
  usePayments.setState((s) => ({ ...initialState, run: s.run + 1 }));
}
