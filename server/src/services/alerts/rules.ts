import { randomBytes } from "node:crypto";
import { and, asc, count, eq } from "drizzle-orm";
import { exactTokenAmount, parseTokenAmount } from "@common/amounts";
import type { AlertKind } from "@common/alerts";
import type { AlertRule } from "@common/api/alerts";
import { formatStepBound, parseStepBound } from "@common/multiplierStep";
import type { Config } from "../../config";
import type { Database } from "../../db/client";
import { xactLock } from "../../db/locks";
import { alertDeliveries, alertRules, indexerState } from "../../db/schema";
import { badRequest, conflict, notFound, unavailable } from "../../lib/errors";
import { CANCELLED } from "./deliverer";
import { RefusedUrl, parseWebhookUrl, resolveChecked } from "./urlCheck";

type Row = typeof alertRules.$inferSelect;

const NOT_FOUND = "Alert rule not found: it may have been deleted.";

/** A new secret: 32 random bytes as hex, marked so it is recognised if it leaks into a log or a chat. */
export const newSecret = () => `whsec_${randomBytes(32).toString("hex")}`;

/** The rule as the API answers it: the secret only by its last characters. */
export function toRule(row: Row): AlertRule {
  return {
    id: row.id,
    kind: row.kind as AlertKind,
    threshold: row.threshold === null ? null : exactTokenAmount(BigInt(row.threshold)),
    stepPercent: row.stepPercent === null ? null : formatStepBound(row.stepPercent).slice(0, -1),
    webhookUrl: row.webhookUrl,
    enabled: row.enabled,
    secretHint: `…${row.secret.slice(-4)}`,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * The threshold as base units, or null for none: mint and burn take an amount of USDX, multiplier a
 * step of the multiplier (both 18 decimals). Whether the kind takes one, and its form, the
 * declaration has checked (common/api/alerts.ts).
 */
function thresholdUnits(raw: string | null | undefined): string | null {
  const text = raw?.trim() ?? "";
  return text === "" ? null : parseTokenAmount(text).toString();
}

/**
 * A multiplier rule's step as a percentage of every balance (the oracle's tools weigh a change the
 * same way: common/multiplierStep.ts), in hundredths of a percent, or null for none; checked by the
 * declaration.
 */
function stepHundredths(raw: string | null | undefined): number | null {
  const text = raw?.trim() ?? "";
  return text === "" ? null : parseStepBound(text);
}

/** The admins' alert rules: made, listed, turned on and off, deleted, given a new secret. */
export class AlertRules {
  constructor(
    private readonly db: Database,
    private readonly options: Config["alerts"],
    /** The chain's head now (a rule alerts on blocks after it); null when the node does not answer. */
    private readonly head: () => Promise<number | null>,
  ) {}

  async list(): Promise<AlertRule[]> {
    return (await this.db.select().from(alertRules).orderBy(asc(alertRules.id))).map(toRule);
  }

  async get(id: number): Promise<Row> {
    const [row] = await this.db.select().from(alertRules).where(eq(alertRules.id, id));
    if (!row) throw notFound(NOT_FOUND);
    return row;
  }

  /** Checks the webhook as the deliverer will (form, then every address its host resolves to). */
  async checkUrl(raw: string): Promise<string> {
    try {
      const url = parseWebhookUrl(raw, this.options.httpsOnly);
      // The system resolver has no time limit of its own: a request waits no longer than an attempt would.
      let timer: NodeJS.Timeout | undefined;
      const slow = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new RefusedUrl(`The webhook's host ${url.hostname} did not resolve within ${this.options.timeoutMs} ms: check the name.`),
            ),
          this.options.timeoutMs,
        );
      });
      try {
        await Promise.race([resolveChecked(url, this.options.allowPrivateUrls), slow]);
      } finally {
        clearTimeout(timer);
      }
      return url.href;
    } catch (error) {
      if (error instanceof RefusedUrl) throw badRequest(`Invalid webhook URL: ${error.message}`);
      throw error;
    }
  }

  async create(
    uid: string,
    input: { kind: AlertKind; threshold?: string | null; stepPercent?: string | null; webhookUrl: string },
  ): Promise<{ rule: AlertRule; secret: string }> {
    const threshold = thresholdUnits(input.threshold);
    const stepPercent = stepHundredths(input.stepPercent);
    const webhookUrl = await this.checkUrl(input.webhookUrl);
    const startBlock = await this.startBlock();
    const secret = newSecret();
    const row = await this.db.transaction(async (tx) => {
      await tx.execute(xactLock("alertRules"));
      const [{ rules }] = await tx.select({ rules: count() }).from(alertRules);
      if (rules >= this.options.maxRules) {
        throw conflict(`There are already ${rules} alert rules, as many as this server keeps (ALERT_MAX_RULES): delete one first.`);
      }
      const [inserted] = await tx
        .insert(alertRules)
        .values({ kind: input.kind, threshold, stepPercent, webhookUrl, secret, startBlock, createdBy: uid })
        .returning();
      return inserted;
    });
    return { rule: toRule(row), secret };
  }

  /**
   * Off: its waiting deliveries are cancelled. On again: it alerts on blocks from now, not on what
   * happened while it was off.
   */
  async setEnabled(id: number, enabled: boolean): Promise<AlertRule> {
    const current = await this.get(id);
    if (current.enabled === enabled) return toRule(current);
    const startBlock = enabled ? await this.startBlock() : current.startBlock;
    const row = await this.db.transaction(async (tx) => {
      const [updated] = await tx
        .update(alertRules)
        .set({ enabled, startBlock, updatedAt: new Date() })
        .where(eq(alertRules.id, id))
        .returning();
      if (!updated) throw notFound(NOT_FOUND);
      if (!enabled) {
        await tx
          .update(alertDeliveries)
          .set({ status: "cancelled", nextAttemptAt: null, note: CANCELLED.disabled })
          .where(and(eq(alertDeliveries.ruleId, id), eq(alertDeliveries.status, "pending")));
      }
      return updated;
    });
    return toRule(row);
  }

  /** Deletes the rule and its deliveries and attempts (the log goes with it). */
  async remove(id: number): Promise<void> {
    const deleted = await this.db.delete(alertRules).where(eq(alertRules.id, id)).returning({ id: alertRules.id });
    if (deleted.length === 0) throw notFound(NOT_FOUND);
  }

  /** A new secret: the next attempt of every delivery is signed with it. */
  async rotate(id: number): Promise<{ rule: AlertRule; secret: string }> {
    const secret = newSecret();
    const [row] = await this.db.update(alertRules).set({ secret, updatedAt: new Date() }).where(eq(alertRules.id, id)).returning();
    if (!row) throw notFound(NOT_FOUND);
    return { rule: toRule(row), secret };
  }

  /** Where a rule made now starts: the chain's head, or the index's checkpoint when the node does not answer. */
  private async startBlock(): Promise<number> {
    const head = await this.head();
    if (head !== null) return head;
    const [index] = await this.db.select({ checkpoint: indexerState.checkpointBlock }).from(indexerState);
    // Neither says where the chain is: starting from 0 would replay the whole history as alerts.
    if (!index)
      throw unavailable("Cannot save the rule now: the chain's node is not answering and the index is empty. Try again in a moment.");
    return index.checkpoint;
  }
}
