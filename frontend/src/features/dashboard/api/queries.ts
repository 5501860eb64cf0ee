import { useQuery } from "@tanstack/react-query";
import { RECENT_TRANSACTIONS } from "@common/events";
import { type Answer, endpointUrl } from "@/lib/api";

/**
 * The Dashboard's server reads. Keys are the URL (TanStack's default queryFn GETs the key's first
 * element), so other screens asking for the same URL share the cache.
 */

export type { HistoryEntry, HistoryPage, SupplyPoint } from "@common/apiTypes";

/** Enough points for a smooth line on a wide screen, few enough to stay light. */
export const SUPPLY_CHART_POINTS = 200;

export const recentHistoryKey = (address: string) =>
  [endpointUrl("GET /api/accounts/:address/history", { params: { address }, query: { limit: RECENT_TRANSACTIONS } })] as const;
export const supplyHistoryKey = [endpointUrl("GET /api/stats/supply", { query: { points: SUPPLY_CHART_POINTS } })] as const;

/** While a sent transaction waits for the index, the list looks again this often. */
export const PENDING_HISTORY_POLL_MS = 3000;

/** PRODUCT.md section 2: the latest 5 entries of the connected account's history. */
export function useRecentTransactions(address: string | null, waitingForIndex = false) {
  return useQuery<Answer<"GET /api/accounts/:address/history">>({
    queryKey: recentHistoryKey(address ?? ""),
    enabled: address !== null,
    refetchInterval: waitingForIndex ? PENDING_HISTORY_POLL_MS : false,
  });
}

export function useSupplyHistory() {
  return useQuery<Answer<"GET /api/stats/supply">>({ queryKey: supplyHistoryKey });
}
