import { ALERT_KIND_INFO } from "@common/alerts";
import { Badge, type BadgeProps } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { count } from "@/lib/format";
import type { AlertAttempt, AlertDelivery } from "../api";

const STATUS: Record<AlertDelivery["status"], { label: string; variant: BadgeProps["variant"] }> = {
  pending: { label: "Retrying", variant: "secondary" },
  delivered: { label: "Delivered", variant: "success" },
  failed: { label: "Failed", variant: "destructive" },
  cancelled: { label: "Cancelled", variant: "outline" },
};

const time = (iso: string) =>
  new Date(iso).toLocaleString("en-US", {
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hour12: false,
  });

/** An attempt in a few words: 'HTTP 200 in 12 ms', or why there was no answer. */
export function attemptSummary(attempt: AlertAttempt): string {
  const answer = attempt.statusCode !== null ? `HTTP ${attempt.statusCode}` : (attempt.error ?? "no answer");
  const extra = attempt.statusCode !== null && attempt.error ? ` (${attempt.error})` : "";
  return `${answer}${extra} in ${count(attempt.durationMs)} ms`;
}

/** What a delivery carried: the event and where it is, a Safe proposal's step in words, or a test. */
function subject(delivery: AlertDelivery): string {
  if (delivery.proposal) return delivery.proposal.summary;
  if (delivery.test || !delivery.event) return "Test delivery";
  return `${delivery.event.name} in block ${count(delivery.event.blockNumber)} (log ${delivery.event.logIndex})`;
}

/** The delivery log: each delivery with its status and every attempt with the receiver's answer. */
export function DeliveryLog({
  deliveries,
  hasMore,
  loadingMore,
  onMore,
}: {
  deliveries: AlertDelivery[];
  hasMore: boolean;
  loadingMore: boolean;
  onMore(): void;
}) {
  return (
    <div className="grid gap-3">
      <ol className="grid gap-3" aria-label="Deliveries">
        {deliveries.map((delivery) => {
          const status = STATUS[delivery.status];
          return (
            <li key={delivery.id} className="rounded-md border border-border p-3 text-sm" aria-label={`Delivery ${delivery.id}`}>
              <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                <Badge variant={status.variant}>{status.label}</Badge>
                <span className="font-medium">{subject(delivery)}</span>
                <span className="text-muted-foreground">
                  Rule #{delivery.ruleId} · {ALERT_KIND_INFO[delivery.kind].label}
                </span>
                <span className="ml-auto whitespace-nowrap text-xs text-muted-foreground">{time(delivery.createdAt)}</span>
              </div>
              {delivery.note && <p className="mt-1 text-xs text-muted-foreground">{delivery.note}</p>}
              {delivery.nextAttemptAt && (
                <p className="mt-1 text-xs text-muted-foreground">Next attempt at {time(delivery.nextAttemptAt)}</p>
              )}
              {delivery.attempts.length > 0 && (
                <ol className="mt-2 grid gap-1 border-l-2 border-border pl-3" aria-label="Attempts">
                  {delivery.attempts.map((attempt, i) => (
                    <li key={i} className="grid gap-0.5">
                      <div className="flex flex-wrap gap-x-3 text-xs">
                        <span className="text-muted-foreground">
                          Attempt {i + 1} · {time(attempt.attemptedAt)}
                        </span>
                        <span
                          className={
                            attempt.statusCode !== null && attempt.statusCode < 300
                              ? "font-medium text-success"
                              : "font-medium text-destructive"
                          }
                        >
                          {attemptSummary(attempt)}
                        </span>
                      </div>
                      {attempt.excerpt && (
                        <pre className="max-h-16 overflow-hidden whitespace-pre-wrap break-all rounded bg-muted px-2 py-1 font-mono text-xs">
                          {attempt.excerpt}
                        </pre>
                      )}
                    </li>
                  ))}
                </ol>
              )}
            </li>
          );
        })}
      </ol>
      {hasMore && (
        <div className="flex justify-center">
          <Button type="button" variant="outline" size="sm" onClick={onMore} disabled={loadingMore}>
            {loadingMore && <Spinner className="h-4 w-4 text-current" label="Loading more deliveries" />}
            Load more
          </Button>
        </div>
      )}
    </div>
  );
}
