import { AlertCircle, CheckCircle2 } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Progress } from "@/components/ui/progress";
import type { ScenarioRun } from "../api";
import { runOutcome, runStep, runTitle } from "../runWords";

/**
 * The run under way, or the last one: a progress bar with 'Step 3 of 12: mint 10,000 USDX to
 * alice', what the run said so far, and at the end its outcome or the error's sentence.
 */
export function RunPanel({ run }: { run: ScenarioRun }) {
  const running = run.state === "running";
  const step = runStep(run);
  // A run that ended with nothing to do has no steps: its bar is full, not empty.
  const [value, max] = run.total > 0 ? [run.done, run.total] : [running ? 0 : 1, 1];
  return (
    <Card aria-busy={running}>
      <CardHeader>
        <CardTitle>{runTitle(run)}</CardTitle>
        <CardDescription>
          {running
            ? "This changes the chain for everyone on it. You may leave this page: the run goes on, and its progress shows here again."
            : `Started ${new Date(run.startedAt).toLocaleTimeString()}${run.finishedAt ? `, ended ${new Date(run.finishedAt).toLocaleTimeString()}` : ""}.`}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid gap-2">
          <Progress value={value} max={max} label="Run progress" valueText={step} />
          <p className="text-sm [overflow-wrap:anywhere]" aria-live="polite">
            {step}
          </p>
        </div>
        {run.lines.length > 0 && (
          // Focusable: a keyboard can scroll a long log (axe's scrollable-region-focusable).
          <ol
            aria-label="What the run said"
            tabIndex={0}
            className="max-h-64 overflow-auto whitespace-pre-wrap rounded-md border border-border bg-muted/40 p-3 font-mono text-xs leading-relaxed"
          >
            {run.lines.map((line, i) => (
              <li key={i} className="[overflow-wrap:anywhere]">
                {line}
              </li>
            ))}
          </ol>
        )}
        {run.state === "done" && (
          <Alert variant="info" role="status">
            <CheckCircle2 className="h-4 w-4" aria-hidden />
            <AlertTitle>{run.kind === "apply" ? "Scenario applied" : "Snapshot restored"}</AlertTitle>
            <AlertDescription>{runOutcome(run)}</AlertDescription>
          </Alert>
        )}
        {run.state === "failed" && (
          <Alert variant="destructive">
            <AlertCircle className="h-4 w-4" aria-hidden />
            <AlertTitle>The run failed</AlertTitle>
            <AlertDescription className="[overflow-wrap:anywhere]">{run.error}</AlertDescription>
          </Alert>
        )}
      </CardContent>
    </Card>
  );
}
