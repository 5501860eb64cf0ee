import { and, asc, desc, eq, inArray, lt, sql } from "drizzle-orm";
import type { Chain } from "../chain";
import type { Config } from "../config";
import type { Database } from "../db/client";
import { batchChunks, batchJobs, batchRecipients, chainEvents } from "../db/schema";
import type { Logger } from "../logger";
import { describeError } from "../../../common/contractErrors";
import { BatchService, duration } from "./batch";
import type { EventIndexer } from "./indexer";
import { Ticker } from "./ticker";

type Chunk = typeof batchChunks.$inferSelect;
type EventRow = typeof chainEvents.$inferSelect;

// Chunks looked at per step; the rest wait for the next one.
const CHUNKS_PER_STEP = 500;

/**
 * Follows every unpaid chunk on the chain until it is paid or has failed:
 * - a BatchPaid event in the index with the chunk's reference pays it, once the Transfer events
 *   just before it (same transaction, from the payer) match the chunk's recipients and amounts;
 * - a reported transaction that reverted, that was never seen, or that was mined and indexed
 *   without that BatchPaid fails the chunk, with the reason in words.
 * All state is in the database, so a restarted server carries on where it stopped.
 */
export class BatchWatcher {
  private readonly ticker: Ticker<void>;

  constructor(
    private readonly db: Database,
    private readonly chain: Chain,
    private readonly batch: BatchService,
    private readonly indexer: EventIndexer,
    private readonly options: Config["batch"],
    pollMs: number,
    private readonly log: Logger,
  ) {
    this.ticker = new Ticker(() => this.step(), pollMs, log, "batch watcher");
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

  /** Looks again soon: a chunk transaction was just reported. */
  poke(): void {
    this.ticker.poke();
  }

  /** One step now (tests, and after the indexer catches up). */
  runOnce(): Promise<void> {
    return this.ticker.runNow();
  }

  private async step(): Promise<void> {
    // The checkpoint is read before the events: whatever the index held at it is in the queries below.
    const checkpoint = this.indexer.status().checkpoint;
    const open = await this.db
      .select()
      .from(batchChunks)
      .where(inArray(batchChunks.status, ["pending", "submitted"]))
      .orderBy(asc(batchChunks.submittedAt))
      .limit(CHUNKS_PER_STEP);
    const touched = new Set<string>();
    for (const chunk of open) {
      const paid = await this.findBatchPaid(chunk.reference);
      if (paid) {
        await this.settle(chunk, paid);
        touched.add(chunk.jobId);
      } else if (chunk.status === "submitted" && chunk.txHash) {
        const failure = await this.checkTransaction(chunk, checkpoint);
        if (failure) {
          await this.db
            .update(batchChunks)
            .set({ status: "failed", error: failure })
            .where(and(eq(batchChunks.jobId, chunk.jobId), eq(batchChunks.index, chunk.index), eq(batchChunks.status, "submitted")));
          this.batch.invalidate();
          this.log.info({ job: chunk.jobId, chunk: chunk.index, tx: chunk.txHash, error: failure }, "batch chunk failed");
          touched.add(chunk.jobId);
        }
      }
    }
    // Jobs still processing past the submit window fail here even when nothing else changed.
    const stale = await this.db
      .select({ id: batchJobs.id })
      .from(batchJobs)
      .where(and(eq(batchJobs.status, "processing"), lt(batchJobs.createdAt, new Date(Date.now() - this.options.submitWindowMs))));
    for (const job of stale) touched.add(job.id);
    for (const jobId of touched) await this.batch.refreshJob(jobId);
  }

  private async findBatchPaid(reference: string): Promise<EventRow | null> {
    const [event] = await this.db
      .select()
      .from(chainEvents)
      .where(and(eq(chainEvents.eventName, "BatchPaid"), sql`${chainEvents.args}->>'paymentRef' = ${reference}`))
      .orderBy(asc(chainEvents.blockNumber), asc(chainEvents.logIndex))
      .limit(1);
    return event ?? null;
  }

  /** Marks the chunk and its recipients paid if the transfers before its BatchPaid are exactly the plan. */
  private async settle(chunk: Chunk, paid: EventRow): Promise<void> {
    const payer = String(paid.args.payer);
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
            eq(chainEvents.fromAddress, payer.toLowerCase()),
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
    const matches =
      transfers.length === recipients.length &&
      recipients.every((r, i) => transfers[i].toAddress === r.address.toLowerCase() && transfers[i].args.value === r.amount);
    const tx = paid.transactionHash;
    if (!matches) {
      await this.db
        .update(batchChunks)
        .set({ status: "failed", txHash: tx, blockNumber: paid.blockNumber, error: `Transaction ${tx} carries this chunk's reference but paid other recipients or amounts than planned.` })
        .where(and(eq(batchChunks.jobId, chunk.jobId), eq(batchChunks.index, chunk.index)));
      this.batch.invalidate();
      this.log.warn({ job: chunk.jobId, chunk: chunk.index, tx }, "batch chunk paid other recipients than planned");
      return;
    }
    await this.db.transaction(async (db) => {
      await db
        .update(batchChunks)
        .set({ status: "confirmed", txHash: tx, blockNumber: paid.blockNumber, error: null, confirmedAt: new Date(), submittedAt: chunk.submittedAt ?? new Date() })
        .where(and(eq(batchChunks.jobId, chunk.jobId), eq(batchChunks.index, chunk.index)));
      await db
        .update(batchRecipients)
        .set({ status: "paid", txHash: tx })
        .where(and(eq(batchRecipients.jobId, chunk.jobId), eq(batchRecipients.chunkIndex, chunk.index)));
      // A job started without a known wallet learns its payer from the first paid chunk.
      await db
        .update(batchJobs)
        .set({ payer })
        .where(and(eq(batchJobs.id, chunk.jobId), sql`${batchJobs.payer} is null`));
    });
    this.batch.invalidate();
    this.log.info({ job: chunk.jobId, chunk: chunk.index, tx, recipients: recipients.length }, "batch chunk paid");
  }

  /** Why a reported transaction cannot pay its chunk, or null while it still may. */
  private async checkTransaction(chunk: Chunk, checkpoint: number | null): Promise<string | null> {
    const hash = chunk.txHash!;
    const { provider } = this.chain;
    let receipt;
    try {
      receipt = await provider.getTransactionReceipt(hash);
    } catch (error) {
      // The node is away: nothing is decided until it answers.
      this.log.debug({ err: (error as Error).message }, "receipt lookup failed");
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
    if (checkpoint !== null && receipt.blockNumber <= checkpoint) {
      const to = receipt.to?.toLowerCase() === this.chain.manifest.batchPayments.toLowerCase() ? "" : " (it was not sent to the batch payment contract)";
      return `Transaction ${hash} did not pay this chunk: it has no BatchPaid event with the chunk's reference${to}.`;
    }
    return null;
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
}
