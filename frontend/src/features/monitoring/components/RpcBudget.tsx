import { Badge } from "@/components/ui/badge";
import type { RpcBudgetStatus } from "../api/queries";

const perSecond = (n: number | null) => (n === null ? "no limit" : `${n.toLocaleString()} a second`);
const when = (iso: string) => new Date(iso).toLocaleTimeString();

/**
 * The request budget every loop that reads the chain shares: what it allows now (lowered for a
 * while after a provider's 429), what was spent, and how long requests waited for their turn.
 */
export function RpcBudget({ budget }: { budget: RpcBudgetStatus }) {
  const rows: [string, string][] = [
    ["Plan", budget.plan === "custom" ? "RPC_REQUESTS_PER_SECOND" : budget.plan],
    ["Allowed now", perSecond(budget.allowedPerSecond)],
    ["Configured", perSecond(budget.configuredPerSecond)],
    [
      "Spent",
      `${budget.spentPerSecond.toLocaleString()} a second over the last minute; ${budget.spentTotal.toLocaleString()} requests since start`,
    ],
    [
      "Waited",
      `${budget.waits.toLocaleString()} requests waited their turn, ${budget.waitedSeconds.toLocaleString()} s in all; ${budget.refused.toLocaleString()} refused for want of a turn in time`,
    ],
  ];
  return (
    <div className="space-y-2 rounded-lg border border-border bg-card p-4 text-sm" aria-label="RPC request budget">
      <div className="flex items-center justify-between gap-2">
        <span className="font-medium">RPC request budget</span>
        <Badge variant={budget.loweredUntil ? "destructive" : "success"}>
          {budget.loweredUntil ? `Lowered after a 429 until ${when(budget.loweredUntil)}` : "Not lowered"}
        </Badge>
      </div>
      <dl className="grid gap-x-6 gap-y-1 sm:grid-cols-[max-content_1fr]">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-muted-foreground">{label}</dt>
            <dd className="min-w-0">{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
