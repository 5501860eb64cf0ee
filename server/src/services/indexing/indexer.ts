import { toQuantity } from "ethers";
import { desc, eq, sql } from "drizzle-orm";
import type { Chain } from "../../chain/client";
import type { Config } from "../../config";
import type { Database } from "../../db/client";
import { indexedBlocks, indexerState } from "../../db/schema";
import type { RpcCall } from "../../chain/batchCalls";
import { checkDeploymentOnChain } from "@common/manifestFile";
import type { Logger } from "../../lib/logger";
import { pacedByHeads, Ticker } from "../operations/ticker";
import type { HeadSource } from "../../chain/heads";
import { FreshRead } from "../../lib/concurrency";
import { EventDecoder, type EventRow, type RawLog } from "./decoder";
import { STATE_ID, noteBlock, rewindTo, startOver, storeRange, type StoredBlock } from "./indexWrites";
import { RangeSpan, blockOf, headerCall, logsCall, readRange, type RangeRead } from "./ranges";
import type { ExplorerBackfill } from "./backfill";

// PGlite runs no autovacuum: without fresh statistics the planner sorts an account's whole history
// for one page (29 ms at 20,000 rows, 0.2 ms after ANALYZE). Refresh them after this many rows.
const ANALYZE_EVERY_ROWS = 1000;

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
  /** Blocks asked for in one eth_getLogs, adapting to the provider's refusals. */
  private readonly span: RangeSpan;
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
    this.span = new RangeSpan(options.batchBlocks, log);
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
    return this.span.blocks;
  }

  start(): void {
    this.state.running = true;
    this.ticker.start();
  }

  async stop(): Promise<void> {
    this.state.running = false;
    await this.ticker.stop();
  }

  /** Steps on each pushed head, then calls `stepped` (the batch watcher reads what it stored); polls only as a safety net while heads come. */
  wakeOnHeads(heads: HeadSource, stepped: () => void): void {
    pacedByHeads(this.ticker, heads, () => void this.ticker.wake().then(stepped));
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
    // The poll's first request: the head and the checkpoint's header, whose hash is checked
    // against the stored one (one request where the provider takes batches).
    const [head, checkpointBlock] = await this.readHeadAnd(checkpoint);
    // The deployment check costs two calls: every step on the local chain, else every few minutes
    // and after any rewind (a reset node shows first as a checkpoint block with another hash).
    if (Date.now() - this.deploymentCheckedAt >= this.options.deploymentCheckMs) {
      await checkDeploymentOnChain(manifest, provider);
      this.deploymentCheckedAt = Date.now();
    }
    const before = checkpoint;
    checkpoint = await this.detectReorg(checkpoint, checkpointBlock);
    if (checkpoint !== before && this.options.deploymentCheckMs > 0) {
      this.deploymentCheckedAt = 0;
      await checkDeploymentOnChain(manifest, provider);
      this.deploymentCheckedAt = Date.now();
    }
    if (this.backfill) {
      // A first index far behind the head: the history from the explorer, then ranges by RPC.
      const filled = await this.backfill.run(checkpoint, head);
      if (filled !== checkpoint) this.changes++;
      checkpoint = filled;
    }
    // After a rewind the checkpoint block is the ancestor, as stored.
    checkpoint = await this.catchUp(checkpoint, head - this.options.confirmations, checkpoint === before ? checkpointBlock : null);
    if (this.rowsSinceAnalyze >= ANALYZE_EVERY_ROWS) {
      await this.db.execute(sql`analyze chain_events`);
      this.rowsSinceAnalyze = 0;
    }
    this.state.checkpoint = checkpoint;
    this.state.lag = Math.max(0, head - checkpoint);
    this.state.lastSyncAt = new Date().toISOString();
    return checkpoint;
  }

  /** The head and the header of block `n` (null when the chain has no such block), noted as readHead notes the head. */
  private async readHeadAnd(n: number): Promise<[number, StoredBlock | null]> {
    let answers;
    try {
      answers = await this.chain.calls.many([
        { method: "eth_blockNumber", params: [] },
        { method: "eth_getBlockByNumber", params: [toQuantity(n), false] },
      ]);
    } catch (error) {
      this.headReadFailed = true;
      throw error;
    }
    const [headAnswer, blockAnswer] = answers;
    if (!headAnswer.ok) {
      this.headReadFailed = true;
      throw headAnswer.error;
    }
    return [this.noteHead(Number(headAnswer.result as string)), blockOf(blockAnswer, n, true)];
  }

  /** Notes the chain's head as read now. */
  private noteHead(head: number): number {
    this.headReadFailed = false;
    this.headReadAt = Date.now();
    this.state.head = head;
    return head;
  }

  /**
   * Indexes blocks checkpoint+1..target and returns the new checkpoint. Each range costs one
   * eth_getLogs. The blocks a range's events are in (for their times, and to check the logs'
   * block hashes) are read with the next range's eth_getLogs, in the same batch, so a range with
   * events costs no request of its own; the range is stored once they are in. The last range also
   * reads block `target`'s header: its hash, stored, is what the next poll checks the chain against.
   * Ranges are stored in order, each with the checkpoint, so a failure loses only what is unstored.
   */
  private async catchUp(checkpoint: number, target: number, start: StoredBlock | null): Promise<number> {
    let asked = checkpoint; // the last block asked for
    let waiting: RangeRead | null = null; // a range read, waiting for its events' blocks
    let parent = start; // block `asked` as last read: the next range must continue it
    while (asked < target || waiting) {
      const from = asked + 1;
      const to = Math.min(from + this.span.blocks - 1, target);
      // A range's request: its logs, its end block (whose hash the next range and the next poll
      // check) and the block before it again, so a rewind since that block was read fails the step.
      const calls: RpcCall[] = asked < target ? [logsCall(this.decoder.addresses, from, to), headerCall(to), headerCall(from - 1)] : [];
      const missing = waiting?.missing ?? [];
      calls.push(...missing.map(headerCall));
      const answers = await this.chain.calls.many<unknown>(calls);
      if (waiting) {
        const read = missing.map((n, i) => blockOf(answers[answers.length - missing.length + i], n));
        checkpoint = await this.store(waiting, read);
        waiting = null;
      }
      if (asked >= target) break;
      const logsAnswer = answers[0];
      if (!logsAnswer.ok) {
        this.span.shrinkAfter(logsAnswer.error, from, to);
        continue;
      }
      if (parent && blockOf(answers[2], from - 1).blockHash !== parent.blockHash)
        throw new Error(`block ${from - 1} changed: the chain was reorganised`);
      this.span.grow();
      const end = blockOf(answers[1], to);
      const range = readRange(from, to, logsAnswer.result as RawLog[], end);
      asked = to;
      parent = end;
      if (range.missing.length === 0) checkpoint = await this.store(range, []);
      else waiting = range;
    }
    return checkpoint;
  }

  /** Decodes a range's logs with their blocks' times and stores them (storeRange), checking every log's block hash. */
  private async store(range: RangeRead, read: StoredBlock[]): Promise<number> {
    const byNumber = new Map([...range.known, ...read].map((b) => [b.blockNumber, b]));
    const rows: EventRow[] = [];
    for (const log of range.logs) {
      const block = byNumber.get(log.blockNumber)!;
      // A log from another fork than its block as read: the chain moved; try again next step.
      if (log.blockHash !== block.blockHash) throw new Error(`block ${log.blockNumber} changed while indexing`);
      const row = this.decoder.decode(log, block.blockTime);
      if (row) rows.push(row);
    }
    const eventBlocks = new Set(range.logs.map((l) => l.blockNumber));
    const keep = [...byNumber.values()].filter((b) => eventBlocks.has(b.blockNumber) || b.blockNumber === range.to);
    await storeRange(this.db, range.from, range.to, rows, keep);
    this.observeHead(range.to, byNumber.get(range.to)!.blockHash);
    this.rowsSinceAnalyze += rows.length;
    this.stored += rows.length;
    if (rows.length > 0) this.log.debug({ from: range.from, to: range.to, events: rows.length }, "indexed");
    return range.to;
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
    await startOver(
      this.db,
      { chainId: manifest.chainId, proxy: manifest.proxy, deploymentBlockHash: manifest.deploymentBlockHash },
      start,
    );
    this.seenHead = null;
    this.changes++;
    return start;
  }

  /**
   * Rewinds to the newest stored block whose hash the chain still has, if the checkpoint's changed
   * (`onChain`: the checkpoint block as the chain has it now, null when the chain is shorter). A
   * checkpoint whose hash the index does not hold yet (a poll cut short before its last range) has
   * it noted now.
   */
  private async detectReorg(checkpoint: number, onChain: StoredBlock | null): Promise<number> {
    const [stored] = await this.db.select().from(indexedBlocks).where(eq(indexedBlocks.blockNumber, checkpoint));
    this.observeHead(checkpoint, stored?.blockHash ?? onChain?.blockHash ?? null);
    if (!stored) {
      if (onChain && checkpoint >= this.chain.manifest.deploymentBlock) await noteBlock(this.db, onChain);
      return checkpoint;
    }
    if (onChain && onChain.blockHash === stored.blockHash) return checkpoint;

    let ancestor = this.chain.manifest.deploymentBlock - 1;
    const known = await this.db.select().from(indexedBlocks).orderBy(desc(indexedBlocks.blockNumber));
    for (const block of known) {
      const current = await this.chain.provider.getBlock(block.blockNumber);
      if (current && current.hash === block.blockHash) {
        ancestor = block.blockNumber;
        break;
      }
    }
    await rewindTo(this.db, ancestor, this.log);
    this.deploymentCheckedAt = 0; // a reset node shows first as a rewind: the next step checks the deployment
    this.seenHead = null;
    this.changes++;
    this.log.warn({ from: checkpoint, to: ancestor }, "chain reorganised: index rewound");
    return ancestor;
  }
}
