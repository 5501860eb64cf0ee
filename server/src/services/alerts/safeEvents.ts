import { randomUUID } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import type { SafeAlertStep } from "@common/alerts";
import { shortAddress } from "@common/wording";
import type { Database } from "../../db/client";
import { alertDeliveries, alertRules, safeApprovals, type safeProposals } from "../../db/schema";
import type { Logger } from "../../lib/logger";

type ProposalRow = typeof safeProposals.$inferSelect;
/** The database or a transaction: each step's deliveries are made in the transaction that stores the step. */
type Writer = Pick<Database, "select" | "insert">;

/** The Safe as the step saw it (services/safes/reader.ts's SafeState, the fields a delivery says). */
export interface SafeSeen {
  address: string;
  name: string;
  owners: string[];
  threshold: number;
}

/** A proposal the Safe's nonce passed: executed (its call succeeded) or failed (the call reverted). */
export interface ProposalEnd {
  row: ProposalRow;
  state: "executed" | "failed";
  executedTx: string;
}

/**
 * Deliveries for 'safe' rules: a Safe proposal created, approved by an owner, or executed. These
 * are steps the server stores (services/safes/), not events in the index, so the matcher never sees
 * them: each is made here, in the transaction that stores the step, one per enabled 'safe' rule,
 * and keyed `safe:<safeTxHash>:<step>` (`:approved:<owner>`) unique per rule. A request retried, a
 * replica reconciling at once, a server restarted: the same step is the same key, so one delivery.
 * The deliverer sends them like any other (retries, signatures); it skips the index check, since
 * there is no indexed event to check.
 *
 * A rule alerts on the steps stored while it is on: turned on later, it does not replay earlier ones.
 */
export class SafeAlerts {
  constructor(
    private readonly chainId: number,
    private readonly log: Logger,
  ) {}

  /** A proposal stored, with its proposer's signature as the first approval. */
  proposed(db: Writer, safe: SafeSeen, row: ProposalRow): Promise<void> {
    return this.make(db, safe, [{ row, step: "created", key: "created", by: row.proposer, tx: null, failed: false }]);
  }

  /** An owner's approval stored. */
  approved(db: Writer, safe: SafeSeen, row: ProposalRow, owner: string): Promise<void> {
    return this.make(db, safe, [{ row, step: "approved", key: `approved:${owner.toLowerCase()}`, by: owner, tx: null, failed: false }]);
  }

  /** Proposals reconcile found executed (or failed); a replaced one is not a step a rule alerts on. */
  ended(db: Writer, safe: SafeSeen, ends: ProposalEnd[]): Promise<void> {
    return this.make(
      db,
      safe,
      ends.map((end) => ({
        row: end.row,
        step: "executed",
        key: "executed",
        by: null,
        tx: end.executedTx,
        failed: end.state === "failed",
      })),
    );
  }

  private async make(db: Writer, safe: SafeSeen, steps: Step[]): Promise<void> {
    if (steps.length === 0) return;
    const rules = await db
      .select({ id: alertRules.id })
      .from(alertRules)
      .where(and(eq(alertRules.kind, "safe"), eq(alertRules.enabled, true)));
    if (rules.length === 0) return;
    const approvals = await db
      .select({ safeTxHash: safeApprovals.safeTxHash, owner: safeApprovals.owner })
      .from(safeApprovals)
      .where(
        inArray(
          safeApprovals.safeTxHash,
          steps.map((s) => s.row.safeTxHash),
        ),
      );
    const owners = new Set(safe.owners);
    const rows: (typeof alertDeliveries.$inferInsert)[] = [];
    for (const step of steps) {
      // Counted as the Approvals screen counts: approvals by owners at the block the step was read at.
      const confirmations = approvals.filter((a) => a.safeTxHash === step.row.safeTxHash && owners.has(a.owner)).length;
      for (const rule of rules) {
        const publicId = randomUUID();
        rows.push({
          publicId,
          ruleId: rule.id,
          eventKey: `safe:${step.row.safeTxHash}:${step.key}`,
          payload: safePayload(rule.id, safe, step, confirmations, this.chainId, publicId),
          status: "pending",
          nextAttemptAt: new Date(),
        });
      }
    }
    const made = await db.insert(alertDeliveries).values(rows).onConflictDoNothing().returning({ id: alertDeliveries.id });
    if (made.length > 0) this.log.info({ deliveries: made.length, safe: safe.address }, "Safe proposal alert deliveries made");
  }
}

interface Step {
  row: ProposalRow;
  step: SafeAlertStep;
  key: string;
  /** Who acted: the proposer, the approving owner; null for an execution (the log does not say who sent it). */
  by: string | null;
  tx: string | null;
  failed: boolean;
}

/**
 * The body a receiver gets for a step (sentAt is added per attempt): `event` is null (no indexed
 * event), `proposal` says what happened, and `summary` says it in one sentence.
 */
function safePayload(ruleId: number, safe: SafeSeen, step: Step, confirmations: number, chainId: number, deliveryId: string) {
  const { row } = step;
  return {
    test: false,
    rule: { id: ruleId, kind: "safe" },
    event: null,
    proposal: {
      step: step.step,
      callFailed: step.step === "executed" ? step.failed : null,
      safe: { address: safe.address, name: safe.name },
      safeTxHash: row.safeTxHash,
      nonce: row.nonce,
      description: row.description,
      proposer: row.proposer,
      by: step.by,
      confirmations,
      threshold: safe.threshold,
      transactionHash: step.tx,
    },
    summary: safeSummary(safe, step, confirmations),
    chainId,
    deliveryId,
  };
}

/** One sentence a chat channel can show as it is. */
export function safeSummary(safe: SafeSeen, step: Pick<Step, "row" | "step" | "by" | "tx" | "failed">, confirmations: number): string {
  const named = safe.name !== shortAddress(safe.address) ? `${safe.name} (${safe.address})` : safe.address;
  const what = `'${step.row.description}' at nonce ${step.row.nonce}`;
  const count = `${confirmations} of ${safe.threshold} approvals`;
  switch (step.step) {
    case "created":
      return `${step.by} proposed ${what} to ${named}: ${count}.`;
    case "approved":
      return `${step.by} approved ${what} on ${named}: ${count}.`;
    case "executed":
      return step.failed
        ? `${named} executed ${what} in transaction ${step.tx}, but the call failed: the nonce is used and nothing changed.`
        : `${named} executed ${what} in transaction ${step.tx}.`;
  }
}
