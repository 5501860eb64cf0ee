import { useQueryClient } from "@tanstack/react-query";
import { shortAddress } from "@common/addresses";
import { chunkGasLimit } from "@common/gasLimits";
import { toast } from "@/components/ui/toast";
import { errorSentence } from "@/lib/api";
import type { SignedPermit } from "@/lib/chain/contracts";
import { useAccountFigures } from "@/lib/chain/queries";
import { useConfig, type AppConfig } from "@/lib/config";
import { count, formatUsdx, plural } from "@/lib/format";
import { contractCall } from "@/lib/tx/contractCall";
import { dryRun, type CallOf } from "@/lib/tx/dryRun";
import type { TxOutcome, TxRequest } from "@/lib/tx/runner";
import { useTxForm } from "@/lib/tx/useTxForm";
import { onDashboardChain, signingWallet, writeFailure } from "@/lib/tx/wallet";
import { isOwner, safeLabel, useSafes } from "@/lib/safes";
import { useWallet } from "@/lib/wallet/store";
import { proposeChunks } from "./proposeChunks";
import { executeBatch, fetchJobDetail, HISTORY_KEY, importContacts, reportChunkTransaction, type PaymentRow } from "../api/batch";
import type { ChunkPlan } from "../api/types";
import {
  applyServerStatus,
  beginRun,
  chunkSent,
  fail,
  isCurrent,
  updateChunk,
  usePayments,
  type StartedJob,
} from "../stores/paymentsStore";

/**
 * How long the batch permit stays valid: the server's submit window (BATCH_SUBMIT_WINDOW_MS, 1 hour
 * by default), after which a job with unsent chunks has failed and the permit is of no more use.
 */
export const PERMIT_LIFETIME_S = 60 * 60;

const NOT_CONNECTED = "Please connect your wallet to make USDX payments";
const CLOSED = "This batch is closed: start a new batch for the recipients not paid.";

type Run = (request: TxRequest) => Promise<TxOutcome>;

const transferFailed = (description: string) => toast({ title: "Transfer failed", description, variant: "destructive" });

/**
 * The request for one chunk. The first transaction of a run carries the permit, which sets the
 * allowance for every chunk of the run; later ones spend what is left of it with `pay` (after the
 * first chunk the allowance is below the permit's value, so payWithPermit would refuse them).
 * The runner dry-runs the call (with the chunk's gas limit) before the wallet is asked, so a
 * refusal (balance, pause, blocklist, permit) is named before anything is sent.
 */
export function chunkRequest(chunk: ChunkPlan, of: number, permit: SignedPermit | null, onSent: (hash: string) => void): TxRequest {
  const recipients = chunk.recipients;
  const amounts = chunk.amounts.map((a) => BigInt(a));
  const size = recipients.length;
  const overrides = { gasLimit: chunkGasLimit(size) };
  return {
    action: `Pay chunk ${chunk.index + 1} of ${of}: ${formatUsdx(BigInt(chunk.total))} USDX to ${plural(size, "recipient")}`,
    notConnected: NOT_CONNECTED,
    call: ({ batch }) =>
      permit
        ? contractCall(
            batch.payWithPermit,
            [recipients, amounts, chunk.reference, permit.value, permit.deadline, permit.v, permit.r, permit.s],
            overrides,
          )
        : contractCall(batch.pay, [recipients, amounts, chunk.reference], overrides),
    onSent,
    success: null,
    failureTitle: "Transfer failed",
    modal: false,
  };
}

/**
 * What the chunks' transferFroms will check for the payer, asked before the permit is: a
 * self-transfer of the run's total from the payer runs the same path in USDX (the payer's blocklist
 * entry, the pause, the balance) and reverts with the token's own error and figures, so a payer who
 * is blocked, paused or short hears it before signing anything. The permit itself moves nothing and
 * would be signed even then. (It is a little stricter than the chunks, by rounding: each row's
 * shares round down, their sum can fall a few wei below the total's.)
 */
const payerCheck =
  (payer: string, total: bigint): CallOf =>
  ({ usdx }) =>
    contractCall(usdx.transfer, [payer, total]);

/**
 * Pays the chunks `indexes` of a job: one permit signature for their total, then one transaction
 * each through the runner, reporting every hash to the server as soon as the wallet sends it.
 * Stops at the first failure; a run that is no longer current (timeout, failure) sends no more.
 */
export async function sendChunks(job: StartedJob, indexes: number[], runNumber: number, config: AppConfig, run: Run): Promise<void> {
  const toSend = job.chunks.filter((c) => indexes.includes(c.index));
  const reports: Promise<unknown>[] = [];
  if (toSend.length > 0) {
    // The runner's own checks, once for the whole run: the payer's dry run, then the permit, signed before any chunk is sent.
    const wallet = signingWallet(NOT_CONNECTED);
    if (!wallet) {
      fail("Wallet not connected");
      return;
    }
    usePayments.setState({ step: "permit", activeChunk: null });
    let permit: SignedPermit;
    try {
      const value = toSend.reduce((sum, c) => sum + BigInt(c.total), 0n);
      await dryRun(payerCheck(wallet.address, value), config, wallet);
      await onDashboardChain(wallet, config);
      const { signBatchPermit } = await import("@/lib/chain/contracts");
      const deadline = BigInt(Math.floor(Date.now() / 1000) + PERMIT_LIFETIME_S);
      permit = await signBatchPermit(config, wallet.provider, wallet.address, value, deadline);
    } catch (error) {
      if (!isCurrent(runNumber)) return;
      const { message, told } = await writeFailure(error);
      if (!told) transferFailed(message);
      fail(message);
      return;
    }

    let permitUsed = false;
    for (const chunk of toSend) {
      if (!isCurrent(runNumber)) return;
      usePayments.setState({ step: "chunk", activeChunk: chunk.index });
      updateChunk(chunk.index, { status: "sending", txHash: null });
      const onSent = (hash: string) => {
        chunkSent(chunk.index, hash);
        // A lost report is not fatal: the server also finds a chunk's payment by its reference.
        reports.push(reportChunkTransaction(job.jobId, chunk.index, hash).catch(() => undefined));
      };
      const outcome = await run(chunkRequest(chunk, job.chunks.length, permitUsed ? null : permit, onSent));
      // What the chain did is recorded even when the run has stopped meanwhile.
      updateChunk(chunk.index, outcome.ok ? { status: "paid", txHash: outcome.hash } : { status: "failed", txHash: outcome.hash });
      if (!isCurrent(runNumber)) return;
      if (!outcome.ok) {
        fail(outcome.error);
        return;
      }
      permitUsed = true;
    }
  }
  await Promise.all(reports);
  if (isCurrent(runNumber)) usePayments.setState({ step: "watching", activeChunk: null, sendingDoneAt: Date.now() });
}

/**
 * Start (PRODUCT.md section 5's checks, the balance, POST /api/batch/execute, then the chunks) and Try
 * Again (the unpaid chunks of the same job, so nobody is paid twice). The form runner keeps the busy
 * flag (Start and Try Again say so until the chunks are under way) and the refusals' toasts.
 */
export function useBatchTransfer() {
  const config = useConfig();
  const form = useTxForm();
  const queryClient = useQueryClient();
  const address = useWallet((s) => (s.status === "connected" ? s.address : null));
  const account = useAccountFigures(address);
  const payFrom = usePayments((s) => s.payFrom);
  const safes = useSafes(address !== null);
  // 'Pay from' a Safe the wallet owns: its chunks become proposals instead of transactions.
  const safe = payFrom && address ? (safes.data?.find((s) => s.address === payFrom && isOwner(s, address)) ?? null) : null;
  const safeAccount = useAccountFigures(safe?.address ?? null);

  async function addToContacts(rows: PaymentRow[]): Promise<void> {
    try {
      const added = await importContacts(rows.map((r) => ({ name: r.name || shortAddress(r.address), address: r.address })));
      if (added > 0) {
        toast({ title: "Contacts updated", description: `${count(added)} recipients added to your contacts` });
        usePayments.setState({ contactsNote: `${count(added)} recipients added to your contacts.` });
      } else {
        usePayments.setState({ contactsNote: "Every recipient is already in your contacts." });
      }
    } catch (error) {
      const message = errorSentence(error, "Unknown error");
      toast({ title: "Contacts not updated", description: message, variant: "destructive" });
      usePayments.setState({ contactsNote: `Contacts not updated: ${message}` });
    }
  }

  async function start(): Promise<void> {
    const { upload, addToContacts: wantContacts, phase } = usePayments.getState();
    if (phase !== "initial" || form.busy) return;
    if (!address || !upload || upload.rows.length === 0) {
      return form.reject([
        [null, { title: "Cannot process payments", description: "Please connect your wallet and upload a valid CSV file" }],
      ]);
    }
    const rows: PaymentRow[] = upload.parsed.validRecipients.map(({ name, address, amount }) => ({ name, address, amount }));
    if (rows.length === 0) {
      return form.reject([
        [
          null,
          {
            title: "No valid recipients found",
            description: "Every row of the file has an error: fix the rows marked Error and upload it again.",
          },
        ],
      ]);
    }
    await form.perform(async (run) => {
      // A fresh balance: the one on screen may be older than the last payment.
      const payer = safe ? safeAccount : account;
      const balance = (await payer.refetch()).data?.balance ?? payer.data?.balance;
      if (balance !== undefined && BigInt(upload.parsed.totalAmountRaw) > balance) {
        const who = safe ? `${safeLabel(safe)} only has` : "You only have";
        form.reject([[null, { title: "Insufficient balance", description: `${who} ${formatUsdx(balance)} USDX available` }]]);
        return false;
      }
      let answer;
      try {
        answer = await executeBatch(rows, safe?.address ?? address);
      } catch (error) {
        transferFailed(errorSentence(error, "Unknown error"));
        return false;
      }
      // The declaration rules this out (this server refuses with a 4xx); an answer that says otherwise starts no payment.
      if (!answer.success || answer.status !== "processing") {
        transferFailed(answer.message || "Unknown error");
        return false;
      }
      toast({ title: "Processing batch transfer", description: answer.message });
      const job: StartedJob = {
        jobId: answer.jobId,
        totalAmount: answer.totalAmount,
        totalAmountRaw: answer.totalAmountRaw,
        recipients: rows.length,
        chunks: answer.chunks,
        safe:
          safe && answer.payerIsSafe && answer.multiSendCallOnly
            ? { address: safe.address, name: safeLabel(safe), multiSendCallOnly: answer.multiSendCallOnly }
            : null,
      };
      const runNumber = beginRun(job);
      void queryClient.invalidateQueries({ queryKey: [HISTORY_KEY] });
      if (wantContacts) void addToContacts(rows);
      // From here the page shows the run's own progress: the form is no longer busy.
      if (job.safe) {
        void proposeChunks(
          job,
          job.chunks.map((c) => c.index),
          runNumber,
          config,
          queryClient,
        );
        return true;
      }
      void sendChunks(
        job,
        job.chunks.map((c) => c.index),
        runNumber,
        config,
        run,
      );
      return true;
    });
  }

  async function retry(): Promise<void> {
    const { job, phase } = usePayments.getState();
    if (!job || phase !== "failed" || form.busy) return;
    await form.perform(async (run) => {
      let detail;
      try {
        detail = await fetchJobDetail(job.jobId);
      } catch (error) {
        transferFailed(errorSentence(error, "Unknown error"));
        return false;
      }
      // A closed batch (failed, and its time to send is over) takes no more transactions.
      if (detail.chunks.some((c) => c.status === "closed")) {
        transferFailed(detail.job.error ? `${detail.job.error} ${CLOSED}` : CLOSED);
        return false;
      }
      const runNumber = beginRun(job, true);
      applyServerStatus(detail, Date.now());
      if (!isCurrent(runNumber)) return false;
      // A Safe's chunks: only those paid by no proposal that is pending or executed are proposed
      // again (the server refuses the others too, so nobody is paid twice).
      if (job.safe) {
        const open = detail.chunks
          .filter((c) => c.status !== "confirmed" && !(c.proposal && ["pending", "executed"].includes(c.proposal.state)))
          .map((c) => c.index);
        void proposeChunks(job, open, runNumber, config, queryClient);
        return true;
      }
      // Paid and in-flight chunks are left alone, as the server or this browser knows them: only
      // those never sent, or that failed, go again (anything else could pay someone twice).
      const local = usePayments.getState().chunks;
      const unpaid = detail.chunks
        .filter(
          (c) =>
            (c.status === "pending" || c.status === "failed") &&
            !["sending", "submitted", "paid"].includes(local[c.index]?.status ?? "waiting"),
        )
        .map((c) => c.index);
      for (const index of unpaid) updateChunk(index, { status: "waiting", txHash: null });
      void sendChunks(job, unpaid, runNumber, config, run);
      return true;
    });
  }

  return { start, retry, starting: form.busy };
}
