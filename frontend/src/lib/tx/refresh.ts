import type { QueryClient } from "@tanstack/react-query";
import { forgetMined } from "./dryRun";
import { usePendingEntries } from "./pending";

/** The indexer sees a block a moment after it is mined: refresh server data once more then. */
export const INDEXER_SETTLE_MS = 2000;

/**
 * After the chain changed (a transaction, a scenario applied, a snapshot restored): every read is
 * refreshed now, chain and server alike, and once more when the indexer has caught up.
 */
export function refreshAfterChainChange(queryClient: QueryClient): void {
  void queryClient.invalidateQueries();
  setTimeout(() => void queryClient.invalidateQueries(), INDEXER_SETTLE_MS);
}

/**
 * The chain went back to an earlier block (a snapshot restored): what this browser noted of the
 * blocks since no longer holds. The dry run would wait for a block the node will not reach again,
 * and this browser's pending history entries were undone with their blocks.
 */
export function chainRewound(): void {
  forgetMined();
  usePendingEntries.setState({ entries: [] });
}
