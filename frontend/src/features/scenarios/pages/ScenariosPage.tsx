import { useState } from "react";
import { FlaskConical } from "lucide-react";
import { ConfirmDialog } from "@/components/ConfirmDialog";
import { ReadStates } from "@/components/states";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { toast } from "@/components/ui/toast";
import { ApiError, errorSentence } from "@/lib/api";
import { count } from "@/lib/format";
import { useApplyScenario, useRestoreSnapshot, useRun, useScenarios, type ScenarioSummary, type SnapshotSummary } from "../api";
import { RunPanel } from "../components/RunPanel";
import { ScenarioList } from "../components/ScenarioList";
import { SnapshotList } from "../components/SnapshotList";
import { useRefreshWhenRunEnds } from "../hooks/useRefreshWhenRunEnds";

type Asking = { kind: "apply"; scenario: ScenarioSummary } | { kind: "restore"; snapshot: SnapshotSummary } | null;

/**
 * /scenarios: for testers on the local chain. The shipped scenarios and the node's snapshots; one
 * applied or restored at a time, after a confirmation (it changes the chain for everyone on it),
 * with its progress; and every read of the dashboard refreshed when it ends.
 */
export default function ScenariosPage() {
  const overview = useScenarios();
  const run = useRun();
  const [asking, setAsking] = useState<Asking>(null);
  useRefreshWhenRunEnds(run.data);
  // The server refuses a second run anyway (409); the buttons say so before.
  const busy = run.data?.state === "running";
  const off = overview.error instanceof ApiError && (overview.error.status === 404 || overview.error.status === 503);

  return (
    <div className="grid grid-cols-1 gap-6">
      <div className="grid gap-1">
        <h1 className="text-2xl font-bold tracking-tight">Scenarios</h1>
        <p className="text-sm text-muted-foreground">
          Put the local chain in a named state for testing, or take it back to a snapshot. Each run changes the chain for everyone using it.
        </p>
      </div>
      {off ? (
        <Alert variant="info">
          <FlaskConical className="h-4 w-4" aria-hidden />
          <AlertTitle>Scenarios are off here</AlertTitle>
          <AlertDescription>{errorSentence(overview.error, "Scenarios are not available on this server.")}</AlertDescription>
        </Alert>
      ) : (
        <>
          {run.data && <RunPanel run={run.data} />}
          <ReadStates query={overview} failed="Could not load the scenarios" loading="Loading scenarios" isEmpty={() => false} empty={null}>
            {(data) => (
              <div className="grid grid-cols-1 gap-6 xl:grid-cols-2 xl:items-start">
                <ScenarioList scenarios={data.scenarios} busy={busy} onApply={(scenario) => setAsking({ kind: "apply", scenario })} />
                <SnapshotList snapshots={data.snapshots} busy={busy} onRestore={(snapshot) => setAsking({ kind: "restore", snapshot })} />
              </div>
            )}
          </ReadStates>
        </>
      )}
      <ConfirmRun asking={asking} onDone={() => setAsking(null)} />
    </div>
  );
}

/** 'Apply ...?' or 'Restore ...?': the run starts only once confirmed; a refusal (a run under way, the rate limit) is toasted. */
function ConfirmRun({ asking, onDone }: { asking: Asking; onDone(): void }) {
  const apply = useApplyScenario();
  const restore = useRestoreSnapshot();
  const start = async () => {
    if (!asking) return;
    const name = asking.kind === "apply" ? asking.scenario.name : asking.snapshot.name;
    try {
      await (asking.kind === "apply" ? apply : restore).mutateAsync(name);
    } catch (error) {
      toast({
        title: asking.kind === "apply" ? `Could not apply '${name}'` : `Could not restore '${name}'`,
        description: errorSentence(error, "Unknown error"),
        variant: "destructive",
      });
    }
    onDone();
  };
  const words =
    asking?.kind === "apply"
      ? {
          title: `Apply '${asking.scenario.name}'?`,
          description: `${asking.scenario.description} Transactions go to the local chain at once, for everyone using it.`,
          confirmLabel: "Apply",
        }
      : asking?.kind === "restore"
        ? {
            title: `Restore '${asking.snapshot.name}'?`,
            description: `The chain goes back to block ${count(asking.snapshot.blockNumber)}, as it was when this snapshot was taken: everything since is undone, for everyone using it.`,
            confirmLabel: "Restore",
          }
        : { title: "", description: "", confirmLabel: "" };
  return <ConfirmDialog open={asking !== null} onCancel={onDone} busyLabel="Starting..." onConfirm={start} {...words} />;
}
