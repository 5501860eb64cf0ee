import { and, asc, count, eq, gt, min } from "drizzle-orm";
import type { Chain } from "../../chain/client";
import type { Config } from "../../config";
import type { Database } from "../../db/client";
import { batchJobs } from "../../db/schema";
import { badRequest, tooMany } from "../../lib/errors";
import { exactTokenAmount } from "@common/amounts";
import { parseAddress } from "@common/addresses";
import type { Api } from "@common/api";
import type { InputOf } from "@common/api/endpoint";
import type { Recipient } from "@common/recipients";
import { duration, utcTime } from "../../lib/timeWords";
import { fromChain } from "../indexing/tokenState";
import { count as grouped, plural } from "@common/wording";

/*
 * What a new batch must pass before anything is stored, beyond its declaration (which checks every
 * recipient's address and amount: common/api/batchInput.ts): the server's row limit, the user's limits
 * on batches in progress and recipients a day, and a paying wallet that can pay. Each refusal is the
 * sentence the person reads.
 */

/** The per-user limits a new batch is held to. */
export type Limits = Pick<Config["limits"], "openBatchJobs" | "batchRowsPerDay">;

/** A batch to start, as its declaration hands it over: every recipient checked (common/api/batchInput.ts). */
export type ExecuteRequest = InputOf<Api["POST /api/batch/execute"]>["body"];

const DAY_MS = 24 * 3_600_000;

/** At most `maxRows` recipients (BATCH_MAX_ROWS, a setting, so the declaration cannot state it). */
export function checkBatchSize(recipients: Recipient[], maxRows: number): void {
  if (recipients.length > maxRows) {
    throw badRequest(`The batch has ${grouped(recipients.length)} recipients; at most ${grouped(maxRows)} can be paid in one batch.`);
  }
}

/**
 * A user may have `openBatchJobs` jobs in progress and start jobs for `batchRowsPerDay` recipients
 * in any 24 hours; past either the answer is a 429 that says the limit and when it frees up.
 */
export async function checkBatchLimits(db: Database, uid: string, rows: number, limits: Limits, submitWindowMs: number): Promise<void> {
  const [open] = await db
    .select({ jobs: count(), oldest: min(batchJobs.createdAt) })
    .from(batchJobs)
    .where(and(eq(batchJobs.uid, uid), eq(batchJobs.status, "processing")));
  if (open.jobs >= limits.openBatchJobs) {
    const oldest = open.oldest ? new Date(open.oldest) : new Date();
    throw tooMany(
      `You have ${plural(open.jobs, "batch payment")} in progress, the most allowed at once is ${grouped(limits.openBatchJobs)}: ` +
        `start this one when one of them completes or fails. A batch not fully sent fails ${duration(submitWindowMs)} after it started ` +
        `(your oldest in progress started at ${utcTime(oldest)}).`,
    );
  }
  const now = Date.now();
  const recent = await db
    .select({ recipients: batchJobs.recipientCount, createdAt: batchJobs.createdAt })
    .from(batchJobs)
    .where(and(eq(batchJobs.uid, uid), gt(batchJobs.createdAt, new Date(now - DAY_MS))))
    .orderBy(asc(batchJobs.createdAt));
  const used = recent.reduce((sum, job) => sum + job.recipients, 0);
  const limit = limits.batchRowsPerDay;
  if (used + rows <= limit) return;
  if (rows > limit) {
    throw tooMany(
      `This batch has ${grouped(rows)} recipients; at most ${grouped(limit)} can be paid in 24 hours, so split it into smaller batches.`,
    );
  }
  // It fits once enough of the last 24 hours' recipients are more than 24 hours old.
  let left = used;
  let freeAt = new Date(now + DAY_MS);
  for (const job of recent) {
    left -= job.recipients;
    if (left + rows <= limit) {
      freeAt = new Date(job.createdAt.getTime() + DAY_MS);
      break;
    }
  }
  throw tooMany(
    `Daily limit reached: you started batches for ${grouped(used)} recipients in the last 24 hours and at most ${grouped(limit)} are allowed in 24 hours, ` +
      `so this batch of ${grouped(rows)} cannot start before ${utcTime(freeAt)}.`,
  );
}

/**
 * The paying wallet, when known, must be able to pay: not blocked, the token not paused, and a
 * balance that covers the total. These are checked again by the chain; asking first saves the
 * person a signature that can only fail.
 */
export async function checkPayer(chain: Chain, input: string | undefined, recipients: Recipient[]): Promise<string | null> {
  if (input === undefined) return null;
  // The declaration checked a payer given; the sign-in's wallet is one.
  const payer = parseAddress(input);
  const total = recipients.reduce((sum, r) => sum + r.amountRaw, 0n);
  const { usdx } = chain;
  const [balance, blocked, paused] = await fromChain("the payer's balance", () =>
    Promise.all([usdx.balanceOf(payer), usdx.isBlocked(payer), usdx.paused()]),
  );
  if (paused) throw badRequest("USDX is paused: no payment can be made until it is unpaused.");
  if (blocked) throw badRequest(`The paying wallet ${payer} is blocked: it cannot send USDX.`);
  if (balance < total) {
    throw badRequest(
      `Insufficient balance: ${payer} holds ${exactTokenAmount(balance)} USDX and this batch needs ${exactTokenAmount(total)} USDX.`,
    );
  }
  return payer;
}
