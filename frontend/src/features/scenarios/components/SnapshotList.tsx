import { useId, type FormEvent } from "react";
import { Camera, History, RotateCcw } from "lucide-react";
import { EmptyState } from "@/components/states";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FieldError } from "@/components/ui/field-error";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { count, relativeTime } from "@/lib/format";
import { useNow } from "@/lib/useNow";
import type { SnapshotSummary } from "../api";
import { useTakeSnapshotForm } from "../hooks/useTakeSnapshotForm";

/** The node's named snapshots, each with 'Restore' (which asks first), and the field to take one. */
export function SnapshotList({
  snapshots,
  busy,
  onRestore,
}: {
  snapshots: SnapshotSummary[];
  /** A run is under way: nothing else may start, and a snapshot would keep a state half applied. */
  busy: boolean;
  onRestore(snapshot: SnapshotSummary): void;
}) {
  const now = useNow();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Snapshots</CardTitle>
        <CardDescription>
          A snapshot keeps the chain as it is now. Restoring it undoes every block since, for everyone on this chain; contacts and bank
          records on the server are kept.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <TakeSnapshotForm busy={busy} />
        {snapshots.length === 0 ? (
          <EmptyState icon={<History />} title="No snapshots yet" hint="Take one to come back to the chain as it is now." />
        ) : (
          <ul aria-label="Snapshots" className="divide-y divide-border">
            {snapshots.map((snapshot) => (
              <li key={snapshot.name} className="flex flex-col gap-3 py-3 last:pb-0 sm:flex-row sm:items-center sm:justify-between">
                <div className="grid min-w-0 gap-1">
                  <p className="font-medium [overflow-wrap:anywhere]">{snapshot.name}</p>
                  <p className="text-sm text-muted-foreground">
                    Block {count(snapshot.blockNumber)}, taken{" "}
                    <time dateTime={snapshot.takenAt} title={new Date(snapshot.takenAt).toLocaleString()}>
                      {relativeTime(Date.parse(snapshot.takenAt) / 1000, now).replace(/^Just now$/, "just now")}
                    </time>
                  </p>
                </div>
                <Button
                  type="button"
                  variant="outline"
                  className="shrink-0 self-start sm:self-center"
                  aria-label={`Restore ${snapshot.name}`}
                  disabled={busy}
                  onClick={() => onRestore(snapshot)}
                >
                  <RotateCcw className="h-4 w-4" aria-hidden />
                  Restore
                </Button>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function TakeSnapshotForm({ busy }: { busy: boolean }) {
  const form = useTakeSnapshotForm();
  const id = useId();
  const errorId = `${id}-error`;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void form.submit();
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Take a snapshot" aria-busy={form.busy} className="grid gap-2">
      <Label htmlFor={`${id}-name`}>Snapshot name</Label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          id={`${id}-name`}
          value={form.name}
          onChange={(e) => form.setName(e.target.value)}
          placeholder="e.g. before-payments"
          autoComplete="off"
          spellCheck={false}
          maxLength={64}
          aria-invalid={form.problem !== null}
          aria-describedby={form.problem ? errorId : undefined}
          className="sm:max-w-xs"
        />
        <Button type="submit" disabled={busy || form.busy} className="shrink-0">
          <Camera className="h-4 w-4" aria-hidden />
          {form.busy ? "Taking..." : "Take Snapshot"}
        </Button>
      </div>
      {form.problem && <FieldError id={errorId}>{form.problem}</FieldError>}
    </form>
  );
}
