import { and, asc, count, eq, gt, min } from "drizzle-orm";
import type { Chain } from "../../chain/client";
import type { Config } from "../../config";
import type { Database } from "../../db/client";
import { batchJobs } from "../../db/schema";
import { badRequest, tooMany } from "../../lib/errors";
import { MAX_UINT256 } from "@common/token";
import { exactTokenAmount } from "@common/amounts";
import { parseAddress } from "@common/addresses";
import type { Api } from "@common/api";
import type { InputOf } from "@common/api/endpoint";
import { checkRecipient, Recipient } from "./recipients";
import { duration, utcTime } from "../../lib/timeWords";
import { fromChain } from "../indexing/tokenState";
import { count as grouped, plural } from "@common/wording";

/*
 * What a new batch must pass before anything is stored (BatchService.create asks each): every
 * recipient's address and amount, the user's limits on batches in progress and recipients a day,
 * and a paying wallet that can pay. Each refusal is the sentence the person reads.
 */

/** The per-user limits a new batch is held to. */
export type Limits = Pick<Config["limits"], "openBatchJobs" | "batchRowsPerDay">;

/** What the dashboard sends to start a batch: each recipient with its own amount, or the spec's one amount for all. */
export type ExecuteRequest = InputOf<Api["POST /api/batch/execute"]>["body"];

const DAY_MS = 24 * 3_600_000;

/** Every recipient checked (the spec's one amount for all spread first); all of them, or a 400 naming the first five wrong ones. */
export function checkRecipients(request: ExecuteRequest, maxRows: number): Recipient[] {
  const items =
    "amount" in request && typeof request.amount === "string"
      ? (request.recipients as string[]).map((address) => ({ address, amount: request.amount as string }))
      : (request.recipients as { name?: string; address: string; amount: string }[]);
  if (items.length === 0) throw badRequest("No valid recipients found: the batch has no recipients.");
  if (items.length > maxRows) {
    throw badRequest(`The batch has ${grouped(items.length)} recipients; at most ${grouped(maxRows)} can be paid in one batch.`);
  }
  const recipients: Recipient[] = [];
  const problems: string[] = [];
  items.forEach((item, i) => {
    const check = checkRecipient(item);
    if (check.ok) recipients.push(check.recipient);
    else problems.push(...check.problems.map((p) => `recipient ${i + 1}: ${p.reason} (${p.detail.replace(/\.$/, "")})`));
  });
  if (problems.length > 0) {
    const shown = problems.slice(0, 5).join("; ");
    throw badRequest(
      `The batch has invalid recipients, so nothing was started: ${shown}${problems.length > 5 ? `; and ${problems.length - 5} more` : ""}.`,
    );
  }
  // Each amount fits a uint256; their sum must too, or no chunk's transfers could ever be paid.
  const total = recipients.reduce((sum, r) => sum + r.amountRaw, 0n);
  if (total > MAX_UINT256)
    throw badRequest("The batch's total is larger than any USDX amount can be (2^256 - 1 base units), so nothing was started.");
  return recipients;
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
  let payer: string;
  try {
    payer = parseAddress(input);
  } catch (error) {
    throw badRequest(`payer: ${(error as Error).message}.`);
  }
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
