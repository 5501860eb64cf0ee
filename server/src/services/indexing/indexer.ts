import { desc, eq, sql } from "drizzle-orm";
import type { Chain } from "../../chain/client";
import type { Config } from "../../config";
import type { Database } from "../../db/client";
import { indexedBlocks, indexerState } from "../../db/schema";
import { RpcUnavailableError } from "../../chain/rpcTransport";
import { checkDeploymentOnChain } from "@common/manifestFile";
import type { Logger } from "../../lib/logger";
import { pacedByHeads, Ticker } from "../operations/ticker";
import type { HeadSource } from "../../chain/heads";
import { FreshRead } from "../../lib/concurrency";
import { EventDecoder, type EventRow, type RawLog } from "./decoder";
import { STATE_ID, noteBlock, rewindTo, startOver, storeRange, type StoredBlock } from "./indexWrites";
import { BlockChanged, RangeSpan, blockOf, catchUp, headerCall, readRange, type RangeRead } from "./ranges";
import type { ExplorerBackfill } from "./backfill";
import { ChainTips, type Tip } from "./tips";

// PGlite runs no autovacuum: without fresh statistics the planner sorts an account's whole history
// for one page (29 ms at 20,000 rows, 0.2 ms after ANALYZE). Refresh them after this many rows.
const ANALYZE_EVERY_ROWS = 1000;

export type { IndexerStatus } from "@common/api/operations";
import type { IndexerStatus } from "@common/api/operations";

/**
 * Follows the chain from the deployment block and stores every USDX and BatchPayments event. Each
 * step starts from the chain's tip (one call a poll, none when a head was pushed): the tip the last
 * step ended on means nothing changed; one new confirmed block, linked by hash through the tips to
 * the checkpoint, costs its logs alone (./tips.ts); anything else goes by ranges (./ranges.ts), each
 * a request whose first also checks that the checkpoint block still has the hash it had. If not,
 * the chain was reorganised (or rewound), and the index rewinds to the newest block both agree on.
 * A range is stored with its block times in one transaction with the new checkpoint, so a restart
 * resumes where it stopped.
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
  /** The tips the polls read, linked by hash: a poll that finds one new confirmed block reads only its logs. */
  private readonly tips: ChainTips;
  /** The tip the last step ended on, and the checkpoint it left (null: no step has ended yet). */
  private settled: { tip: string; checkpoint: number } | null = null;
  /** Blocks asked for in one eth_getLogs, adapting to the provider's refusals. */
  private readonly span: RangeSpan;
  /** When this process last read the chain's head (the indexer's step, or the follower's poll); null: never yet. */
  private headReadAt: number | null = null;
  /** That head's hash. */
  private headHash: string | null = null;
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
    // A step the node did not answer says so to /api/health, whichever read failed (with pushed heads
    // the tip is not read over HTTP at all).
    const step = () =>
      this.sync().catch((error: unknown) => {
        if (error instanceof RpcUnavailableError) this.headReadFailed = true;
        throw error;
      });
    this.ticker = new Ticker(step, options.pollMs, log, "indexer");
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
    this.tips = new ChainTips(chain, options.confirmations);
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
   * The chain's head as this process last read it (its number and hash), and when, and whether a
   * later attempt failed: how /monitoring and /api/health tell the node answers without asking it
   * again, and what the chain reads' cache keys on (a restored snapshot brings a head back at a
   * number it had before, with another hash).
   */
  get lastHeadRead(): { head: number; hash: string; at: number; failedSince: boolean } | null {
    return this.headReadAt === null || this.state.head === null || this.headHash === null
      ? null
      : { head: this.state.head, hash: this.headHash, at: this.headReadAt, failedSince: this.headReadFailed };
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
    pacedByHeads(this.ticker, heads, (_block, header) => {
      // A whole header is a tip read for free: the next step's tip.
      if (header) this.tips.push(header);
      void this.ticker.wake().then(stepped);
    });
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
    const head = (await this.readTip()).blockNumber;
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
    // The poll's first request: the tip alone (one call), unless a head pushed since gave it. Most polls end there.
    const tip = this.takePushedTip() ?? (await this.readTip());
    const head = tip.blockNumber;
    const target = head - this.options.confirmations;
    // The deployment check costs two calls: every step on the local chain, else every few minutes
    // and after any rewind (a reset node shows first as a checkpoint block with another hash).
    if (Date.now() - this.deploymentCheckedAt >= this.options.deploymentCheckMs) {
      await checkDeploymentOnChain(manifest, provider);
      this.deploymentCheckedAt = Date.now();
    }
    // The tip the last step ended on, with the checkpoint it left: the same tip is the same chain
    // (its hash commits to every block before it), so there is nothing to check or read.
    const settled = this.settled?.tip === tip.blockHash && this.settled.checkpoint === checkpoint;
    if (!settled) {
      const stepped = await this.stepAlongTips(checkpoint, target);
      if (stepped === null) {
        checkpoint = await this.readAndCatchUp(checkpoint, head, target);
        await this.tips.fill(tip, checkpoint);
      } else checkpoint = stepped;
    }
    this.settled = { tip: tip.blockHash, checkpoint };
    if (this.rowsSinceAnalyze >= ANALYZE_EVERY_ROWS) {
      await this.db.execute(sql`analyze chain_events`);
      this.rowsSinceAnalyze = 0;
    }
    this.state.checkpoint = checkpoint;
    this.state.lag = Math.max(0, head - checkpoint);
    this.state.lastSyncAt = new Date().toISOString();
    return checkpoint;
  }

  /**
   * A poll that finds one new confirmed block whose header the polls have read as a tip, linked by
   * hash to the tip read now and (by its parentHash) to the stored checkpoint, reads only that
   * block's logs, by its hash (EIP-234: a node that no longer has the block says so, where a read
   * by number could answer another fork's empty block). One call; the chain's usual pace on a
   * public network. Null where that does not hold, or the node refused the read: the step goes the
   * general way (readAndCatchUp).
   */
  private async stepAlongTips(checkpoint: number, target: number): Promise<number | null> {
    if (target !== checkpoint + 1) return null;
    const block = this.tips.linked(target);
    if (!block) return null;
    const [stored] = await this.db.select().from(indexedBlocks).where(eq(indexedBlocks.blockNumber, checkpoint));
    if (!stored || stored.blockHash !== block.parentHash) return null;
    const [answer] = await this.chain.calls.many<RawLog[]>([
      { method: "eth_getLogs", params: [{ address: this.decoder.addresses, blockHash: block.blockHash }] },
    ]);
    if (!answer.ok) return null;
    const end = { blockNumber: block.blockNumber, blockHash: block.blockHash, blockTime: block.blockTime };
    return this.store(readRange(target, target, answer.result, end), []);
  }

  /**
   * The general step: the checkpoint's header (its hash checked against the stored one, the index
   * rewound where they differ), the explorer's backfill if configured, then every range to the
   * target (catchUp).
   */
  private async readAndCatchUp(checkpoint: number, head: number, target: number): Promise<number> {
    const { provider, manifest } = this.chain;
    const [stored] = await this.db.select().from(indexedBlocks).where(eq(indexedBlocks.blockNumber, checkpoint));
    if (stored && !this.backfill && checkpoint < target) {
      // The first range's request reads the checkpoint's header again (the block before it): that
      // is the check, so it costs no request of its own. Where it fails, the check below rewinds.
      try {
        return await this.catchUp(checkpoint, target, stored);
      } catch (error) {
        if (!(error instanceof BlockChanged) || error.blockNumber !== checkpoint) throw error;
      }
    }
    const [answer] = await this.chain.calls.many([headerCall(checkpoint)]);
    const checkpointBlock = blockOf(answer, checkpoint, true);
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
    return this.catchUp(checkpoint, target, checkpoint === before ? checkpointBlock : null);
  }

  /** Every range from the checkpoint to the target (./ranges.ts), each stored as it is read. */
  private catchUp(checkpoint: number, target: number, start: StoredBlock | null): Promise<number> {
    const { calls } = this.chain;
    return catchUp({ calls, addresses: this.decoder.addresses, span: this.span }, checkpoint, target, start, (range, read) =>
      this.store(range, read),
    );
  }

  /** The head pushed since the last step (wakeOnHeads), noted as the head; null when none came. */
  private takePushedTip(): Tip | null {
    const tip = this.tips.takePushed();
    if (tip) this.noteHead(tip);
    return tip;
  }

  /**
   * The chain's tip, read now (`eth_getBlockByNumber("latest")`, one call) and noted as the head
   * with when it was read, or that the attempt failed: every head read of the loops (the indexer's
   * step, the follower's poll) goes through here.
   */
  private async readTip(): Promise<Tip> {
    let tip: Tip;
    try {
      tip = await this.tips.read();
    } catch (error) {
      this.headReadFailed = true;
      throw error;
    }
    this.noteHead(tip);
    return tip;
  }

  /** Notes the chain's head as read now. */
  private noteHead(tip: Tip): void {
    this.headReadFailed = false;
    this.headReadAt = Date.now();
    this.state.head = tip.blockNumber;
    this.headHash = tip.blockHash;
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
