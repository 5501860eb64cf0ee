import { randomUUID } from "node:crypto";
import { id as keccakText } from "ethers";
import { and, asc, desc, eq, inArray, lt, sql } from "drizzle-orm";
import type { Chain } from "../../chain/client";
import type { Config } from "../../config";
import type { Database } from "../../db/client";
import { xactLock } from "../../db/locks";
import { batchChunks, batchJobs, batchRecipients, safeProposals } from "../../db/schema";
import { badRequest, conflict, notFound } from "../../lib/errors";
import type { SessionUser } from "../auth/firebaseAuth";
import { checkBatchLimits, checkBatchSize, checkPayer, type ExecuteRequest, type Limits } from "./checks";
import { exactTokenAmount } from "@common/amounts";
import { maxRecipientsPerSafeChunk } from "@common/gasLimits";
import { multiSendCallOnlyOf } from "@common/safeDeployments";
import { duration } from "../../lib/timeWords";
import { Doorbell } from "../../lib/doorbell";
import { parseRecipientsCsv } from "./recipients";
import type { Api } from "@common/api";
import type { AnswerOf } from "@common/api/endpoint";
import type { ChunkDetail, ChunkPlan, ChunkStatus, JobStatus, JobSummary, ParsedRecipients, RecipientStatus } from "@common/apiTypes";

/** GET /api/batch/:id's answer without its envelope: the job, its chunks and a page of its recipients. */
type JobDetailAnswer = Omit<AnswerOf<Api["GET /api/batch/:id"]>, "success">;

/** Chunk statuses a chunk can still leave: not confirmed, not closed. */
export const OPEN_CHUNK_STATUSES = ["pending", "submitted", "failed"] as const;

// Rows per INSERT: 10,000 recipients in a few statements, far below Postgres' 65,535 parameters.
const INSERT_BATCH = 2000;

// Every open Payments screen asks for its job every 3 s: answers are kept (this many at most) while
// the job's rows are unchanged (see detail).
const DETAIL_CACHE_ENTRIES = 1000;

/** The bytes32 a chunk's payment carries: unique to the job and the chunk, and meaningless to anyone else. */
export function chunkReference(jobId: string, index: number): string {
  return keccakText(`usdx-batch:${jobId}:${index}`);
}

/**
 * Batch payment jobs: validates and plans them, records the chunk transactions the dashboard
 * reports, and answers for them. The BatchWatcher follows the chain and moves their statuses.
 */
export class BatchService {
  private details = new Map<string, { rowVersions: string; value: Promise<JobDetailAnswer> }>();
  /** A job's row stamps (see detail), prepared once: every status poll runs it. */
  private readonly rowVersionsQuery;

  constructor(
    private readonly db: Database,
    private readonly chain: Chain,
    private readonly options: Config["batch"],
    /** Each user's limits on batches in progress and recipients a day. */
    private readonly limits: Limits,
    /** Rung when a chunk's transaction is reported: the watcher then looks at the chain now rather than at its next tick. */
    private readonly chunkReported: Doorbell = new Doorbell(),
    /** Whether an address is a Safe (its chunks are then paid by Safe proposals, and smaller). */
    private readonly isSafe: (address: string) => Promise<boolean> = async () => false,
  ) {
    this.rowVersionsQuery = db
      .select({
        rowVersions: sql<string>`${batchJobs}.xmin::text || ':' || coalesce((select string_agg(${batchChunks}.xmin::text, ',' order by ${batchChunks.index}) from ${batchChunks} where ${batchChunks.jobId} = ${batchJobs.id}), '') || ':' || coalesce((select string_agg(${safeProposals}.xmin::text, ',' order by ${safeProposals.safeTxHash}) from ${safeProposals} where ${safeProposals.batchJobId} = ${batchJobs.id}), '')`,
      })
      .from(batchJobs)
      .where(and(eq(batchJobs.id, sql.placeholder("jobId")), eq(batchJobs.uid, sql.placeholder("uid"))))
      .prepare("usdx_job_row_versions");
  }

  /** POST /api/batch/parse-csv: a CSV's recipients checked, as many rows as one job may hold. */
  parseCsv(csvData: string): ParsedRecipients {
    return parseRecipientsCsv(csvData, this.options.maxRows);
  }

  /**
   * Checks every recipient, the user's limits (jobs in progress, recipients a day) and the payer,
   * plans the chunks and stores the job.
   */
  async create(
    user: SessionUser,
    request: ExecuteRequest,
  ): Promise<{ job: JobSummary; chunks: ChunkPlan[]; multiSendCallOnly: string | null }> {
    const { recipients } = request;
    checkBatchSize(recipients, this.options.maxRows);
    // Asked before the chain is, and again below under the user's lock (two requests at once).
    await checkBatchLimits(this.db, user.uid, recipients.length, this.limits, this.options.submitWindowMs);
    const payer = await checkPayer(this.chain, request.payer ?? user.wallet ?? undefined, recipients);
    // A Safe pays each chunk through a proposal (MultiSendCallOnly's approve and pay), which costs
    // more gas than the chunk alone: its chunks are smaller, to stay under the transaction cap.
    const payerIsSafe = payer !== null && (await this.isSafe(payer));
    const multiSendCallOnly = payerIsSafe ? multiSendCallOnlyOf(this.chain.manifest) : null;
    if (payerIsSafe && !multiSendCallOnly)
      throw badRequest(`${payer} is a Safe, and no MultiSendCallOnly is known on this chain for a Safe to pay a batch through.`);
    const chunkSize = payerIsSafe ? Math.min(this.options.chunkSize, maxRecipientsPerSafeChunk()) : this.options.chunkSize;
    const jobId = randomUUID();
    const chunks: ChunkPlan[] = [];
    for (let start = 0, index = 0; start < recipients.length; start += chunkSize, index++) {
      const part = recipients.slice(start, start + chunkSize);
      chunks.push({
        index,
        recipients: part.map((r) => r.address),
        amounts: part.map((r) => r.amountRaw.toString()),
        total: part.reduce((sum, r) => sum + r.amountRaw, 0n).toString(),
        reference: chunkReference(jobId, index),
      });
    }
    const total = recipients.reduce((sum, r) => sum + r.amountRaw, 0n);
    await this.db.transaction(async (tx) => {
      // One job at a time per user: the limits below count what is stored.
      await tx.execute(xactLock("batchJobs", user.uid));
      await checkBatchLimits(tx as unknown as Database, user.uid, recipients.length, this.limits, this.options.submitWindowMs);
      await tx.insert(batchJobs).values({
        id: jobId,
        uid: user.uid,
        payer,
        payerIsSafe,
        status: "processing",
        recipientCount: recipients.length,
        totalAmount: total.toString(),
        chunkCount: chunks.length,
      });
      await tx.insert(batchChunks).values(
        chunks.map((c) => ({
          jobId,
          index: c.index,
          reference: c.reference,
          recipientCount: c.recipients.length,
          totalAmount: c.total,
          status: "pending",
        })),
      );
      const rows = recipients.map((r, position) => ({
        jobId,
        position,
        chunkIndex: Math.floor(position / chunkSize),
        name: r.name,
        address: r.address,
        amount: r.amountRaw.toString(),
        status: "pending",
      }));
      for (let i = 0; i < rows.length; i += INSERT_BATCH) await tx.insert(batchRecipients).values(rows.slice(i, i + INSERT_BATCH));
    });
    return { job: await this.summary(user, jobId), chunks, multiSendCallOnly };
  }

  /**
   * Records the transaction the dashboard sent for a chunk; the watcher confirms it. A closed chunk
   * (its job failed and its submit window is over) takes no more reports.
   */
  async recordTransaction(user: SessionUser, jobId: string, chunkIndex: number, txHash: string): Promise<ChunkDetail> {
    const hash = txHash.toLowerCase();
    const job = await this.ownJob(user, jobId);
    const [chunk] = await this.db
      .select()
      .from(batchChunks)
      .where(and(eq(batchChunks.jobId, jobId), eq(batchChunks.index, chunkIndex)));
    if (!chunk) throw badRequest(`This job has no chunk ${chunkIndex}: its chunks are numbered from 0.`);
    if (chunk.status === "confirmed") {
      if (chunk.txHash === hash) return toChunkDetail(chunk);
      throw conflict(`Chunk ${chunkIndex} is already paid, by transaction ${chunk.txHash}: it is not paid again.`);
    }
    const closed = () =>
      conflict(
        `Chunk ${chunkIndex} is closed: this batch failed and was not completed within ${duration(this.options.submitWindowMs)} of starting, ` +
          "so its transactions are no longer followed (a payment of it from the batch's wallet is still recognised on the chain). Start a new batch for the recipients not paid.",
      );
    if (chunk.status === "closed" || (job.status === "failed" && Date.now() - job.createdAt.getTime() > this.options.submitWindowMs))
      throw closed();
    // A pending chunk gets its transaction; a submitted one may be replaced (a wallet's speed-up
    // sends a new hash); a failed one may be tried again.
    const [updated] = await this.db
      .update(batchChunks)
      .set({ status: "submitted", txHash: hash, submittedAt: new Date(), error: null })
      .where(and(eq(batchChunks.jobId, jobId), eq(batchChunks.index, chunkIndex), inArray(batchChunks.status, [...OPEN_CHUNK_STATUSES])))
      .returning();
    if (!updated) {
      // The watcher confirmed or closed it meanwhile.
      const [now] = await this.db
        .select()
        .from(batchChunks)
        .where(and(eq(batchChunks.jobId, jobId), eq(batchChunks.index, chunkIndex)));
      if (now?.status === "confirmed" && now.txHash === hash) return toChunkDetail(now);
      if (now?.status === "confirmed")
        throw conflict(`Chunk ${chunkIndex} is already paid, by transaction ${now.txHash}: it is not paid again.`);
      throw closed();
    }
    await this.refreshJob(jobId);
    this.chunkReported.ring();
    return toChunkDetail(updated);
  }

  /** The user's newest job, or null when they have none. */
  async latest(user: SessionUser): Promise<JobSummary | null> {
    const [job] = await this.db
      .select({ id: batchJobs.id })
      .from(batchJobs)
      .where(eq(batchJobs.uid, user.uid))
      .orderBy(desc(batchJobs.createdAt))
      .limit(1);
    return job ? this.summary(user, job.id) : null;
  }

  /** The user's jobs, newest first; `before` is the createdAt of the previous page's last job. */
  async list(user: SessionUser, limit: number, before?: Date): Promise<JobSummary[]> {
    const jobs = await this.db
      .select({ id: batchJobs.id })
      .from(batchJobs)
      .where(and(eq(batchJobs.uid, user.uid), before ? lt(batchJobs.createdAt, before) : undefined))
      .orderBy(desc(batchJobs.createdAt))
      .limit(limit);
    return Promise.all(jobs.map((job) => this.summary(user, job.id)));
  }

  /**
   * One job with its chunks and a page of its recipients (the Payments screen's status poll).
   *
   * An answer is kept while the job's rows are as they were. Any replica may change a job (a report
   * comes in through one, the leader's watcher confirms its chunks, a rewind reopens them), so the
   * kept answer is checked against the database at each poll, not against this process's memory:
   * PostgreSQL stamps every row version with the transaction that wrote it (the system column
   * `xmin`), every change to a job writes its row or one of its chunks' rows, and a recipient
   * changes only with its chunk, in one transaction. One indexed query of those stamps (job and
   * chunks) costs a fraction of the five that build the answer, and no writer has to remember to
   * say it changed something. The stamps are read before the answer, so a change committed in
   * between is at worst answered early, never missed.
   */
  async detail(user: SessionUser, jobId: string, offset: number, limit: number): Promise<JobDetailAnswer> {
    const [stamp] = await this.rowVersionsQuery.execute({ jobId, uid: user.uid });
    if (!stamp) throw notFound(noSuchJob(jobId));
    const key = JSON.stringify([user.uid, jobId, offset, limit]);
    const kept = this.details.get(key);
    if (kept && kept.rowVersions === stamp.rowVersions) return kept.value;
    if (this.details.size >= DETAIL_CACHE_ENTRIES) this.details.clear();
    const entry = { rowVersions: stamp.rowVersions, value: this.readDetail(user, jobId, offset, limit) };
    this.details.set(key, entry);
    entry.value.catch(() => {
      if (this.details.get(key) === entry) this.details.delete(key); // a failed read is asked again
    });
    return entry.value;
  }

  private async readDetail(user: SessionUser, jobId: string, offset: number, limit: number): Promise<JobDetailAnswer> {
    const job = await this.summary(user, jobId);
    const chunks = await this.db.select().from(batchChunks).where(eq(batchChunks.jobId, jobId)).orderBy(asc(batchChunks.index));
    const proposals = await this.chunkProposals(jobId);
    const recipients = await this.db
      .select()
      .from(batchRecipients)
      .where(eq(batchRecipients.jobId, jobId))
      .orderBy(asc(batchRecipients.position))
      .offset(offset)
      .limit(limit);
    return {
      job,
      chunks: chunks.map((c) => toChunkDetail(c, proposals.get(c.index) ?? null)),
      recipients: recipients.map((r) => ({
        position: r.position,
        chunkIndex: r.chunkIndex,
        name: r.name,
        address: r.address,
        amount: exactTokenAmount(BigInt(r.amount)),
        status: r.status as RecipientStatus,
        txHash: r.txHash,
      })),
    };
  }

  /** The job if it is the user's; another user's job is as unknown as a missing one. */
  private async ownJob(user: SessionUser, jobId: string) {
    const [job] = await this.db
      .select()
      .from(batchJobs)
      .where(and(eq(batchJobs.id, jobId), eq(batchJobs.uid, user.uid)));
    if (!job) throw notFound(noSuchJob(jobId));
    return job;
  }

  async summary(user: SessionUser, jobId: string): Promise<JobSummary> {
    const job = await this.ownJob(user, jobId);
    const chunks = await this.db.select().from(batchChunks).where(eq(batchChunks.jobId, jobId)).orderBy(asc(batchChunks.index));
    const [counts] = await this.db
      .select({
        paid: sql<number>`count(*) filter (where ${batchRecipients.status} = 'paid')`.mapWith(Number),
        amounts: sql<number>`count(distinct ${batchRecipients.amount})`.mapWith(Number),
        amount: sql<string>`min(${batchRecipients.amount})`,
      })
      .from(batchRecipients)
      .where(eq(batchRecipients.jobId, jobId));
    const count = (status: ChunkStatus) => chunks.filter((c) => c.status === status).length;
    const hashes = chunks.filter((c) => c.txHash !== null).map((c) => c.txHash as string);
    const newest = [...chunks].filter((c) => c.submittedAt).sort((a, b) => b.submittedAt!.getTime() - a.submittedAt!.getTime())[0];
    return {
      jobId: job.id,
      status: job.status as JobStatus,
      payer: job.payer,
      payerIsSafe: job.payerIsSafe,
      totalAmount: exactTokenAmount(BigInt(job.totalAmount)),
      totalAmountRaw: job.totalAmount,
      amount: counts.amounts === 1 ? exactTokenAmount(BigInt(counts.amount)) : null,
      recipients: job.recipientCount,
      recipientsPaid: counts.paid,
      // A closed chunk is counted with the failed ones: neither is paid nor on its way.
      chunks: {
        total: job.chunkCount,
        confirmed: count("confirmed"),
        submitted: count("submitted"),
        failed: count("failed") + count("closed"),
      },
      txHash: newest?.txHash ?? null,
      txHashes: hashes,
      error: job.error,
      createdAt: job.createdAt.toISOString(),
      updatedAt: job.updatedAt.toISOString(),
      completedAt: job.completedAt?.toISOString() ?? null,
    };
  }

  /** Each chunk's newest Safe proposal (a job paid from a Safe), by chunk index. */
  private async chunkProposals(jobId: string): Promise<Map<number, ChunkProposal>> {
    const rows = await this.db
      .select({
        index: safeProposals.batchChunk,
        safeTxHash: safeProposals.safeTxHash,
        nonce: safeProposals.nonce,
        state: safeProposals.state,
      })
      .from(safeProposals)
      .where(eq(safeProposals.batchJobId, jobId))
      .orderBy(asc(safeProposals.proposedAt));
    return new Map(rows.map((r) => [r.index!, { safeTxHash: r.safeTxHash, nonce: r.nonce, state: r.state as ChunkProposal["state"] }]));
  }

  /**
   * Sets a job's status from its chunks: completed when all are confirmed, failed when one failed,
   * was closed, or was never sent within the submit window, else processing.
   */
  async refreshJob(jobId: string, now = new Date()): Promise<void> {
    const [job] = await this.db.select().from(batchJobs).where(eq(batchJobs.id, jobId));
    if (!job) return;
    const chunks = await this.db.select().from(batchChunks).where(eq(batchChunks.jobId, jobId)).orderBy(asc(batchChunks.index));
    let status: JobStatus = "processing";
    let error: string | null = null;
    const failed = chunks.find((c) => c.status === "failed");
    // A Safe's chunk waits for its owners' approvals, which may take hours: one with a proposal
    // pending (or executed, its payment not indexed yet) is on its way, not unsent. A replaced or
    // failed proposal leaves it unsent again, so the window fails a job the owners gave up on.
    const proposed = job.payerIsSafe ? await this.chunkProposals(jobId) : new Map<number, ChunkProposal>();
    const onItsWay = (index: number) => ["pending", "executed"].includes(proposed.get(index)?.state ?? "");
    const unsent = chunks.find((c) => c.status === "pending" && !onItsWay(c.index));
    const closed = chunks.find((c) => c.status === "closed");
    if (chunks.every((c) => c.status === "confirmed")) status = "completed";
    else if (failed) {
      status = "failed";
      error = `Chunk ${failed.index + 1} of ${chunks.length}: ${failed.error ?? "its transaction failed"}`;
    } else if (closed) {
      // The reason the job failed before it was closed stays.
      status = "failed";
      error = job.error ?? `Chunk ${closed.index + 1} of ${chunks.length}: ${closed.error ?? "it was not paid"}`;
    } else if (unsent && now.getTime() - job.createdAt.getTime() > this.options.submitWindowMs) {
      status = "failed";
      error = `Chunk ${unsent.index + 1} of ${chunks.length} was never sent: no transaction was reported within ${duration(this.options.submitWindowMs)} of starting the batch.`;
    }
    if (status === job.status && error === job.error) return;
    await this.db
      .update(batchJobs)
      .set({ status, error, updatedAt: now, completedAt: status === "completed" ? now : null })
      .where(eq(batchJobs.id, jobId));
  }
}

/** A chunk's newest Safe proposal, as a job's detail shows it. */
type ChunkProposal = NonNullable<ChunkDetail["proposal"]>;

/** Another user's job is as unknown as a missing one. */
const noSuchJob = (jobId: string) => `No batch job ${jobId} among yours.`;

function toChunkDetail(chunk: typeof batchChunks.$inferSelect, proposal: ChunkProposal | null = null): ChunkDetail {
  return {
    index: chunk.index,
    status: chunk.status as ChunkStatus,
    reference: chunk.reference,
    recipients: chunk.recipientCount,
    totalAmount: exactTokenAmount(BigInt(chunk.totalAmount)),
    txHash: chunk.txHash,
    blockNumber: chunk.blockNumber,
    error: chunk.error,
    proposal,
  };
}
