import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call } from "@/lib/api";
import type { ScenarioRun } from "@common/apiTypes";

export type { ScenarioRun, ScenarioSummary, SnapshotSummary } from "@common/apiTypes";

/** The shipped scenarios, the snapshots and the last run (GET /api/scenarios). */
export const scenariosKey = ["/api/scenarios"] as const;
/** The run under way or the last one (GET /api/scenarios/run), polled while it runs. */
export const runKey = ["/api/scenarios/run"] as const;

/** How often a run's progress is asked while it runs: a step is a transaction, about a second on the local chain. */
export const RUN_POLL_MS = 1000;

export function useScenarios() {
  return useQuery({ queryKey: scenariosKey, queryFn: () => call("GET /api/scenarios") });
}

/** The run, whoever started it (it changes the chain for everyone): polled until it ends. */
export function useRun() {
  return useQuery({
    queryKey: runKey,
    queryFn: async () => (await call("GET /api/scenarios/run")).run,
    refetchInterval: (query) => (query.state.data?.state === "running" ? RUN_POLL_MS : false),
  });
}

/** A run the server started (202): the page follows it from here. */
function useStartRun(start: (name: string) => Promise<ScenarioRun>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: start, onSuccess: (run) => client.setQueryData(runKey, run) });
}

export function useApplyScenario() {
  return useStartRun(async (name) => (await call("POST /api/scenarios/:name/apply", { params: { name } })).run);
}

export function useRestoreSnapshot() {
  return useStartRun(async (name) => (await call("POST /api/snapshots/:name/restore", { params: { name } })).run);
}

export function useTakeSnapshot() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => (await call("POST /api/snapshots", { body: { name } })).snapshot,
    onSuccess: () => client.invalidateQueries({ queryKey: scenariosKey }),
  });
}
