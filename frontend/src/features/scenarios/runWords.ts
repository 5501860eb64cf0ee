import { plural } from "@/lib/format";
import type { ScenarioRun } from "./api";

/** The run's heading: 'Applying 'paused'', 'Restored snapshot 'before-payments'', ... */
export function runTitle(run: Pick<ScenarioRun, "kind" | "name" | "state">): string {
  const what = run.kind === "apply" ? `'${run.name}'` : `snapshot '${run.name}'`;
  if (run.state === "running") return run.kind === "apply" ? `Applying ${what}` : `Restoring ${what}`;
  if (run.state === "done") return run.kind === "apply" ? `Applied ${what}` : `Restored ${what}`;
  return run.kind === "apply" ? `Applying ${what} failed` : `Restoring ${what} failed`;
}

/** Where a run is: 'Step 3 of 12: mint 10,000 USDX to alice', or what it does before its plan is made. */
export function runStep(run: Pick<ScenarioRun, "kind" | "done" | "total" | "label">): string {
  if (run.total === 0 || run.label === null) return run.kind === "apply" ? "Reading the chain and planning..." : "Starting...";
  const step = Math.min(Math.max(run.done, 1), run.total);
  return `Step ${step} of ${run.total}: ${run.label}`;
}

/** What a run that is done did, in a sentence. */
export function runOutcome(run: Pick<ScenarioRun, "kind" | "name" | "sent">): string {
  if (run.kind === "restore") return `The chain is back as it was when '${run.name}' was taken.`;
  if (!run.sent) return `'${run.name}' is applied: the chain was already in its state, so nothing was sent.`;
  return `'${run.name}' is applied: ${plural(run.sent, "transaction")} sent.`;
}
