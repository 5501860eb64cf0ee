import { useEffect } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { fetchJobDetail, HISTORY_KEY, jobDetailUrl } from "../api/batch";
import { applyServerStatus, usePayments } from "../stores/paymentsStore";

/** PRODUCT.md section 9: the batch status poll. */
export const STATUS_POLL_MS = 3000;

/**
 * Follows the running job on the server every 3 s while the screen is transferring (the server
 * watches the chain), and feeds each answer to the screen's state machine.
 */
export function useBatchStatus() {
  const jobId = usePayments((s) => s.job?.jobId ?? null);
  const phase = usePayments((s) => s.phase);
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: [jobDetailUrl(jobId ?? "none")],
    enabled: jobId !== null,
    // When it was asked matters: an answer asked for before a Try Again's reports is stale.
    queryFn: async () => {
      const askedAt = Date.now();
      return { askedAt, detail: await fetchJobDetail(jobId!) };
    },
    refetchInterval: phase === "transferring" ? STATUS_POLL_MS : false,
  });

  useEffect(() => {
    if (query.data) applyServerStatus(query.data.detail, query.data.askedAt);
  }, [query.data]);

  // Every chunk is sent: ask now rather than at the next tick.
  const sendingDoneAt = usePayments((s) => s.sendingDoneAt);
  const { refetch } = query;
  useEffect(() => {
    if (sendingDoneAt !== null) void refetch();
  }, [sendingDoneAt, refetch]);

  // A job that has finished changes Payment History.
  useEffect(() => {
    if (phase === "completed" || phase === "failed") void queryClient.invalidateQueries({ queryKey: [HISTORY_KEY] });
  }, [phase, queryClient]);

  return query;
}
