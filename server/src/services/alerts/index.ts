import { randomUUID } from "node:crypto";
import { and, asc, count, desc, eq, inArray, lt } from "drizzle-orm";
import type { AlertKind, SafeAlertStep } from "@common/alerts";
import type { AlertAttempt, AlertDelivery } from "@common/api/alerts";
import type { Config } from "../../config";
import type { Database } from "../../db/client";
import { alertAttempts, alertDeliveries, alertRules } from "../../db/schema";
import type { Logger } from "../../lib/logger";
import { Ticker } from "../operations/ticker";
import { AlertDeliverer, attemptRow, type Send } from "./deliverer";
import { AlertMatcher } from "./matcher";
import { testPayload } from "./payload";
import { AlertRules } from "./rules";
import { postWebhook } from "./webhook";

type DeliveryRow = typeof alertDeliveries.$inferSelect;
type AttemptRowType = typeof alertAttempts.$inferSelect;

/**
 * Operators' alerts (issue 18): the admins' rules (rules.ts), and on the leader one loop that turns
 * indexed events into deliveries (matcher.ts) and sends the due ones (deliverer.ts, webhook.ts).
 * Everything is in the database, so a restarted or new leader carries on where the last one was.
 */
export class AlertsService {
  readonly rules: AlertRules;
  readonly matcher: AlertMatcher;
  readonly deliverer: AlertDeliverer;
  private readonly ticker: Ticker<void>;

  constructor(
    private readonly db: Database,
    private readonly options: Config["alerts"],
    private readonly chainId: number,
    head: () => Promise<number | null>,
    log: Logger,
    private readonly send: Send = postWebhook,
  ) {
    this.rules = new AlertRules(db, options, head);
    this.matcher = new AlertMatcher(db, chainId, options.confirmations, log);
    this.deliverer = new AlertDeliverer(db, options, log, send);
    this.ticker = new Ticker(() => this.step(), options.pollMs, log, "alerts");
  }

  start(): void {
    this.ticker.start();
  }

  stop(): Promise<void> {
    return this.ticker.stop();
  }

  status(): { running: boolean; lastError: string | null } {
    return { running: this.ticker.running, lastError: this.ticker.lastError };
  }

  /**
   * Deliveries of real events still to send (retries included): what /monitoring shows, since a
   * number that only grows means the receivers are refusing or away.
   */
  async waiting(): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(alertDeliveries)
      .where(and(eq(alertDeliveries.status, "pending"), eq(alertDeliveries.test, false)));
    return Number(row?.n ?? 0);
  }

  /** One step now (tests): match what the index holds, then send what is due. */
  runOnce(): Promise<void> {
    return this.ticker.runNow();
  }

  private async step(): Promise<void> {
    await this.matcher.step();
    await this.deliverer.step();
  }

  /** 'Send test': one signed attempt now, kept in the log as a test delivery; answered with it. */
  async test(ruleId: number): Promise<AlertDelivery> {
    const rule = await this.rules.get(ruleId);
    const publicId = randomUUID();
    const payload = testPayload({ id: rule.id, kind: rule.kind as AlertKind }, this.chainId, publicId);
    const result = await this.send(rule.webhookUrl, rule.secret, publicId, payload, {
      timeoutMs: this.options.timeoutMs,
      allowPrivate: this.options.allowPrivateUrls,
      httpsOnly: this.options.httpsOnly,
    });
    const { delivery, attempt } = await this.db.transaction(async (tx) => {
      const [delivery] = await tx
        .insert(alertDeliveries)
        .values({
          publicId,
          ruleId,
          test: true,
          payload,
          status: result.ok ? "delivered" : "failed",
          attempts: 1,
          deliveredAt: result.ok ? result.attemptedAt : null,
          note: result.ok ? null : "A test is sent once: it is not retried.",
        })
        .returning();
      const [attempt] = await tx.insert(alertAttempts).values(attemptRow(delivery.id, result)).returning();
      return { delivery, attempt };
    });
    return toDelivery(delivery, rule.kind as AlertKind, [attempt]);
  }

  /** The delivery log, newest first, each delivery with all its attempts. */
  async deliveries(query: { ruleId?: number; limit: number; before?: number }): Promise<AlertDelivery[]> {
    const rows = await this.db
      .select({ delivery: alertDeliveries, kind: alertRules.kind })
      .from(alertDeliveries)
      .innerJoin(alertRules, eq(alertRules.id, alertDeliveries.ruleId))
      .where(
        and(
          query.ruleId !== undefined ? eq(alertDeliveries.ruleId, query.ruleId) : undefined,
          query.before !== undefined ? lt(alertDeliveries.id, query.before) : undefined,
        ),
      )
      .orderBy(desc(alertDeliveries.id))
      .limit(query.limit);
    if (rows.length === 0) return [];
    const attempts = await this.db
      .select()
      .from(alertAttempts)
      .where(
        inArray(
          alertAttempts.deliveryId,
          rows.map((r) => r.delivery.id),
        ),
      )
      .orderBy(asc(alertAttempts.id));
    const byDelivery = new Map<number, AttemptRowType[]>();
    for (const attempt of attempts) byDelivery.set(attempt.deliveryId, [...(byDelivery.get(attempt.deliveryId) ?? []), attempt]);
    return rows.map(({ delivery, kind }) => toDelivery(delivery, kind as AlertKind, byDelivery.get(delivery.id) ?? []));
  }
}

/** A 'safe' delivery's step, as its stored body says it. */
function proposalOf(payload: Record<string, unknown>): AlertDelivery["proposal"] {
  const proposal = payload.proposal as { step: SafeAlertStep; safeTxHash: string };
  return { step: proposal.step, safeTxHash: proposal.safeTxHash, summary: String(payload.summary) };
}

function toAttempt(row: AttemptRowType): AlertAttempt {
  return {
    attemptedAt: row.attemptedAt.toISOString(),
    statusCode: row.statusCode,
    error: row.error,
    excerpt: row.excerpt,
    durationMs: row.durationMs,
  };
}

function toDelivery(row: DeliveryRow, kind: AlertKind, attempts: AttemptRowType[]): AlertDelivery {
  const event = row.payload.event as { name: string; transactionHash: string } | null;
  return {
    id: row.id,
    deliveryId: row.publicId,
    ruleId: row.ruleId,
    kind,
    test: row.test,
    event:
      event && row.blockNumber !== null && row.logIndex !== null
        ? { name: event.name, blockNumber: row.blockNumber, logIndex: row.logIndex, transactionHash: event.transactionHash }
        : null,
    proposal: row.eventKey !== null ? proposalOf(row.payload) : null,
    status: row.status as AlertDelivery["status"],
    attemptCount: row.attempts,
    nextAttemptAt: row.status === "pending" && row.nextAttemptAt ? row.nextAttemptAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    note: row.note,
    attempts: attempts.map(toAttempt),
  };
}
