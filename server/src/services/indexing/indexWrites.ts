import { and, eq, gt } from "drizzle-orm";
import type { Database } from "../../db/client";
import { batchChunks, batchJobs, batchRecipients, chainEvents, indexedBlocks, indexerState } from "../../db/schema";
import type { Logger } from "../../lib/logger";
import type { EventRow } from "./decoder";

/** The one row of indexer_state. */
export const STATE_ID = "usdx";

/** A block the index keeps: its number, its hash (what a reorganisation changes) and its time. */
export interface StoredBlock {
  blockNumber: number;
  blockHash: string;
  blockTime: number;
}

/** Rows of chain_events written in one insert (PostgreSQL takes at most 65,535 parameters a statement). */
const INSERT_ROWS = 500;

/**
 * Stores the events of blocks from..to with the blocks they need (each event's block, and the
 * block `to` when its hash is known, for the next step's reorganisation check) and moves the
 * checkpoint to `to`, in one transaction: a restart resumes after `to`, or before `from`, never in
 * between. Only from the checkpoint `from - 1`: a replica that lost the leader lock mid-step (its
 * successor already indexing) stores nothing and cannot move the checkpoint back.
 */
export async function storeRange(db: Database, from: number, to: number, rows: EventRow[], blocks: StoredBlock[]): Promise<void> {
  await db.transaction(async (tx) => {
    for (let i = 0; i < rows.length; i += INSERT_ROWS) {
      await tx
        .insert(chainEvents)
        .values(rows.slice(i, i + INSERT_ROWS))
        .onConflictDoNothing();
    }
    if (blocks.length > 0) await tx.insert(indexedBlocks).values(blocks).onConflictDoNothing();
    const [moved] = await tx
      .update(indexerState)
      .set({ checkpointBlock: to, updatedAt: new Date() })
      .where(and(eq(indexerState.id, STATE_ID), eq(indexerState.checkpointBlock, from - 1)))
      .returning({ checkpoint: indexerState.checkpointBlock });
    if (!moved) throw new Error(`the stored checkpoint is no longer block ${from - 1}: another replica indexes`);
  });
}

/** Notes the checkpoint block's hash where the index has none yet (a step cut short before it read it). */
export async function noteBlock(db: Database, block: StoredBlock): Promise<void> {
  await db.insert(indexedBlocks).values(block).onConflictDoNothing();
}

/**
 * Drops everything above `ancestor` (the newest block the index and the chain agree on) and moves
 * the checkpoint back to it, in one transaction. A batch chunk confirmed in an abandoned block was
 * never paid on this chain: it goes back to submitted, its recipients to pending and its job to
 * processing. The batch watcher then finds its BatchPaid again on the new fork, or fails it once
 * its transaction is gone.
 */
export async function rewindTo(db: Database, ancestor: number, log: Logger, from?: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(chainEvents).where(gt(chainEvents.blockNumber, ancestor));
    await tx.delete(indexedBlocks).where(gt(indexedBlocks.blockNumber, ancestor));
    // `from`: only if the checkpoint is still there (another replica that indexes meanwhile rolls this back).
    const [moved] = await tx
      .update(indexerState)
      .set({ checkpointBlock: ancestor, updatedAt: new Date() })
      .where(and(eq(indexerState.id, STATE_ID), from === undefined ? undefined : eq(indexerState.checkpointBlock, from)))
      .returning({ checkpoint: indexerState.checkpointBlock });
    if (!moved && from !== undefined) throw new Error(`the stored checkpoint is no longer block ${from}: another replica indexes`);
    const undone = await tx
      .update(batchChunks)
      .set({ status: "submitted", blockNumber: null, confirmedAt: null })
      .where(and(eq(batchChunks.status, "confirmed"), gt(batchChunks.blockNumber, ancestor)))
      .returning({ jobId: batchChunks.jobId, index: batchChunks.index });
    for (const chunk of undone) {
      await tx
        .update(batchRecipients)
        .set({ status: "pending", txHash: null })
        .where(and(eq(batchRecipients.jobId, chunk.jobId), eq(batchRecipients.chunkIndex, chunk.index)));
      await tx
        .update(batchJobs)
        .set({ status: "processing", error: null, completedAt: null, updatedAt: new Date() })
        .where(eq(batchJobs.id, chunk.jobId));
    }
    if (undone.length > 0) log.warn({ chunks: undone }, "batch chunks confirmed in abandoned blocks are open again");
  });
}

/** Empties the index and starts it over at `start` for another deployment (chain, proxy or deployment block). */
export async function startOver(
  db: Database,
  deployment: { chainId: number; proxy: string; deploymentBlockHash: string },
  start: number,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(chainEvents);
    await tx.delete(indexedBlocks);
    await tx.delete(indexerState);
    await tx.insert(indexerState).values({ id: STATE_ID, ...deployment, checkpointBlock: start });
  });
}
