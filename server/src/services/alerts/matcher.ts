import { randomUUID } from "node:crypto";
import { and, asc, desc, eq, gt, inArray, lt, ne, or, sql, type SQL } from "drizzle-orm";
import { ZeroAddress } from "ethers";
import { ALERT_KIND_INFO, type AlertKind } from "@common/alerts";
import { MULTIPLIER_BASE } from "@common/token";
import type { Database } from "../../db/client";
import { alertDeliveries, alertRules, alertState, chainEvents, indexerState } from "../../db/schema";
import type { Logger } from "../../lib/logger";
import { eventPayload } from "./payload";

type EventRow = typeof chainEvents.$inferSelect;
type Rule = typeof alertRules.$inferSelect;

/** Events read from the index per step; more wait for the next step. */
export const EVENTS_PER_STEP = 500;
const STATE_ID = "alerts";
/** The indexer's own state row (services/indexing/indexer.ts). */
const INDEX_STATE_ID = "usdx";
const ZERO = ZeroAddress.toLowerCase();

/** Where the matcher is: after this event (its hash tells whether the index still holds it). */
interface Cursor {
  block: number;
  log: number;
  hash: string;
}

/**
 * Turns indexed events into deliveries. Each step reads, in index order, the events past its cursor
 * that some enabled rule watches and that the index holds at least `confirmations` blocks below its
 * checkpoint, in one statement, so the depth and the events come from one snapshot of the index (a
 * rewind moves the checkpoint and deletes the events in one transaction). Each event is given one
 * delivery per matching rule made before its block (insert ... on conflict do nothing on the rule
 * and the event: the same event read twice, after a restart or by an overlapping leader, is one
 * delivery), and the cursor moves in the same transaction, so a restart carries on from it.
 */
export class AlertMatcher {
  constructor(
    private readonly db: Database,
    private readonly chainId: number,
    private readonly confirmations: number,
    private readonly log: Logger,
  ) {}

  /** One step; the number of deliveries made. */
  async step(): Promise<number> {
    const [index] = await this.db.select().from(indexerState).where(eq(indexerState.id, INDEX_STATE_ID));
    if (!index) return 0;
    let cursor = await this.loadCursor(index);
    // 'safe' rules watch no indexed event: their deliveries are made where proposals are stored (safeEvents.ts).
    const rules = await this.db
      .select()
      .from(alertRules)
      .where(and(eq(alertRules.enabled, true), ne(alertRules.kind, "safe")));
    if (rules.length === 0) return 0;
    cursor = await this.checkCursor(cursor);

    const kinds = new Set(rules.map((r) => r.kind as AlertKind));
    const minStart = Math.min(...rules.map((r) => r.startBlock));
    const deep = sql`${chainEvents.blockNumber} <= (select ${indexerState.checkpointBlock} from ${indexerState} where ${indexerState.id} = ${INDEX_STATE_ID}) - ${this.confirmations}`;
    const events = await this.db
      .select()
      .from(chainEvents)
      .where(
        and(
          eq(chainEvents.contract, "USDX"),
          watched(kinds),
          gt(chainEvents.blockNumber, minStart),
          cursor ? after(cursor) : undefined,
          deep,
        ),
      )
      .orderBy(asc(chainEvents.blockNumber), asc(chainEvents.logIndex))
      .limit(EVENTS_PER_STEP);
    if (events.length === 0) return 0;

    let previousMultiplier: bigint | null = null;
    const rows: (typeof alertDeliveries.$inferInsert)[] = [];
    for (const event of events) {
      let before: bigint | null = null;
      if (event.eventName === "RewardMultiplier") {
        before = previousMultiplier ?? (await this.multiplierBefore(event));
        previousMultiplier = BigInt(String(event.args.value));
      }
      for (const rule of rules) {
        if (rule.startBlock >= event.blockNumber || !matches(rule, event, before)) continue;
        const publicId = randomUUID();
        rows.push({
          publicId,
          ruleId: rule.id,
          blockNumber: event.blockNumber,
          logIndex: event.logIndex,
          blockHash: event.blockHash,
          payload: eventPayload({ id: rule.id, kind: rule.kind as AlertKind }, event, this.chainId, publicId, before),
          status: "pending",
          nextAttemptAt: new Date(),
        });
      }
    }
    const last = events[events.length - 1];
    const made = await this.db.transaction(async (tx) => {
      const inserted =
        rows.length > 0 ? await tx.insert(alertDeliveries).values(rows).onConflictDoNothing().returning({ id: alertDeliveries.id }) : [];
      await tx
        .update(alertState)
        .set({ cursorBlock: last.blockNumber, cursorLog: last.logIndex, cursorHash: last.blockHash, updatedAt: new Date() })
        .where(eq(alertState.id, STATE_ID));
      return inserted.length;
    });
    if (made > 0) this.log.info({ deliveries: made, through: last.blockNumber }, "alert deliveries made");
    return made;
  }

  /**
   * The stored cursor. A new deployment (the index started over) starts it over too, and every rule
   * from the index's checkpoint, so the new chain's history is not replayed as alerts.
   */
  private async loadCursor(index: typeof indexerState.$inferSelect): Promise<Cursor | null> {
    const [state] = await this.db.select().from(alertState).where(eq(alertState.id, STATE_ID));
    if (!state) {
      await this.db.insert(alertState).values({ id: STATE_ID, deploymentBlockHash: index.deploymentBlockHash }).onConflictDoNothing();
      return null;
    }
    if (state.deploymentBlockHash !== index.deploymentBlockHash) {
      await this.db.transaction(async (tx) => {
        await tx
          .update(alertState)
          .set({
            cursorBlock: null,
            cursorLog: null,
            cursorHash: null,
            deploymentBlockHash: index.deploymentBlockHash,
            updatedAt: new Date(),
          })
          .where(eq(alertState.id, STATE_ID));
        await tx.update(alertRules).set({ startBlock: index.checkpointBlock });
      });
      this.log.info({ checkpoint: index.checkpointBlock }, "a new deployment: alert rules start from the index's checkpoint");
      return null;
    }
    return state.cursorBlock !== null && state.cursorLog !== null && state.cursorHash !== null
      ? { block: state.cursorBlock, log: state.cursorLog, hash: state.cursorHash }
      : null;
  }

  /**
   * A cursor whose event the index no longer holds with that hash was rewound past (a
   * reorganisation deeper than the confirmations): the matcher starts again from the rules' start
   * blocks. Not from the newest event still held before the cursor: by the time the matcher looks,
   * the index may already hold the new fork's events there, never matched, which the cursor would
   * then step over. Events read again that were delivered keep their delivery (the unique key on
   * rule and event, hash included); the new fork's events are new keys and are matched.
   */
  private async checkCursor(cursor: Cursor | null): Promise<Cursor | null> {
    if (!cursor) return null;
    const [still] = await this.db
      .select({ hash: chainEvents.blockHash })
      .from(chainEvents)
      .where(and(eq(chainEvents.blockNumber, cursor.block), eq(chainEvents.logIndex, cursor.log)));
    if (still?.hash === cursor.hash) return cursor;
    this.log.warn({ block: cursor.block }, "the index was rewound past the alert cursor: matching again from the rules' start");
    await this.db
      .update(alertState)
      .set({ cursorBlock: null, cursorLog: null, cursorHash: null, updatedAt: new Date() })
      .where(eq(alertState.id, STATE_ID));
    return null;
  }

  /** The multiplier before `event`: the index's previous RewardMultiplier, else the initial 1.0. */
  private async multiplierBefore(event: EventRow): Promise<bigint> {
    const [previous] = await this.db
      .select({ args: chainEvents.args })
      .from(chainEvents)
      .where(
        and(
          eq(chainEvents.eventName, "RewardMultiplier"),
          or(
            lt(chainEvents.blockNumber, event.blockNumber),
            and(eq(chainEvents.blockNumber, event.blockNumber), lt(chainEvents.logIndex, event.logIndex)),
          ),
        ),
      )
      .orderBy(desc(chainEvents.blockNumber), desc(chainEvents.logIndex))
      .limit(1);
    return previous ? BigInt(String(previous.args.value)) : MULTIPLIER_BASE;
  }
}

/** Events past the cursor, in index order. */
function after(cursor: Cursor): SQL | undefined {
  return or(
    gt(chainEvents.blockNumber, cursor.block),
    and(eq(chainEvents.blockNumber, cursor.block), gt(chainEvents.logIndex, cursor.log)),
  );
}

/** The events the enabled rules' kinds watch: mints and burns by the zero address (the lookup columns' indexes), the rest by name. */
function watched(kinds: Set<AlertKind>): SQL | undefined {
  const names = [...kinds].filter((k) => k !== "mint" && k !== "burn").flatMap((k) => ALERT_KIND_INFO[k].events);
  const parts: (SQL | undefined)[] = [];
  if (names.length > 0) parts.push(inArray(chainEvents.eventName, names));
  if (kinds.has("mint")) parts.push(and(eq(chainEvents.eventName, "Transfer"), eq(chainEvents.fromAddress, ZERO)));
  if (kinds.has("burn")) parts.push(and(eq(chainEvents.eventName, "Transfer"), eq(chainEvents.toAddress, ZERO)));
  return or(...parts);
}

/** Whether `rule` alerts on `event`; `before` is the multiplier before a RewardMultiplier event. */
export function matches(
  rule: Pick<Rule, "kind" | "threshold" | "stepPercent">,
  event: Pick<EventRow, "eventName" | "args">,
  before: bigint | null,
): boolean {
  const kind = rule.kind as AlertKind;
  if (!ALERT_KIND_INFO[kind]?.events.includes(event.eventName)) return false;
  const threshold = rule.threshold === null ? null : BigInt(rule.threshold);
  switch (kind) {
    case "mint":
    case "burn": {
      const side = kind === "mint" ? event.args.from : event.args.to;
      if (String(side).toLowerCase() !== ZERO) return false;
      return threshold === null || BigInt(String(event.args.value)) > threshold;
    }
    case "multiplier": {
      if (before === null) return true;
      const now = BigInt(String(event.args.value));
      const change = now > before ? now - before : before - now;
      if (threshold !== null && change <= threshold) return false;
      // A percentage of every balance: change / before > stepPercent / 10^4 (hundredths of a percent), in integers.
      if (rule.stepPercent !== null && change * 10_000n <= before * BigInt(rule.stepPercent)) return false;
      return true;
    }
    default:
      return true;
  }
}
