import { useCallback, type ReactNode } from "react";
import { useInfiniteQuery } from "@tanstack/react-query";
import { Link } from "react-router-dom";
import { AlertTriangle } from "lucide-react";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { ExportButton } from "@/components/ExportButton";
import { Badge } from "@/components/ui/badge";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Spinner } from "@/components/ui/spinner";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useConfig } from "@/lib/config";
import { blockUrl, isExternal } from "@/lib/explorer";
import { count, formatUsdx, shortAddress } from "@/lib/format";
import { parseTokenAmount } from "@common/amounts";
import { RECIPIENT_STATUS_WORDS } from "@common/batch";
import { errorSentence } from "@/lib/api";
import { batchExportUrl, fetchJobDetail, HISTORY_KEY, RECIPIENT_PAGE } from "../api/batch";
import type { ChunkDetail, RecipientDetail } from "../api/types";
import { STATUS_POLL_MS } from "../hooks/useBatchStatus";
import { ChunkStatusBadge, JobStatusBadge } from "./JobStatusBadge";
import { TxHashLink } from "./TxHashLink";
import { VirtualTable, type Column } from "./VirtualTable";

/** The server's exact decimal, to the screen's 2 decimals. */
const usdx = (exact: string) => formatUsdx(parseTokenAmount(exact));

function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0 rounded-md border border-border bg-muted/30 px-3 py-2">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="truncate font-semibold tabular-nums">{children}</dd>
    </div>
  );
}

// unpaid: the recipient's chunk was closed unpaid (its batch failed and its time to send is over).

const recipientColumns: Column<RecipientDetail>[] = [
  { header: "#", cell: (r) => <span className="tabular-nums text-muted-foreground">{count(r.position + 1)}</span> },
  { header: "Name", cell: (r) => <span className="truncate">{r.name || <span className="text-muted-foreground">no name</span>}</span> },
  {
    header: "Address",
    cell: (r) => (
      <span className="truncate font-mono text-xs" title={r.address}>
        {r.address}
      </span>
    ),
  },
  { header: "Amount", align: "end", cell: (r) => <span className="tabular-nums">{usdx(r.amount)}</span> },
  {
    header: "Status",
    cell: (r) => (
      <span className="flex flex-col items-start gap-0.5">
        <Badge variant={r.status === "paid" ? "success" : "outline"}>{RECIPIENT_STATUS_WORDS[r.status]}</Badge>
        {r.txHash && <TxHashLink hash={r.txHash} className="text-xs" />}
      </span>
    ),
  },
];

function BlockLink({ block }: { block: number }) {
  const config = useConfig();
  const href = blockUrl(config, block);
  return isExternal(config) ? (
    <a href={href} target="_blank" rel="noreferrer" className="text-primary hover:underline">
      {count(block)}
    </a>
  ) : (
    <Link to={href} className="text-primary hover:underline">
      {count(block)}
    </Link>
  );
}

function ChunksTable({ chunks }: { chunks: ChunkDetail[] }) {
  return (
    <Table className="min-w-[600px]" aria-label="Transactions">
      <TableHeader>
        <TableRow>
          <TableHead>Chunk</TableHead>
          <TableHead className="text-right">Recipients</TableHead>
          <TableHead className="text-right">Amount (USDX)</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>Transaction</TableHead>
          <TableHead>Block</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {chunks.map((c) => (
          <TableRow key={c.index}>
            <TableCell>
              {c.index + 1}
              {c.error && <p className="mt-1 max-w-xs break-words text-xs text-destructive">{c.error}</p>}
            </TableCell>
            <TableCell className="text-right tabular-nums">{count(c.recipients)}</TableCell>
            <TableCell className="text-right tabular-nums">{usdx(c.totalAmount)}</TableCell>
            <TableCell>
              <ChunkStatusBadge status={c.status} />
            </TableCell>
            <TableCell>
              {c.txHash ? <TxHashLink hash={c.txHash} className="text-xs" /> : <span className="text-muted-foreground">—</span>}
            </TableCell>
            <TableCell>
              {c.blockNumber !== null ? <BlockLink block={c.blockNumber} /> : <span className="text-muted-foreground">—</span>}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** One job of Payment History: its figures, its chunks with their transactions, and every recipient. */
export function JobDetailDialog({ jobId, onClose }: { jobId: string | null; onClose(): void }) {
  const query = useInfiniteQuery({
    queryKey: [HISTORY_KEY, "job", jobId],
    enabled: jobId !== null,
    queryFn: ({ pageParam }) => fetchJobDetail(jobId!, pageParam, RECIPIENT_PAGE),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.recipients.length, 0);
      return last.recipients.length === RECIPIENT_PAGE && loaded < last.job.recipients ? loaded : undefined;
    },
    refetchInterval: (q) => (q.state.data?.pages[0]?.job.status === "processing" ? STATUS_POLL_MS : false),
  });
  const first = query.data?.pages[0];
  const recipients = query.data?.pages.flatMap((p) => p.recipients) ?? [];
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const more = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  return (
    <Dialog open={jobId !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[90vh] max-w-5xl overflow-y-auto">
        <DialogHeader>
          <DialogTitle className="flex flex-wrap items-center gap-2 pr-6">
            Batch payment {first && <JobStatusBadge status={first.job.status} />}
          </DialogTitle>
          <DialogDescription>
            {first ? `Started ${new Date(first.job.createdAt).toLocaleString()}` : "Loading the batch payment..."}
            {first && <span className="block break-all font-mono text-xs">Job {first.job.jobId}</span>}
          </DialogDescription>
        </DialogHeader>
        {query.isLoading ? (
          <div className="flex justify-center py-8">
            <Spinner label="Loading the batch payment" />
          </div>
        ) : query.isError || !first ? (
          <p role="alert" className="text-sm text-destructive">
            {errorSentence(query.error, "The batch payment could not be loaded.")}
          </p>
        ) : (
          <div className="min-w-0 space-y-5">
            <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4">
              <Figure label="Total">{formatUsdx(BigInt(first.job.totalAmountRaw))} USDX</Figure>
              <Figure label="Recipients paid">
                {count(first.job.recipientsPaid)}/{count(first.job.recipients)}
              </Figure>
              <Figure label="Transactions paid">
                {count(first.job.chunks.confirmed)}/{count(first.job.chunks.total)}
              </Figure>
              <Figure label="Paid from">
                {first.job.payer ? <span title={first.job.payer}>{shortAddress(first.job.payer)}</span> : "Not known yet"}
              </Figure>
            </dl>
            {first.job.error && (
              <Alert variant="destructive">
                <AlertTriangle className="h-4 w-4" aria-hidden />
                <AlertDescription className="break-words">{first.job.error}</AlertDescription>
              </Alert>
            )}
            <section className="space-y-2">
              <h3 className="text-sm font-semibold">Transactions</h3>
              <ChunksTable chunks={first.chunks} />
            </section>
            <section className="space-y-2">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <h3 className="text-sm font-semibold">Recipients</h3>
                {/* For reconciling a payroll: every recipient with status, transaction and block, whatever pages are loaded here. */}
                <ExportButton size="sm" path={batchExportUrl(first.job.jobId)} fallbackName={`usdx_batch_${first.job.jobId}.csv`} />
              </div>
              <VirtualTable
                label="Batch recipients"
                rows={recipients}
                columns={recipientColumns}
                gridTemplate="52px minmax(110px,1fr) minmax(310px,1.4fr) minmax(90px,0.5fr) minmax(160px,0.7fr)"
                minWidth={760}
                rowKey={(r) => r.position}
                onEndReached={more}
              />
              {isFetchingNextPage && <p className="text-xs text-muted-foreground">Loading more recipients...</p>}
            </section>
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
