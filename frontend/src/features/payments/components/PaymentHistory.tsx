import { useState } from "react";
import { useInfiniteQuery } from "@tanstack/react-query";
import { ChevronRight, Inbox } from "lucide-react";
import { EmptyState, LoadFailed } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { errorSentence } from "@/lib/api";
import { count, formatUsdx, relativeTime } from "@/lib/format";
import { fetchJobs, HISTORY_KEY } from "../api/batch";
import type { JobSummary } from "../api/types";
import { STATUS_POLL_MS } from "../hooks/useBatchStatus";
import { JobDetailDialog } from "./JobDetailDialog";
import { JobStatusBadge } from "./JobStatusBadge";

const seconds = (iso: string) => Date.parse(iso) / 1000;

/** Payment History: the signed-in user's real batch jobs, newest first, each openable. */
export function PaymentHistory() {
  const [openJob, setOpenJob] = useState<string | null>(null);
  const query = useInfiniteQuery({
    queryKey: [HISTORY_KEY, "list"],
    queryFn: ({ pageParam }) => fetchJobs(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextBefore ?? undefined,
    // A job still processing changes under the person's eyes.
    refetchInterval: (q) => (q.state.data?.pages.some((p) => p.jobs.some((j) => j.status === "processing")) ? STATUS_POLL_MS : false),
  });
  const jobs = query.data?.pages.flatMap((p) => p.jobs) ?? [];

  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>Payment History</CardTitle>
        <CardDescription>Your batch payments, newest first. Open one to see its transactions and every recipient.</CardDescription>
      </CardHeader>
      <CardContent>
        {query.isLoading ? (
          <div className="flex justify-center py-10">
            <Spinner label="Loading batch payments" />
          </div>
        ) : query.isError && jobs.length === 0 ? (
          <LoadFailed
            title="Failed to load batch payments"
            sentence={errorSentence(query.error, "Unknown error")}
            onRetry={() => void query.refetch()}
            retrying={query.isFetching}
          />
        ) : jobs.length === 0 ? (
          <EmptyState icon={<Inbox aria-hidden />} title="No batch payments found" hint="A batch you start from a CSV file appears here." />
        ) : (
          <div className="space-y-4">
            <JobsTable jobs={jobs} onOpen={setOpenJob} />
            {query.hasNextPage && (
              <div className="flex justify-center">
                <Button variant="outline" onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
                  {query.isFetchingNextPage ? "Loading..." : "Load older payments"}
                </Button>
              </div>
            )}
          </div>
        )}
      </CardContent>
      <JobDetailDialog jobId={openJob} onClose={() => setOpenJob(null)} />
    </Card>
  );
}

function JobsTable({ jobs, onOpen }: { jobs: JobSummary[]; onOpen(jobId: string): void }) {
  return (
    <Table className="min-w-[640px]" aria-label="Batch payments">
      <TableHeader>
        <TableRow>
          <TableHead>Started</TableHead>
          <TableHead className="text-right">Total (USDX)</TableHead>
          <TableHead className="text-right">Recipients paid</TableHead>
          <TableHead className="text-right">Transactions</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>
            <span className="sr-only">Details</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {jobs.map((job) => (
          <TableRow key={job.jobId} className="cursor-pointer" onClick={() => onOpen(job.jobId)}>
            <TableCell title={new Date(job.createdAt).toLocaleString()}>{relativeTime(seconds(job.createdAt))}</TableCell>
            <TableCell className="text-right tabular-nums">{formatUsdx(BigInt(job.totalAmountRaw))}</TableCell>
            <TableCell className="text-right tabular-nums">
              {count(job.recipientsPaid)}/{count(job.recipients)}
            </TableCell>
            <TableCell className="text-right tabular-nums">
              {count(job.chunks.confirmed)}/{count(job.chunks.total)}
            </TableCell>
            <TableCell>
              <JobStatusBadge status={job.status} />
            </TableCell>
            <TableCell className="text-right">
              <Button
                size="sm"
                variant="ghost"
                aria-label={`Details of the batch payment started ${new Date(job.createdAt).toLocaleString()}`}
                onClick={(e) => {
                  e.stopPropagation();
                  onOpen(job.jobId);
                }}
              >
                Details <ChevronRight className="h-4 w-4" aria-hidden />
              </Button>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
