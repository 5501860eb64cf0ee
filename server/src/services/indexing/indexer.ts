import { toBeHex } from "ethers";
import { and, desc, eq, gt, sql } from "drizzle-orm";
import type { Chain } from "../../chain/client";
import type { Config } from "../../config";
import type { Database } from "../../db/client";
import { batchChunks, batchJobs, batchRecipients, chainEvents, indexedBlocks, indexerState } from "../../db/schema";
import { checkDeploymentOnChain } from "@common/manifestFile";
import type { Logger } from "../../lib/logger";
import { Ticker } from "../operations/ticker";
import { FreshRead, mapLimit } from "../../lib/concurrency";
import type { ExplorerBackfill } from "./backfill";
import { EventDecoder, parseRawLog, type EventRow, type RawLog } from "./decoder";
import { rangeAdvice } from "./logRanges";

const STATE_ID = "usdx";
const BLOCK_FETCH_CONCURRENCY = 8;
// PGlite runs no autovacuum: without fresh statistics the planner sorts an account's whole history
// for one page (29 ms at 20,000 rows, 0.2 ms after ANALYZE). Refresh them after this many rows.
const ANALYZE_EVERY_ROWS = 1000;
/** How long a range size a provider named caps the indexer's eth_getLogs span. */
const SPAN_CEILING_MS = 10 * 60_000;

export type { IndexerStatus } from "@common/api/operations";
import type { IndexerStatus } from "@common/api/operations";

/**
 * Follows the chain from the deployment block and stores every USDX and BatchPayments event.
 * Each step reads logs for a range of blocks in one query, stores them with their block times in
 * one transaction together with the new checkpoint, so a restart resumes where it stopped. Before
 * each step it checks that the checkpoint block still has the hash it had; if not, the chain was
 * reorganised (or rewound), and the index rewinds to the newest block both agree on.
 */
export class EventIndexer {
  /** Runs sync every pollMs; when the node or the database is away, less often until it answers. */
  private readonly ticker: Ticker<number>;
  /** On a replica that is not the leader: reads the stored head every pollMs, so its caches follow the leader's writes. */
  private readonly follower: Ticker<void>;
  /** Turns the logs of USDX and BatchPayments into rows. */
  private readonly decoder: EventDecoder;
  private state: IndexerStatus = { checkpoint: null, head: null, lag: null, running: false, lastError: null, lastSyncAt: null };
  /** Rows stored since the planner's statistics were refreshed; starts high so a new process refreshes them once. */
  private rowsSinceAnalyze = ANALYZE_EVERY_ROWS;
  /** Events this process has stored since it started (/api/metrics: its rate is events a second). */
  private stored = 0;
  /** The stored head last seen (checkpoint and its block hash), and how often it has changed. */
  private seenHead: string | null = null;
  private changes = 0;
  /**
   * Blocks asked for in one eth_getLogs: batchBlocks, less after a provider refused a range (halved,
   * or the size it named). A block-range refusal caps the span for SPAN_CEILING_MS; within the cap
   * it doubles back after each success.
   */
  private span: number;
  private spanCeiling: number;
  private ceilingSetAt = 0;
  /** When this process last read the chain's head (the indexer's step, or the follower's poll); null: never yet. */
  private headReadAt: number | null = null;
  /** Whether this process's latest attempt to read the head failed (the node did not answer it). */
  private headReadFailed = false;
  /** When the deployment was last found on the chain (0: check at the next step). */
  private deploymentCheckedAt = 0;
  /** The stored head as of a read begun after the caller asked (see currentVersion). */
  private readonly storedHead = new FreshRead(() => this.readStoredCheckpoint());
  /**
   * The stored checkpoint and its block's hash, in one query, prepared once: a follower runs it for
   * every cached read, and building it anew cost three times what running it does.
   */
  private readonly storedHeadQuery;

  constructor(
    private readonly db: Database,
    private readonly chain: Chain,
    private readonly options: Config["indexer"],
    private readonly log: Logger,
    /** Other replicas share the database (PostgreSQL), so whichever of them leads may write the index. */
    private readonly shared = false,
    /** Fills a first index far behind the head from an explorer (INDEXER_BACKFILL=explorer). */
    readonly backfill: ExplorerBackfill | null = null,
  ) {
    this.ticker = new Ticker(() => this.sync(), options.pollMs, log, "indexer");
    this.follower = new Ticker(() => this.readStoredHead(), options.pollMs, log, "index follower");
    this.storedHeadQuery = db
      .select({
        checkpoint: indexerState.checkpointBlock,
        chainId: indexerState.chainId,
        proxy: indexerState.proxy,
        deploymentBlockHash: indexerState.deploymentBlockHash,
        updatedAt: indexerState.updatedAt,
        hash: indexedBlocks.blockHash,
      })
      .from(indexerState)
      .leftJoin(indexedBlocks, eq(indexedBlocks.blockNumber, indexerState.checkpointBlock))
      .where(eq(indexerState.id, STATE_ID))
      .prepare("usdx_stored_head");
    this.span = this.spanCeiling = options.batchBlocks;
    this.decoder = new EventDecoder(chain, log);
  }

  /**
   * Changes whenever what the index holds may have changed: this process stored or rewound it, or
   * saw its stored head move (another server on the same database). Caches of index reads, and of
   * chain figures that go with the index's head, are keyed by it, so they cost no query to check.
   */
  get version(): number {
    return this.changes;
  }

  /**
   * The version as of the database now, for a cache about to answer. While this replica runs the
   * indexer nobody else writes the index, so the in-memory version is exact and costs nothing. A
   * replica that follows reads the stored head first (one small query, shared by every request that
   * arrives while it is under way, and begun after each of them arrived), so no cache of it serves
   * a figure older than what the leader has committed: the follower's poll alone would leave it up
   * to INDEXER_POLL_MS behind.
   */
  async currentVersion(): Promise<number> {
    if (this.shared && !this.state.running) await this.storedHead.get();
    return this.changes;
  }

  private observeHead(checkpoint: number, hash: string | null): void {
    const head = `${checkpoint}:${hash}`;
    if (head === this.seenHead) return;
    this.seenHead = head;
    this.changes++;
  }

  /**
   * The chain's head as this process last read it, and when, and whether a later attempt failed: how
   * /monitoring and /api/health tell the node answers without asking it again.
   */
  get lastHeadRead(): { head: number; at: number; failedSince: boolean } | null {
    return this.headReadAt === null || this.state.head === null
      ? null
      : { head: this.state.head, at: this.headReadAt, failedSince: this.headReadFailed };
  }

  /** The chain's head, noted with when it was read (or that the attempt failed): every head read of the loops goes through here. */
  private async readHead(): Promise<number> {
    let head: number;
    try {
      head = await this.chain.provider.getBlockNumber();
    } catch (error) {
      this.headReadFailed = true;
      throw error;
    }
    this.headReadFailed = false;
    this.headReadAt = Date.now();
    this.state.head = head;
    return head;
  }

  status(): IndexerStatus {
    return { ...this.state, lastError: this.follower.running ? this.follower.lastError : this.ticker.lastError };
  }

  /** Events this process has stored since it started: 0 on a replica that follows another's index. */
  get eventsStored(): number {
    return this.stored;
  }

  /** Blocks the next eth_getLogs asks for (tests, and the health page). */
  get logSpan(): number {
    return this.span;
  }

  start(): void {
    this.state.running = true;
    this.ticker.start();
  }

  async stop(): Promise<void> {
    this.state.running = false;
    await this.ticker.stop();
  }

  /** Another replica indexes: follow what it stores (the checkpoint, its hash, the lag) instead. */
  follow(): void {
    this.follower.start();
  }

  unfollow(): Promise<void> {
    return this.follower.stop();
  }

  /** The follower's poll: the stored head, and how far it is behind the chain's (for /api/health). */
  private async readStoredHead(): Promise<void> {
    const checkpoint = await this.storedHead.get();
    if (checkpoint === null) return;
    const head = await this.readHead();
    this.state.lag = Math.max(0, head - checkpoint);
  }

  /**
   * Reads the stored checkpoint and its block's hash in one query and notes them (the version moves
   * when they changed). Every write to the index moves the checkpoint in the same transaction (a
   * step to a new block, a rewind to an older one, a new deployment's start), so the pair names
   * what the index holds. Null while the stored index is another deployment's.
   */
  private async readStoredCheckpoint(): Promise<number | null> {
    const { manifest } = this.chain;
    const [row] = await this.storedHeadQuery.execute();
    // Another deployment's index (the leader has yet to start it over) is no checkpoint of this one.
    if (
      !row ||
      row.chainId !== manifest.chainId ||
      row.proxy !== manifest.proxy ||
      row.deploymentBlockHash !== manifest.deploymentBlockHash
    ) {
      this.state.checkpoint = null;
      return null;
    }
    this.observeHead(row.checkpoint, row.hash ?? null);
    this.state.checkpoint = row.checkpoint;
    this.state.lastSyncAt = row.updatedAt ? new Date(row.updatedAt).toISOString() : this.state.lastSyncAt;
    return row.checkpoint;
  }

  /** Indexes up to the confirmed head now; one call at a time. Returns the new checkpoint. */
  syncOnce(): Promise<number> {
    return this.ticker.runNow();
  }

  private async sync(): Promise<number> {
    const { provider, manifest } = this.chain;
    let checkpoint = await this.loadCheckpoint();
    const head = await this.readHead();
    // The deployment check costs two calls: every step on the local chain, else every few minutes
    // and after any rewind (a reset node shows first as a checkpoint block with another hash).
    if (Date.now() - this.deploymentCheckedAt >= this.options.deploymentCheckMs) {
      await checkDeploymentOnChain(manifest, provider);
      this.deploymentCheckedAt = Date.now();
    }
    const before = checkpoint;
    checkpoint = await this.detectReorg(checkpoint);
    if (checkpoint !== before && this.options.deploymentCheckMs > 0) {
      this.deploymentCheckedAt = 0;
      await checkDeploymentOnChain(manifest, provider);
      this.deploymentCheckedAt = Date.now();
    }
    if (this.backfill) {
      const filled = await this.backfill.run(checkpoint, head);
      if (filled !== checkpoint) this.changes++;
      checkpoint = filled;
    }
    const target = head - this.options.confirmations;
    while (checkpoint < target) {
      const from = checkpoint + 1;
      const to = Math.min(from + this.span - 1, target);
      try {
        checkpoint = await this.indexRange(from, to);
      } catch (error) {
        // A provider's range or result limit: ask again for fewer blocks from the same block, so
        // nothing is skipped (the checkpoint moves only when a range is stored whole).
        const advice = rangeAdvice(error, from, to);
        if (!advice) throw error;
        if (to === from)
          throw new Error(
            `block ${from} alone has more events than the RPC provider answers at once (${(error as Error).message}); use a provider or plan with a higher eth_getLogs limit`,
            { cause: error },
          );
        // A block-range limit is the same further on: the span stays within it for a while (growing
        // back would only be refused again). A results limit was about this stretch's density: the
        // span shrinks for it and grows back after it.
        this.span = advice.span;
        if (advice.limit === "range") {
          this.spanCeiling = advice.span;
          this.ceilingSetAt = Date.now();
        }
        this.log.info({ from, to, span: this.span, reason: (error as Error).message }, "eth_getLogs refused: asking for fewer blocks");
        continue;
      }
      // Plans change and words can mislead: the cap holds for a while, then the span may grow to
      // batchBlocks again.
      if (this.spanCeiling < this.options.batchBlocks && Date.now() - this.ceilingSetAt > SPAN_CEILING_MS)
        this.spanCeiling = this.options.batchBlocks;
      if (this.span < this.spanCeiling) this.span = Math.min(this.spanCeiling, this.span * 2);
    }
    if (this.rowsSinceAnalyze >= ANALYZE_EVERY_ROWS) {
      await this.db.execute(sql`analyze chain_events`);
      this.rowsSinceAnalyze = 0;
    }
    this.state.checkpoint = checkpoint;
    this.state.lag = Math.max(0, head - checkpoint);
    this.state.lastSyncAt = new Date().toISOString();
    return checkpoint;
  }

  /** The checkpoint, starting over when the stored index belongs to another deployment. */
  private async loadCheckpoint(): Promise<number> {
    const { manifest } = this.chain;
    const [row] = await this.db.select().from(indexerState).where(eq(indexerState.id, STATE_ID));
    const same =
      row && row.chainId === manifest.chainId && row.proxy === manifest.proxy && row.deploymentBlockHash === manifest.deploymentBlockHash;
    if (same) return row.checkpointBlock;
    if (row) this.log.info({ proxy: manifest.proxy }, "a new deployment: starting the index over");
    const start = manifest.deploymentBlock - 1;
    await this.db.transaction(async (tx) => {
      await tx.delete(chainEvents);
      await tx.delete(indexedBlocks);
      await tx.delete(indexerState);
      await tx.insert(indexerState).values({
        id: STATE_ID,
        chainId: manifest.chainId,
        proxy: manifest.proxy,
        deploymentBlockHash: manifest.deploymentBlockHash,
        checkpointBlock: start,
      });
    });
    this.seenHead = null;
    this.changes++;
    return start;
  }

  /** Rewinds to the newest stored block whose hash the chain still has, if the checkpoint's changed. */
  private async detectReorg(checkpoint: number): Promise<number> {
    const [stored] = await this.db.select().from(indexedBlocks).where(eq(indexedBlocks.blockNumber, checkpoint));
    this.observeHead(checkpoint, stored?.blockHash ?? null);
    if (!stored) return checkpoint;
    const onChain = await this.chain.provider.getBlock(checkpoint);
    if (onChain && onChain.hash === stored.blockHash) return checkpoint;

    let ancestor = this.chain.manifest.deploymentBlock - 1;
    const known = await this.db.select().from(indexedBlocks).orderBy(desc(indexedBlocks.blockNumber));
    for (const block of known) {
      const current = await this.chain.provider.getBlock(block.blockNumber);
      if (current && current.hash === block.blockHash) {
        ancestor = block.blockNumber;
        break;
      }
    }
    await this.db.transaction(async (tx) => {
      await tx.delete(chainEvents).where(gt(chainEvents.blockNumber, ancestor));
      await tx.delete(indexedBlocks).where(gt(indexedBlocks.blockNumber, ancestor));
      await tx.update(indexerState).set({ checkpointBlock: ancestor, updatedAt: new Date() }).where(eq(indexerState.id, STATE_ID));
      // A batch chunk confirmed in an abandoned block was never paid on this chain: it goes back
      // to submitted, its recipients to pending and its job to processing. The batch watcher then
      // finds its BatchPaid again on the new fork, or fails it once its transaction is gone.
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
      if (undone.length > 0) this.log.warn({ chunks: undone }, "batch chunks confirmed in abandoned blocks are open again");
    });
    this.seenHead = null;
    this.changes++;
    this.log.warn({ from: checkpoint, to: ancestor }, "chain reorganised: index rewound");
    return ancestor;
  }

  private async indexRange(from: number, to: number): Promise<number> {
    // What one step stores must come from one fork that continues the stored index: block `to` is
    // read before the logs and again after them (its hash pins every block below it), and in
    // between, the stored block before `from` must still be on the chain. Otherwise a rewind between
    // the step's reorg check and eth_getLogs stored the new fork's logs above the old fork's, unseen.
    // A rewind in between fails the step; the next step's reorg check rewinds the index. (Hashes,
    // not parentHash: Hardhat's hardhat_mine leaves the parentHash of the blocks it mines zero.)
    const last = await this.readBlock(to);
    const [parent] = await this.db
      .select()
      .from(indexedBlocks)
      .where(eq(indexedBlocks.blockNumber, from - 1));
    if (parent && (await this.readBlock(from - 1)).blockHash !== parent.blockHash)
      throw new Error(`block ${from - 1} changed: the chain was reorganised`);
    const raw = await this.chain.rawRpc<RawLog[]>("eth_getLogs", [
      { address: this.decoder.addresses, fromBlock: toBeHex(from), toBlock: toBeHex(to) },
    ]);
    const logs = raw.filter((l) => !l.removed).map(parseRawLog);
    const blockNumbers = [...new Set(logs.map((l) => l.blockNumber))].filter((n) => n !== to);
    const blocks = [...(await mapLimit(blockNumbers, BLOCK_FETCH_CONCURRENCY, (n) => this.readBlock(n))), last];
    if ((await this.readBlock(to)).blockHash !== last.blockHash) throw new Error(`block ${to} changed while indexing`);
    const byNumber = new Map(blocks.map((b) => [b.blockNumber, b]));
    const rows: EventRow[] = [];
    for (const log of logs) {
      const block = byNumber.get(log.blockNumber)!;
      // A log from another fork than the block we just read: the chain moved; try again next step.
      if (log.blockHash !== block.blockHash) throw new Error(`block ${log.blockNumber} changed while indexing`);
      const row = this.decoder.decode(log, block.blockTime);
      if (row) rows.push(row);
    }
    const eventBlocks = new Set(logs.map((l) => l.blockNumber));
    const keep = blocks.filter((b) => eventBlocks.has(b.blockNumber) || b.blockNumber === to);
    await this.db.transaction(async (tx) => {
      for (let i = 0; i < rows.length; i += 500) {
        await tx
          .insert(chainEvents)
          .values(rows.slice(i, i + 500))
          .onConflictDoNothing();
      }
      if (keep.length > 0) await tx.insert(indexedBlocks).values(keep).onConflictDoNothing();
      // Only from the checkpoint this step started at: a replica that lost the leader lock mid-step
      // (its successor already indexing) stores nothing and cannot move the checkpoint back.
      const [moved] = await tx
        .update(indexerState)
        .set({ checkpointBlock: to, updatedAt: new Date() })
        .where(and(eq(indexerState.id, STATE_ID), eq(indexerState.checkpointBlock, from - 1)))
        .returning({ checkpoint: indexerState.checkpointBlock });
      if (!moved) throw new Error(`the stored checkpoint is no longer block ${from - 1}: another replica indexes`);
    });
    this.observeHead(to, last.blockHash);
    this.rowsSinceAnalyze += rows.length;
    this.stored += rows.length;
    if (rows.length > 0) this.log.debug({ from, to, events: rows.length }, "indexed");
    return to;
  }

  private async readBlock(n: number): Promise<{ blockNumber: number; blockHash: string; blockTime: number }> {
    const block = await this.chain.provider.getBlock(n);
    if (!block || !block.hash) throw new Error(`block ${n} is not available yet`);
    return { blockNumber: n, blockHash: block.hash, blockTime: block.timestamp };
  }
}
