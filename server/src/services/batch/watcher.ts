import { and, asc, desc, eq, gt, inArray, isNotNull, lt, ne, or, sql } from "drizzle-orm";
import type { Chain } from "../../chain/client";
import type { Config } from "../../config";
import type { Database } from "../../db/client";
import { batchChunks, batchJobs, batchRecipients, chainEvents, indexedBlocks } from "../../db/schema";
import { errorText, type Logger } from "../../lib/logger";
import type { Doorbell } from "../../lib/doorbell";
import { describeError } from "@common/contractErrors";
import { BatchService, OPEN_CHUNK_STATUSES } from "./jobs";
import { FairShare, type Reported } from "./fairShare";
import type { EventIndexer } from "../indexing/indexer";
import { duration } from "../../lib/timeWords";
import { pacedByHeads, Ticker } from "../operations/ticker";
import type { HeadSource } from "../../chain/heads";

type Chunk = typeof batchChunks.$inferSelect;
type EventRow = typeof chainEvents.$inferSelect;

/** BatchPaid events read from the index per step; more wait for the next step (a restart reads them all once). */
export const EVENTS_PER_STEP = 2000;
/**
 * Reported transactions looked up on the node per step (each one receipt, and at most two more
 * calls when it is missing or reverted), shared round robin between users, then their jobs.
 */
export const TX_CHECKS_PER_STEP = 20;
/** A report wakes the watcher at most this often: a burst of reports costs one step, not one each. */
export const POKE_GAP_MS = 250;
/** Failed jobs closed per step. */
const JOBS_CLOSED_PER_STEP = 100;
/** Reported chunks read per step to pick the step's share from (the per-user limits keep it far lower). */
const REPORTED_READ_MAX = 20_000;

type Verdict = "paid" | "other payer" | "mismatch" | "not open";

/**
 * Follows every unpaid chunk on the chain until it is paid, has failed, or is closed. Each step:
 * 1. Payments (no RPC): the BatchPaid events indexed since the last step, joined to the chunks by
 *    their reference. A chunk is paid by the first one from the job's payer (a job whose payer is
 *    not known yet takes the payer of the first matching payment, for all its chunks) whose
 *    recipientCount, total and the Transfers just before it (same transaction, from the payer) are
 *    exactly the chunk's plan. Any other event with the reference is ignored: anyone can copy a
 *    reference from the mempool, so a payment that does not match never fails a chunk.
 * 2. Reported transactions (RPC, at most TX_CHECKS_PER_STEP, round robin by user then job): a
 *    transaction that reverted, that was never seen, or that was mined and indexed without a
 *    BatchPaid that pays the chunk, fails it, with the reason in words.
 * 3. Jobs with a chunk never sent within the submit window fail; failed jobs past the window are
 *    closed: their open chunks 'closed', their recipients 'unpaid'. Closed chunks take no reports
 *    and cost no RPC; step 1 still confirms one its job's payer pays later.
 * All state is in the database (the event cursor is in memory: a restarted server reads the
 * index's BatchPaid events again from the start, a page a step), so a restart carries on.
 */
export class BatchWatcher {
  private readonly ticker: Ticker<void>;
  /** Set by a poke until the step it asked for starts: many reports in a row ask for one step. */
  private pokeQueued = false;
  private pokeTimer: NodeJS.Timeout | null = null;
  private lastStepAt = 0;
  /** The last BatchPaid event step 1 read (its block hash tells a rewound index). */
  private cursor: { block: number; log: number; hash: string } | null = null;
  private steps = 0;
  /** Which reported chunks each step looks up on the node: TX_CHECKS_PER_STEP, round robin by user, then job. */
  private readonly share = new FairShare(TX_CHECKS_PER_STEP);

  constructor(
    private readonly db: Database,
    private readonly chain: Chain,
    private readonly batch: BatchService,
    private readonly indexer: EventIndexer,
    private readonly options: Config["batch"],
    pollMs: number,
    /** Rung by the batch service when a chunk's transaction is reported. */
    chunkReported: Doorbell,
    private readonly log: Logger,
  ) {
    this.ticker = new Ticker(() => this.step(), pollMs, log, "batch watcher");
    chunkReported.listen(() => this.poke());
  }

  start(): void {
    this.ticker.start();
  }

  stop(): Promise<void> {
    if (this.pokeTimer) clearTimeout(this.pokeTimer);
    this.pokeTimer = null;
    this.pokeQueued = false;
    return this.ticker.stop();
  }

  status(): { running: boolean; lastError: string | null } {
    return { running: this.ticker.running, lastError: this.ticker.lastError };
  }

  /**
   * Looks again soon: a chunk transaction was just reported. Every report until that step starts
   * shares it, and it starts no sooner than POKE_GAP_MS after the last one did.
   */
  poke(): void {
    if (this.pokeQueued || !this.ticker.running) return;
    this.pokeQueued = true;
    const wait = Math.max(0, this.lastStepAt + POKE_GAP_MS - Date.now());
    this.pokeTimer = setTimeout(() => {
      this.pokeTimer = null;
      this.ticker.poke();
    }, wait);
  }

  /** Polls only as a safety net while heads are pushed: the indexer's step after each head pokes it (compose.ts). */
  pacedBy(heads: HeadSource): void {
    pacedByHeads(this.ticker, heads, () => undefined);
  }

  /** One step now (tests, and after the indexer catches up). */
  runOnce(): Promise<void> {
    return this.ticker.runNow();
  }

  private async step(): Promise<void> {
    // Every report stored so far is seen by this step: a wake-up asked for meanwhile is no longer needed.
    if (this.pokeTimer) clearTimeout(this.pokeTimer);
    this.pokeTimer = null;
    this.pokeQueued = false;
    this.lastStepAt = Date.now();
    this.steps++;
    // The checkpoint is read before the events: whatever the index held at it is in the queries below.
    const checkpoint = this.indexer.status().checkpoint;
    const touched = new Set<string>();
    const caughtUp = await this.readPayments(touched);
    await this.checkReported(checkpoint, caughtUp, touched);
    // Jobs still processing with a chunk never sent past the submit window fail here even when nothing else changed.
    const cutoff = new Date(Date.now() - this.options.submitWindowMs);
    const stale = await this.db
      .selectDistinct({ id: batchChunks.jobId })
      .from(batchChunks)
      .innerJoin(batchJobs, eq(batchJobs.id, batchChunks.jobId))
      .where(and(eq(batchChunks.status, "pending"), eq(batchJobs.status, "processing"), lt(batchJobs.createdAt, cutoff)));
    for (const job of stale) touched.add(job.id);
    for (const jobId of touched) await this.batch.refreshJob(jobId);
    await this.closeAbandoned(cutoff);
  }

  // ------------------------------------------------------------ 1. payments, from the index only

  /** Reads the BatchPaid events indexed since the last step; true when it read them all. */
  private async readPayments(touched: Set<string>): Promise<boolean> {
    const cursor = this.cursor;
    if (cursor) {
      const [still] = await this.db
        .select({ blockHash: chainEvents.blockHash })
        .from(chainEvents)
        .where(and(eq(chainEvents.blockNumber, cursor.block), eq(chainEvents.logIndex, cursor.log)));
      if (!still || still.blockHash !== cursor.hash) {
        // The index was rewound past the cursor: read every BatchPaid again (chunks reopened by the rewind among them).
        this.cursor = null;
        this.log.info({ block: cursor.block }, "index rewound: batch payments read again");
        return this.readPayments(touched);
      }
    }
    const events = await this.db
      .select()
      .from(chainEvents)
      .where(
        and(
          eq(chainEvents.eventName, "BatchPaid"),
          cursor
            ? or(
                gt(chainEvents.blockNumber, cursor.block),
                and(eq(chainEvents.blockNumber, cursor.block), gt(chainEvents.logIndex, cursor.log)),
              )
            : undefined,
        ),
      )
      .orderBy(asc(chainEvents.blockNumber), asc(chainEvents.logIndex))
      .limit(EVENTS_PER_STEP);
    if (events.length === 0) return true;
    const references = [...new Set(events.map((e) => String(e.args.paymentRef)))];
    const open = await this.db
      .select()
      .from(batchChunks)
      .where(and(inArray(batchChunks.reference, references), ne(batchChunks.status, "confirmed")));
    const byReference = new Map(open.map((chunk) => [chunk.reference, chunk]));
    for (const event of events) {
      const chunk = byReference.get(String(event.args.paymentRef));
      if (chunk) {
        const verdict = await this.accept(chunk, event);
        if (verdict === "paid") {
          byReference.delete(chunk.reference);
          touched.add(chunk.jobId);
        } else if (verdict !== "not open") {
          this.log.info(
            { job: chunk.jobId, chunk: chunk.index, tx: event.transactionHash, payer: event.args.payer, verdict },
            "a BatchPaid with a chunk's reference was ignored",
          );
        }
      }
      this.cursor = { block: event.blockNumber, log: event.logIndex, hash: event.blockHash };
    }
    return events.length < EVENTS_PER_STEP;
  }

  /**
   * Confirms the chunk on `paid` when it is the job's payer's (or binds a job without one to its
   * payer) and pays exactly the plan; any other BatchPaid changes nothing.
   */
  private async accept(chunk: Chunk, paid: EventRow): Promise<Verdict> {
    const payer = String(paid.args.payer);
    const [job] = await this.db.select({ payer: batchJobs.payer }).from(batchJobs).where(eq(batchJobs.id, chunk.jobId));
    if (!job) return "not open";
    if (job.payer !== null && job.payer.toLowerCase() !== payer.toLowerCase()) return "other payer";
    if (!(await this.paysThePlan(chunk, paid))) return "mismatch";
    const tx = paid.transactionHash;
    const verdict = await this.db.transaction(async (db): Promise<Verdict> => {
      // A job started without a known wallet takes the payer of its first matching payment; the
      // row lock makes two steps (or servers) agree on one.
      const [bound] = await db
        .update(batchJobs)
        .set({ payer: sql`coalesce(${batchJobs.payer}, ${payer})` })
        .where(eq(batchJobs.id, chunk.jobId))
        .returning({ payer: batchJobs.payer });
      if (!bound || bound.payer?.toLowerCase() !== payer.toLowerCase()) return "other payer";
      const [confirmed] = await db
        .update(batchChunks)
        .set({
          status: "confirmed",
          txHash: tx,
          blockNumber: paid.blockNumber,
          error: null,
          confirmedAt: new Date(),
          submittedAt: chunk.submittedAt ?? new Date(),
        })
        .where(and(eq(batchChunks.jobId, chunk.jobId), eq(batchChunks.index, chunk.index), ne(batchChunks.status, "confirmed")))
        .returning({ index: batchChunks.index });
      if (!confirmed) return "not open";
      await db
        .update(batchRecipients)
        .set({ status: "paid", txHash: tx })
        .where(and(eq(batchRecipients.jobId, chunk.jobId), eq(batchRecipients.chunkIndex, chunk.index)));
      return "paid";
    });
    if (verdict === "paid") {
      this.log.info({ job: chunk.jobId, chunk: chunk.index, tx, closed: chunk.status === "closed" }, "batch chunk paid");
    }
    return verdict;
  }

  /** Whether the BatchPaid and the Transfers just before it (same transaction, from its payer) are exactly the chunk's plan. */
  private async paysThePlan(chunk: Chunk, paid: EventRow): Promise<boolean> {
    if (String(paid.args.recipientCount) !== String(chunk.recipientCount) || String(paid.args.total) !== chunk.totalAmount) return false;
    const payer = String(paid.args.payer).toLowerCase();
    const transfers = (
      await this.db
        .select()
        .from(chainEvents)
        .where(
          and(
            eq(chainEvents.transactionHash, paid.transactionHash),
            eq(chainEvents.eventName, "Transfer"),
            eq(chainEvents.blockNumber, paid.blockNumber),
            lt(chainEvents.logIndex, paid.logIndex),
            eq(chainEvents.fromAddress, payer),
          ),
        )
        .orderBy(desc(chainEvents.logIndex))
        .limit(chunk.recipientCount)
    ).reverse();
    const recipients = await this.db
      .select()
      .from(batchRecipients)
      .where(and(eq(batchRecipients.jobId, chunk.jobId), eq(batchRecipients.chunkIndex, chunk.index)))
      .orderBy(asc(batchRecipients.position));
    return (
      transfers.length === recipients.length &&
      recipients.every((r, i) => transfers[i].toAddress === r.address.toLowerCase() && transfers[i].args.value === r.amount)
    );
  }

  // ------------------------------------------------------------ 2. reported transactions, on the node

  private async checkReported(checkpoint: number | null, caughtUp: boolean, touched: Set<string>): Promise<void> {
    const reported = await this.db
      .select({ chunk: batchChunks, uid: batchJobs.uid, payer: batchJobs.payer })
      .from(batchChunks)
      .innerJoin(batchJobs, eq(batchJobs.id, batchChunks.jobId))
      .where(and(eq(batchChunks.status, "submitted"), isNotNull(batchChunks.txHash)))
      .limit(REPORTED_READ_MAX);
    const share = this.share.pick(
      reported.map((r) => ({ ...r.chunk, uid: r.uid, payer: r.payer })),
      this.steps,
    );
    // Looked up together (ethers sends them as one JSON-RPC batch); decided one by one.
    const outcomes = await Promise.all(share.map((chunk) => this.checkTransaction(chunk, checkpoint, caughtUp)));
    // Whether the index is the chain's up to the checkpoint, asked once a step and only before a verdict that rests on it.
    let indexIsTheChain: Promise<boolean> | null = null;
    for (const [i, chunk] of share.entries()) {
      const outcome = outcomes[i];
      const mined = outcome !== null && typeof outcome === "object";
      const failure = mined ? await this.whyNotPaid(chunk, outcome.to) : outcome;
      if (failure === "paid") touched.add(chunk.jobId);
      else if (failure) {
        // "No BatchPaid event" is only true of the chain the index holds: decided when the chain
        // still has the checkpoint's block as indexed, else after the indexer's next step (it was
        // rewound, or it is about to be: a reorganisation the indexer has not seen yet).
        if (mined && !(await (indexIsTheChain ??= this.indexIsTheChain(checkpoint)))) continue;
        // Only if the chunk still waits on this transaction (not paid, reported again or closed meanwhile).
        const [failed] = await this.db
          .update(batchChunks)
          .set({ status: "failed", error: failure })
          .where(
            and(
              eq(batchChunks.jobId, chunk.jobId),
              eq(batchChunks.index, chunk.index),
              eq(batchChunks.status, "submitted"),
              eq(batchChunks.txHash, chunk.txHash!),
            ),
          )
          .returning({ index: batchChunks.index });
        if (!failed) continue;
        this.log.info({ job: chunk.jobId, chunk: chunk.index, tx: chunk.txHash, error: failure }, "batch chunk failed");
        touched.add(chunk.jobId);
      }
    }
  }

  /**
   * Why a reported transaction cannot pay its chunk, null while it still may, or `mined` when it is
   * mined and indexed: the index then says (whyNotPaid). Node calls only, so the share runs at once.
   */
  private async checkTransaction(
    chunk: Reported,
    checkpoint: number | null,
    caughtUp: boolean,
  ): Promise<string | null | { mined: true; to: string | null }> {
    const hash = chunk.txHash!;
    const { provider } = this.chain;
    let receipt;
    try {
      receipt = await provider.getTransactionReceipt(hash);
    } catch (error) {
      // The node is away: nothing is decided until it answers.
      this.log.debug({ err: errorText(error) }, "receipt lookup failed");
      return null;
    }
    if (!receipt) {
      const waited = Date.now() - (chunk.submittedAt?.getTime() ?? Date.now());
      if (waited < this.options.txNotFoundMs) return null;
      const known = await provider.getTransaction(hash).catch(() => undefined);
      if (known === undefined || known !== null) return null;
      return `Transaction ${hash} was not found on the chain ${duration(this.options.txNotFoundMs)} after it was reported: it may have been dropped. Send the chunk again.`;
    }
    if (receipt.status === 0) return `Transaction ${hash} reverted: ${await this.revertReason(hash, receipt.blockNumber)}`;
    // Mined: decided once the index holds its block and step 1 has read every payment up to it.
    if (checkpoint === null || receipt.blockNumber > checkpoint || !caughtUp) return null;
    return { mined: true, to: receipt.to };
  }

  /**
   * Whether the index holds the chain up to `checkpoint`: the checkpoint block is stored with the
   * hash the node gives it now (a block's hash pins every block before it). One node call.
   */
  private async indexIsTheChain(checkpoint: number | null): Promise<boolean> {
    if (checkpoint === null) return false;
    const [stored] = await this.db.select().from(indexedBlocks).where(eq(indexedBlocks.blockNumber, checkpoint));
    if (!stored) return false;
    const onChain = await this.chain.provider.getBlock(checkpoint).catch(() => null);
    return onChain?.hash === stored.blockHash;
  }

  /** The reported transaction is mined and indexed but did not pay the chunk: why, in words (or 'paid' if it does now). */
  private async whyNotPaid(chunk: Reported, to: string | null): Promise<string> {
    const hash = chunk.txHash!;
    const events = await this.db
      .select()
      .from(chainEvents)
      .where(
        and(
          eq(chainEvents.transactionHash, hash),
          eq(chainEvents.eventName, "BatchPaid"),
          sql`${chainEvents.args}->>'paymentRef' = ${chunk.reference}`,
        ),
      )
      .orderBy(asc(chainEvents.logIndex));
    let reason: string | null = null;
    for (const event of events) {
      const verdict = await this.accept(chunk, event);
      if (verdict === "paid" || verdict === "not open") return "paid";
      if (verdict === "other payer") {
        const [job] = await this.db.select({ payer: batchJobs.payer }).from(batchJobs).where(eq(batchJobs.id, chunk.jobId));
        reason ??= `Transaction ${hash} paid this chunk's reference from ${String(event.args.payer)}, but this batch is paid from ${job?.payer ?? "another wallet"}: only that wallet's payment counts.`;
      } else reason ??= `Transaction ${hash} carries this chunk's reference but paid other recipients or amounts than planned.`;
    }
    if (reason) return reason;
    const toBatch =
      to?.toLowerCase() === this.chain.manifest.batchPayments.toLowerCase() ? "" : " (it was not sent to the batch payment contract)";
    return `Transaction ${hash} did not pay this chunk: it has no BatchPaid event with the chunk's reference${toBatch}.`;
  }

  /** Replays a reverted transaction on the state before its block, to name the contract's error. */
  private async revertReason(hash: string, blockNumber: number): Promise<string> {
    try {
      const tx = await this.chain.provider.getTransaction(hash);
      if (!tx) return "the contract refused it.";
      await this.chain.provider.call({ to: tx.to, from: tx.from, data: tx.data, value: tx.value, blockTag: blockNumber - 1 });
      return "the contract refused it (the state it ran on has changed since, so the reason cannot be replayed).";
    } catch (error) {
      return describeError(error);
    }
  }

  // ------------------------------------------------------------ 3. closing failed jobs

  /**
   * Closes the open chunks of jobs that failed and whose submit window is over: no report reopens
   * them and the watcher looks up none of their transactions again; their recipients read 'unpaid'.
   * A closed chunk the job's payer pays later is still confirmed by step 1.
   */
  private async closeAbandoned(cutoff: Date): Promise<void> {
    const jobs = await this.db
      .selectDistinct({ id: batchChunks.jobId })
      .from(batchChunks)
      .innerJoin(batchJobs, eq(batchJobs.id, batchChunks.jobId))
      .where(and(inArray(batchChunks.status, [...OPEN_CHUNK_STATUSES]), eq(batchJobs.status, "failed"), lt(batchJobs.createdAt, cutoff)))
      .limit(JOBS_CLOSED_PER_STEP);
    if (jobs.length === 0) return;
    const reason = `Not paid: the batch failed and was closed ${duration(this.options.submitWindowMs)} after it started.`;
    for (const { id } of jobs) {
      const closed = await this.db.transaction(async (db) => {
        const chunks = await db
          .update(batchChunks)
          .set({ status: "closed", error: sql`coalesce(${batchChunks.error}, ${reason})` })
          .where(and(eq(batchChunks.jobId, id), inArray(batchChunks.status, [...OPEN_CHUNK_STATUSES])))
          .returning({ index: batchChunks.index });
        if (chunks.length > 0) {
          await db
            .update(batchRecipients)
            .set({ status: "unpaid" })
            .where(
              and(
                eq(batchRecipients.jobId, id),
                inArray(
                  batchRecipients.chunkIndex,
                  chunks.map((c) => c.index),
                ),
                eq(batchRecipients.status, "pending"),
              ),
            );
        }
        return chunks.length;
      });
      this.log.info({ job: id, chunks: closed }, "failed batch job closed");
    }
  }
}
