import { useInfiniteQuery } from "@tanstack/react-query";
import { HISTORY_DEFAULT_LIMIT } from "../../../../../common/events";
import type { HistoryPage } from "../../../../../common/apiTypes";
import { api } from "@/lib/api";

export type { HistoryEntry, HistoryPage } from "../../../../../common/apiTypes";

/** The first page's URL (spec section 9: history limit 50); later pages add the server's cursor. */
export const historyUrl = (address: string) => `/api/accounts/${address}/history?limit=${HISTORY_DEFAULT_LIMIT}`;

/**
 * An account's transfers, mints and burns, newest first, 50 a page; `fetchNextPage` continues
 * from the server's `nextCursor`. The key's second element keeps these pages apart from a plain
 * query of the same URL.
 */
export function useAccountHistory(address: string | null) {
  const url = historyUrl(address ?? "");
  return useInfiniteQuery({
    queryKey: [url, "pages"],
    queryFn: ({ pageParam }) => api<HistoryPage>(pageParam ? `${url}&cursor=${encodeURIComponent(pageParam)}` : url),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled: address !== null,
  });
}
