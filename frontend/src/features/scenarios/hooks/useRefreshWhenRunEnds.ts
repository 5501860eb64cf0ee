import { useEffect, useRef } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { chainRewound, refreshAfterChainChange } from "@/lib/tx/refresh";
import type { ScenarioRun } from "../api";

/**
 * When a run this page watched ends, the chain has changed for everyone on it: every read of the
 * dashboard is refreshed (balances, the token's state and the paused banner, history), and after a
 * restore this browser forgets what it noted of the blocks that were undone.
 */
export function useRefreshWhenRunEnds(run: ScenarioRun | null | undefined): void {
  const client = useQueryClient();
  const watched = useRef<ScenarioRun | null>(null);
  useEffect(() => {
    const before = watched.current;
    watched.current = run ?? null;
    if (!run || before?.state !== "running") return;
    // Ended, or already followed by another run between two polls.
    const ended = run.state !== "running" || run.startedAt !== before.startedAt;
    if (!ended) return;
    if (before.kind === "restore" || run.kind === "restore") chainRewound();
    refreshAfterChainChange(client);
  }, [run, client]);
}
