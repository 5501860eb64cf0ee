import { useQuery } from "@tanstack/react-query";
import { RECENT_TRANSACTIONS } from "../../../../../common/events";

/**
 * The Dashboard's server reads. Keys are the URL (TanStack's default queryFn GETs the key's first
 * element), so other screens asking for the same URL share the cache.
 */

/** One entry of GET /api/accounts/:address/history (server/src/services/events.ts). */
export interface HistoryEntry {
  hash: string;
  type: "Transfer" | "Mint" | "Burn" | "Unknown";
  from: string;
  to: string;
  /** Exact decimal USDX. */
  amount: string;
  /** Base units. */
  amountRaw: string;
  blockNumber: number;
  logIndex: number;
  /** Unix seconds. */
  timestamp: number;
  /** Spec section 3: anything but 'confirmed' is pending. */
  status: string;
}

export interface HistoryPage {
  items: HistoryEntry[];
  nextCursor: string | null;
}

/** One point of GET /api/stats/supply: decimal strings (the server formats them with 18 decimals). */
export interface SupplyPoint {
  blockNumber: number;
  timestamp: number;
  totalSupply: string;
  totalShares: string;
  rewardMultiplier: string;
}

/** Enough points for a smooth line on a wide screen, few enough to stay light. */
export const SUPPLY_CHART_POINTS = 200;

export const recentHistoryKey = (address: string) => [`/api/accounts/${address}/history?limit=${RECENT_TRANSACTIONS}`] as const;
export const supplyHistoryKey = [`/api/stats/supply?points=${SUPPLY_CHART_POINTS}`] as const;

/** Spec section 2: the latest 5 entries of the connected account's history. */
export function useRecentTransactions(address: string | null) {
  return useQuery<HistoryPage>({ queryKey: recentHistoryKey(address ?? ""), enabled: address !== null });
}

export function useSupplyHistory() {
  return useQuery<{ points: SupplyPoint[] }>({ queryKey: supplyHistoryKey });
}
