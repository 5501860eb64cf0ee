import { and, asc, eq, lte, sql } from "drizzle-orm";
import type { Config } from "../../config";
import type { Database } from "../../db/client";
import { alertAttempts, alertDeliveries, alertRules, chainEvents } from "../../db/schema";
import type { Logger } from "../../lib/logger";
import { mapLimit } from "../../lib/concurrency";
import { postWebhook, type AttemptResult, type WebhookOptions } from "./webhook";
import { plural } from "@common/wording";

type Delivery = typeof alertDeliveries.$inferSelect;

/** Due deliveries taken per step, and how many rules' are sent at once (a slow receiver holds one of them). */
export const DELIVERIES_PER_STEP = 20;
const CONCURRENT_SENDS = 4;

/** Why a delivery was called off, as the log says it. */
export const CANCELLED = {
  reorged: "The event is no longer in the index: a reorganisation of the chain removed it, so it is not delivered.",
  disabled: "The rule was turned off before this delivery succeeded.",
} as const;

export type Send = (
  url: string,
  secret: string,
  deliveryId: string,
  payload: Record<string, unknown>,
  options: WebhookOptions,
) => Promise<AttemptResult>;

/**
 * Sends the deliveries that are due, with retries. Before each attempt the event must still be in
 * the index with the same block hash (else the delivery is cancelled: a reorganisation took it
 * away), and the rule still on. The attempt is claimed first by a conditional update that counts it
 * and moves next_attempt_at past the attempt's time limit, so an overlapping leader does not send
 * it too, and a server killed mid-attempt retries it once that time has passed. A 2xx is delivered;
 * anything else waits retryBaseMs, doubling up to retryMaxMs, until maxAttempts, then fails.
 */
export class AlertDeliverer {
  constructor(
    private readonly db: Database,
    private readonly options: Config["alerts"],
    private readonly log: Logger,
    private readonly send: Send = postWebhook,
  ) {}

  /** One step: every due delivery (up to DELIVERIES_PER_STEP), oldest due first. */
  async step(): Promise<void> {
    const due = await this.db
      .select({ delivery: alertDeliveries, rule: alertRules })
      .from(alertDeliveries)
      .innerJoin(alertRules, eq(alertRules.id, alertDeliveries.ruleId))
      .where(and(eq(alertDeliveries.status, "pending"), lte(alertDeliveries.nextAttemptAt, new Date())))
      .orderBy(asc(alertDeliveries.nextAttemptAt), asc(alertDeliveries.id))
      .limit(DELIVERIES_PER_STEP);
    // One rule's deliveries go one after another, in the order they are due (events in chain order),
    // so a receiver that answers sees them in order; different rules' go at once.
    const byRule = new Map<number, typeof due>();
    for (const item of due) byRule.set(item.rule.id, [...(byRule.get(item.rule.id) ?? []), item]);
    await mapLimit([...byRule.values()], CONCURRENT_SENDS, async (queue) => {
      for (const { delivery, rule } of queue) await this.attempt(delivery, rule);
    });
  }

  /** Waits after attempt `n` (1-based) failed. */
  backoffMs(n: number): number {
    return Math.min(this.options.retryMaxMs, this.options.retryBaseMs * 2 ** Math.min(n - 1, 30));
  }

  private async attempt(delivery: Delivery, rule: typeof alertRules.$inferSelect): Promise<void> {
    if (!rule.enabled) return this.cancel(delivery, CANCELLED.disabled);
    // A Safe proposal's step (event_key) is no indexed event: there is nothing in the index to check.
    if (!delivery.test && delivery.eventKey === null && !(await this.stillIndexed(delivery)))
      return this.cancel(delivery, CANCELLED.reorged);
    const attempt = delivery.attempts + 1;
    // The claim: only the step that moves `attempts` from what it read sends this attempt.
    const lease = new Date(Date.now() + this.options.timeoutMs * 2 + 1000);
    const [claimed] = await this.db
      .update(alertDeliveries)
      .set({ attempts: attempt, nextAttemptAt: lease })
      .where(
        and(eq(alertDeliveries.id, delivery.id), eq(alertDeliveries.status, "pending"), eq(alertDeliveries.attempts, delivery.attempts)),
      )
      .returning({ id: alertDeliveries.id });
    if (!claimed) return;
    const result = await this.send(rule.webhookUrl, rule.secret, delivery.publicId, delivery.payload, {
      timeoutMs: this.options.timeoutMs,
      allowPrivate: this.options.allowPrivateUrls,
      httpsOnly: this.options.httpsOnly,
    });
    const last = result.statusCode !== null ? `HTTP ${result.statusCode}` : result.error;
    const outcome = result.ok
      ? { status: "delivered", deliveredAt: result.attemptedAt, nextAttemptAt: null, note: null }
      : attempt >= this.options.maxAttempts
        ? { status: "failed", nextAttemptAt: null, note: `No success after ${plural(attempt, "attempt")}; the last: ${last}.` }
        : { status: "pending", nextAttemptAt: new Date(Date.now() + this.backoffMs(attempt)), note: null };
    await this.db.transaction(async (tx) => {
      await tx.insert(alertAttempts).values(attemptRow(delivery.id, result));
      await tx
        .update(alertDeliveries)
        .set(outcome)
        .where(and(eq(alertDeliveries.id, delivery.id), eq(alertDeliveries.status, "pending"), eq(alertDeliveries.attempts, attempt)));
    });
    const fields = { delivery: delivery.publicId, rule: rule.id, attempt, status: result.statusCode, error: result.error };
    if (result.ok) this.log.info(fields, "alert delivered");
    else
      this.log.warn(
        { ...fields, next: outcome.nextAttemptAt },
        outcome.status === "failed" ? "alert delivery failed for good" : "alert attempt failed; retrying later",
      );
  }

  private async stillIndexed(delivery: Delivery): Promise<boolean> {
    const [row] = await this.db
      .select({ one: sql<number>`1` })
      .from(chainEvents)
      .where(
        and(
          eq(chainEvents.blockNumber, delivery.blockNumber!),
          eq(chainEvents.logIndex, delivery.logIndex!),
          eq(chainEvents.blockHash, delivery.blockHash!),
        ),
      );
    return row !== undefined;
  }

  private async cancel(delivery: Delivery, note: string): Promise<void> {
    await this.db
      .update(alertDeliveries)
      .set({ status: "cancelled", nextAttemptAt: null, note })
      .where(and(eq(alertDeliveries.id, delivery.id), eq(alertDeliveries.status, "pending")));
    this.log.info({ delivery: delivery.publicId, note }, "alert delivery cancelled");
  }
}

/** An attempt as the log keeps it. */
export function attemptRow(deliveryId: number, result: AttemptResult): typeof alertAttempts.$inferInsert {
  return {
    deliveryId,
    attemptedAt: result.attemptedAt,
    statusCode: result.statusCode,
    error: result.error,
    excerpt: result.excerpt,
    durationMs: result.durationMs,
  };
}
