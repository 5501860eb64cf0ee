import { Badge } from "@/components/ui/badge";
import type { MonitoredPart } from "@common/apiTypes";
import type { PartHealth } from "../api/queries";

/** The parts' names as an operator reads them. */
export const PART_LABELS: Record<MonitoredPart, string> = {
  chain: "Chain (RPC node)",
  database: "Database",
  auth: "Sign-in (Firebase Auth)",
  indexer: "Indexer",
  batchWatcher: "Batch watcher",
  mockBank: "Mock bank",
  alerts: "Alerts (webhooks)",
};

const when = (iso: string) => new Date(iso).toLocaleString();

/** One card a part: up or down, what it is doing, and its last failure with when. */
export function PartsHealth({ parts }: { parts: PartHealth[] }) {
  return (
    <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3" aria-label="Health of each part">
      {parts.map((p) => (
        <li key={p.part} className="rounded-lg border border-border bg-card p-4" aria-label={PART_LABELS[p.part]}>
          <div className="flex items-center justify-between gap-2">
            <span className="font-medium">{PART_LABELS[p.part]}</span>
            <Badge variant={p.ok ? "success" : "destructive"}>{p.ok ? "Up" : "Down"}</Badge>
          </div>
          <p className="mt-1 text-sm text-muted-foreground">{p.detail}</p>
          {p.lastError !== null && (
            <p className="mt-2 break-words text-sm">
              <span className="text-muted-foreground">Last error{p.lastErrorAt ? ` (${when(p.lastErrorAt)})` : ""}: </span>
              {p.lastError}
            </p>
          )}
        </li>
      ))}
    </ul>
  );
}
