import { Link } from "react-router-dom";
import { CheckCircle2, CloudOff, History, Loader2, RotateCcw, XCircle } from "lucide-react";
import { useShallow } from "zustand/react/shallow";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ExportButton } from "@/components/ExportButton";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Progress } from "@/components/ui/progress";
import { ApiError } from "@/lib/api";
import { count, formatUsdx, plural } from "@/lib/format";
import { batchExportUrl } from "../api/batch";
import { STATUS_POLL_MS } from "../hooks/useBatchStatus";
import { proposedLine } from "../hooks/proposeChunks";
import { progressOf, type ChunkView } from "../progress";
import { backToRecipients, FAILED_FALLBACK, resetPayments, usePayments } from "../stores/paymentsStore";
import { TxHashLink } from "./TxHashLink";

const CHUNK_STATUS: Record<
  ChunkView["status"],
  { label: string; variant: "secondary" | "outline" | "success" | "destructive" | "default" }
> = {
  waiting: { label: "Waiting", variant: "outline" },
  sending: { label: "Confirm in wallet", variant: "default" },
  submitted: { label: "Submitted", variant: "secondary" },
  proposed: { label: "Awaiting approval", variant: "secondary" },
  paid: { label: "Paid", variant: "success" },
  failed: { label: "Failed", variant: "destructive" },
};

function useProgress() {
  return usePayments(useShallow((s) => ({ job: s.job, chunks: s.chunks, server: s.server, activeChunk: s.activeChunk })));
}

/** Every chunk with its recipients, amount, status and transaction link. */
function ChunkList({ chunks }: { chunks: ChunkView[] }) {
  return (
    <ol aria-label="Transactions" className="max-h-72 divide-y divide-border overflow-y-auto rounded-md border border-border">
      {chunks.map((c) => (
        <li key={c.index} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 px-3 py-2 text-sm">
          <div className="min-w-0">
            <span className="font-medium">Chunk {c.index + 1}</span>
            <span className="text-muted-foreground">
              {" "}
              · {plural(c.recipients, "recipient")} · {formatUsdx(c.total)} USDX
            </span>
            {c.error && <p className="text-xs text-destructive">{c.error}</p>}
          </div>
          <div className="flex items-center gap-2">
            {c.txHash ? (
              <TxHashLink hash={c.txHash} className="text-xs" />
            ) : (
              <span className="text-xs text-muted-foreground">No transaction yet</span>
            )}
            <Badge variant={CHUNK_STATUS[c.status].variant}>{CHUNK_STATUS[c.status].label}</Badge>
          </div>
        </li>
      ))}
    </ol>
  );
}

function ProgressFigures({ progress }: { progress: ReturnType<typeof progressOf> }) {
  const text = `Chunk ${count(progress.current)} of ${count(progress.chunks.length)} · ${count(progress.recipientsPaid)} of ${count(progress.recipients)} recipients paid`;
  return (
    <div className="space-y-2">
      <p className="text-sm font-medium tabular-nums" aria-live="polite">
        {text}
      </p>
      <Progress value={progress.recipientsPaid} max={progress.recipients} label="Recipients paid" valueText={text} />
    </div>
  );
}

/**
 * The status poll failed (the server, or what it depends on, is away): said in words, while the
 * poll goes on asking; the chunks already sent are on the chain whatever the server says.
 */
function PollFailure({ error }: { error: Error }) {
  const message = error instanceof ApiError ? error.sentence : `The server could not be reached (${error.message || "no answer"}).`;
  return (
    <Alert variant="destructive">
      <CloudOff className="h-4 w-4" aria-hidden />
      <AlertTitle>Cannot get the batch status from the server</AlertTitle>
      <AlertDescription className="[overflow-wrap:anywhere]">
        {message} Asking again every {STATUS_POLL_MS / 1000} seconds; transactions already sent are not affected.
      </AlertDescription>
    </Alert>
  );
}

/** 'transferring': what the wallet is being asked for, and how far the batch has got. */
export function TransferProgress({ pollError = null }: { pollError?: Error | null }) {
  const state = useProgress();
  const step = usePayments((s) => s.step);
  const contactsNote = usePayments((s) => s.contactsNote);
  const progress = progressOf(state);
  const job = state.job!;
  const active = state.activeChunk !== null ? progress.chunks[state.activeChunk] : null;
  const safe = job.safe ?? null;
  const awaiting = progress.chunks.filter((c) => c.status === "proposed").length;
  const doing = safe
    ? step === "proposing"
      ? `Sign each chunk's proposal to ${safe.name} in your wallet: one signature per chunk, at the Safe's next nonces.`
      : `${proposedLine(safe.name, awaiting)}. Its owners approve and execute each on the Approvals screen; a chunk shows Paid once its payment is on the chain.`
    : step === "permit"
      ? `Sign the permit in your wallet: one signature lets the batch contract pay ${formatUsdx(BigInt(job.totalAmountRaw))} USDX from your wallet to these recipients, and nothing else.`
      : step === "chunk" && active
        ? active.status === "sending"
          ? `Confirm transaction ${active.index + 1} of ${progress.chunks.length} in your wallet (${plural(active.recipients, "recipient")}).`
          : `Transaction ${active.index + 1} of ${progress.chunks.length} sent; waiting for it to be mined.`
        : "Every transaction is sent. Waiting for the server to confirm each payment on the chain...";
  return (
    <Card aria-busy="true">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Loader2 className="h-5 w-5 animate-spin text-primary" aria-hidden />
          Processing batch transfer
        </CardTitle>
        <CardDescription>{doing}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {pollError && <PollFailure error={pollError} />}
        <ProgressFigures progress={progress} />
        <ChunkList chunks={progress.chunks} />
        {safe && awaiting > 0 && (
          <Button asChild variant="outline">
            <Link to="/approvals">Open Approvals</Link>
          </Button>
        )}
        {contactsNote && <p className="text-xs text-muted-foreground">{contactsNote}</p>}
      </CardContent>
    </Card>
  );
}

/** 'completed': what was paid, the transactions, and 'Start New Batch'. */
export function CompletedPanel({ onShowHistory }: { onShowHistory(): void }) {
  const state = useProgress();
  const contactsNote = usePayments((s) => s.contactsNote);
  const progress = progressOf(state);
  const job = state.job!;
  return (
    <Card className="border-success/40">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <CheckCircle2 className="h-5 w-5 text-success" aria-hidden />
          Batch transfer completed
        </CardTitle>
        <CardDescription>
          Sent {formatUsdx(BigInt(job.totalAmountRaw))} USDX to {plural(job.recipients, "recipient")} in{" "}
          {plural(job.chunks.length, "transaction")}.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <ChunkList chunks={progress.chunks} />
        {contactsNote && <p className="text-xs text-muted-foreground">{contactsNote}</p>}
        <div className="flex flex-wrap gap-2">
          <Button onClick={resetPayments}>Start New Batch</Button>
          <Button variant="outline" onClick={onShowHistory}>
            <History className="h-4 w-4" aria-hidden />
            View in Payment History
          </Button>
          <ExportButton path={batchExportUrl(job.jobId)} fallbackName={`usdx_batch_${job.jobId}.csv`} />
        </div>
      </CardContent>
    </Card>
  );
}

/**
 * 'failed': the status error, what was paid already, and 'Try Again', which sends only the chunks
 * not paid yet (a new batch would pay the others twice). Nothing paid yet: the recipients can
 * also be taken back to fix the file.
 */
export function FailedPanel({ onRetry, retrying }: { onRetry(): void; retrying: boolean }) {
  const state = useProgress();
  const error = usePayments((s) => s.error);
  const progress = progressOf(state);
  const untouched = progress.chunks.every((c) => c.status === "waiting" || c.status === "failed") && progress.recipientsPaid === 0;
  const unpaid = progress.chunks.filter((c) => c.status !== "paid");
  // A wallet still asking about a chunk (the timeout came first) must be answered before retrying.
  const asking = progress.chunks.find((c) => c.status === "sending");
  return (
    <Card className="border-destructive/40">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <XCircle className="h-5 w-5 text-destructive" aria-hidden />
          Batch transfer failed
        </CardTitle>
        <CardDescription role="alert" className="break-words text-destructive">
          {error || FAILED_FALLBACK}
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <ProgressFigures progress={progress} />
        {progress.recipientsPaid > 0 && (
          <p className="text-sm text-muted-foreground">
            {count(progress.recipientsPaid)} of {count(progress.recipients)} recipients are paid. Try Again sends only the{" "}
            {plural(unpaid.length, "transaction")} not paid yet, so nobody is paid twice.
          </p>
        )}
        <ChunkList chunks={progress.chunks} />
        {asking && (
          <p className="text-sm text-muted-foreground">
            Your wallet is still asking you to confirm chunk {asking.index + 1}: answer it there before trying again.
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          <Button onClick={onRetry} disabled={retrying || asking !== undefined}>
            <RotateCcw className="h-4 w-4" aria-hidden />
            Try Again
          </Button>
          {untouched && (
            <Button variant="outline" onClick={backToRecipients}>
              Back to recipients
            </Button>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
