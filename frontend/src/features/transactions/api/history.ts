import { useInfiniteQuery } from "@tanstack/react-query";
import { HISTORY_DEFAULT_LIMIT } from "@common/events";
import { call, endpointUrl } from "@/lib/api";

export type { HistoryEntry, HistoryPage } from "@common/apiTypes";

/** The first page's URL (PRODUCT.md section 9: history limit 50); later pages add the server's cursor. */
export const historyUrl = (address: string) =>
  endpointUrl("GET /api/accounts/:address/history", { params: { address }, query: { limit: HISTORY_DEFAULT_LIMIT } });

/**
 * An account's transfers, mints and burns, newest first, 50 a page; `fetchNextPage` continues
 * from the server's `nextCursor`. The key's second element keeps these pages apart from a plain
 * query of the same URL.
 */
export function useAccountHistory(address: string | null) {
  const url = historyUrl(address ?? "");
  return useInfiniteQuery({
    queryKey: [url, "pages"],
    queryFn: ({ pageParam }) =>
      call("GET /api/accounts/:address/history", {
        params: { address: address ?? "" },
        query: { limit: HISTORY_DEFAULT_LIMIT, cursor: pageParam ?? undefined },
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled: address !== null,
  });
}

/** GET /api/accounts/:address/history/export's URL: the account's transactions in `range`, oldest first, as CSV. */
export const historyExportUrl = (address: string, range: { fromBlock?: number; toBlock?: number; fromDate?: string; toDate?: string }) =>
  endpointUrl("GET /api/accounts/:address/history/export", { params: { address }, query: range });
