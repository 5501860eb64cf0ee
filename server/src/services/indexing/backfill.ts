import { and, desc, eq, gt, lt } from "drizzle-orm";
import type { Chain } from "../../chain/client";
import type { Config } from "../../config";
import type { Database } from "../../db/client";
import { indexedBlocks, indexerState } from "../../db/schema";
import type { Logger } from "../../lib/logger";
import { EventDecoder, type EventRow, type ParsedLog } from "./decoder";
import { STATE_ID, rewindTo, storeRange, type StoredBlock } from "./indexWrites";

/**
 * Blocks behind the head the backfill stops at, leaving the rest to RPC: two epochs, past which a
 * block is finalized on Ethereum and Sepolia, so the explorer and the node agree on every block
 * below it. A reorg above it is the RPC indexer's to see, block by block.
 */
export const BACKFILL_CONFIRMATIONS = 64;
/** Logs Etherscan answers at most in one call (page/offset pages beyond it). */
export const EXPLORER_PAGE_SIZE = 1000;
/** Etherscan pages no further than page x offset = 10,000 results of one query. */
const EXPLORER_RESULT_WINDOW = 10_000;
/** Rate-limit answers waited out for one call before the backfill gives up. */
const RATE_LIMIT_RETRIES = 10;
/** Failed calls (no answer, HTTP error, no JSON) tried again before the backfill gives up. */
const FAILED_CALL_RETRIES = 3;
const CALL_TIMEOUT_MS = 30_000;
/** Blocks the seam check reads back, at most, for the newest one the explorer and the chain agree on. */
const SEAM_WALK = 32;

/** The settings (config.indexer.backfill), and what a test's stand-in may set lower. */
export type BackfillOptions = NonNullable<Config["indexer"]["backfill"]> & {
  /** Logs a call answers at most: Etherscan's 1,000 (a test's stand-in may cut lower). */
  pageSize?: number;
  /** How long a rate-limit answer is waited out (Etherscan counts calls per second). */
  retryMs?: number;
};

/** A log as Etherscan's `logs` module answers it: numbers in hex, a zero index as "0x". */
interface ExplorerLog {
  address: string;
  topics: (string | null)[];
  data: string;
  blockNumber: string;
  blockHash?: string;
  timeStamp: string;
  logIndex: string;
  transactionHash: string;
}

/** A log read from the explorer, with its block's time. */
type FilledLog = ParsedLog & { blockTime: number };
type BlockRow = StoredBlock;

/** The explorer refused for good (a bad key, a plan's cap, an answer it cannot give): RPC takes over. */
class BackfillStopped extends Error {}

const hexNumber = (hex: string) => (hex === "0x" ? 0 : Number(hex));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A first index far behind the head fills the history from an explorer's logs API (Etherscan's API
 * V2 `logs` module: up to 1,000 logs a call over any block range, one address a call) instead of
 * one eth_getLogs per provider range. It stores what it reads as the indexer's range step does (the
 * same rows, the checkpoint moved in the same transaction, only from the checkpoint it started at),
 * up to BACKFILL_CONFIRMATIONS behind the head; the indexer goes on by RPC from wherever it stopped.
 * Explorer calls do not go through the RPC transport: `requests` counts them.
 */
export class ExplorerBackfill {
  /** Calls sent to the explorer (rate-limit answers and retries included). */
  requests = 0;
  /** Of them, the ones answered with the rate-limit answer. */
  rateLimited = 0;
  /** Events stored from the explorer. */
  events = 0;
  /** After a refusal or a seam that did not hold: no more backfills in this process. */
  private stopped = false;
  private lastCallAt = 0;
  private readonly decoder: EventDecoder;
  private readonly pageSize: number;

  constructor(
    private readonly db: Database,
    private readonly chain: Chain,
    private readonly options: BackfillOptions,
    private readonly log: Logger,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {
    this.decoder = new EventDecoder(chain, log);
    this.pageSize = options.pageSize ?? EXPLORER_PAGE_SIZE;
  }

  /**
   * Fills the index from `checkpoint` up to BACKFILL_CONFIRMATIONS behind `head`, when that is at
   * least minBlocks; answers the checkpoint it stored up to (`checkpoint` itself when it did nothing).
   * A refusal stops the backfill with what it stored; anything else (the database, the node) fails
   * the step as the indexer's own errors do, and the next step resumes from the stored checkpoint.
   */
  async run(checkpoint: number, head: number): Promise<number> {
    const target = head - BACKFILL_CONFIRMATIONS;
    if (this.stopped || target - checkpoint < this.options.minBlocks) return checkpoint;
    const started = checkpoint;
    const t0 = Date.now();
    this.log.info({ from: checkpoint + 1, to: target }, "backfilling the index from the explorer");
    const seam = await this.readBlock(target);
    // The newest block this run stored events of, with the hash the explorer gave.
    const stored: { newest: { blockNumber: number; blockHash: string } | null } = { newest: null };
    try {
      checkpoint = await this.fill(checkpoint, target, seam, (block) => (stored.newest = block));
    } catch (error) {
      if (!(error instanceof BackfillStopped)) throw error;
      this.stopped = true;
      checkpoint = await this.storedCheckpoint();
      this.log.error(
        { storedTo: checkpoint, reason: this.redact(error.message) },
        "explorer backfill stopped: the indexer goes on by RPC from the last block it stored",
      );
    }
    if (stored.newest) checkpoint = await this.checkSeam(started, checkpoint, stored.newest, seam);
    this.log.info(
      { to: checkpoint, events: this.events, requests: this.requests, seconds: (Date.now() - t0) / 1000 },
      "explorer backfill done: the indexer goes on by RPC",
    );
    return checkpoint;
  }

  /** Reads, window by window, every address's logs up to `target`, storing each window whole. */
  private async fill(
    checkpoint: number,
    target: number,
    seam: BlockRow,
    stored: (block: { blockNumber: number; blockHash: string }) => void,
  ): Promise<number> {
    // Per address: the logs read ahead of the checkpoint, and the block they are complete through.
    const ahead = new Map(this.decoder.addresses.map((address) => [address, { through: checkpoint, logs: [] as FilledLog[] }]));
    let cursor = checkpoint;
    while (cursor < target) {
      for (const [address, read] of ahead) {
        if (read.through > cursor) continue;
        const page = await this.page(address, cursor + 1, target);
        read.logs.push(...page.logs);
        read.through = page.through;
      }
      // The window every address is complete through: its logs merged in the chain's order.
      const end = Math.min(...[...ahead.values()].map((r) => r.through));
      const logs: FilledLog[] = [];
      for (const read of ahead.values()) {
        logs.push(...read.logs.filter((l) => l.blockNumber <= end));
        read.logs = read.logs.filter((l) => l.blockNumber > end);
      }
      logs.sort((a, b) => a.blockNumber - b.blockNumber || a.index - b.index);
      const rows = logs.map((l) => this.decoder.decode(l, l.blockTime)).filter((row): row is EventRow => row !== null);
      const blocks = new Map<number, BlockRow>();
      for (const l of logs) blocks.set(l.blockNumber, { blockNumber: l.blockNumber, blockHash: l.blockHash, blockTime: l.blockTime });
      // The seam block as the chain has it, so the indexer's next reorg check reads it.
      if (end === target && !blocks.has(target)) blocks.set(target, seam);
      await storeRange(this.db, cursor + 1, end, rows, [...blocks.values()]);
      this.events += rows.length;
      const last = logs[logs.length - 1];
      if (last) stored({ blockNumber: last.blockNumber, blockHash: last.blockHash });
      cursor = end;
    }
    return cursor;
  }

  /**
   * One address's logs from `from`: one call, and the block they are complete through. A page cut
   * at the limit is not truncated: its last block may be partial, so the page is kept up to the
   * block before, and the next call starts at that block. A page that is all one block is paged
   * through with page/offset.
   */
  private async page(address: string, from: number, to: number): Promise<{ logs: FilledLog[]; through: number }> {
    const first = await this.call(address, from, to, 1);
    if (first.length < this.pageSize) return { logs: first, through: to };
    const last = first[first.length - 1].blockNumber;
    if (last > from) return { logs: first.filter((l) => l.blockNumber < last), through: last - 1 };
    const logs = [...first];
    for (let page = 2; ; page++) {
      if (page * this.pageSize > EXPLORER_RESULT_WINDOW)
        throw new BackfillStopped(
          `block ${from} alone holds more than ${EXPLORER_RESULT_WINDOW} logs of ${address}, more than the explorer pages through`,
        );
      const next = await this.call(address, from, from, page);
      logs.push(...next);
      if (next.length < this.pageSize) return { logs, through: from };
    }
  }

  /** One getLogs call, its answer checked and parsed; rate-limit answers waited out, refusals thrown. */
  private async call(address: string, from: number, to: number, page: number): Promise<FilledLog[]> {
    const url = new URL(this.options.apiUrl);
    const query = {
      chainid: String(this.options.chainId),
      module: "logs",
      action: "getLogs",
      address,
      fromBlock: String(from),
      toBlock: String(to),
      page: String(page),
      offset: String(this.pageSize),
      apikey: this.options.apiKey,
    };
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    const retryMs = this.options.retryMs ?? 1000;
    let rateLimits = 0;
    let failures = 0;
    for (;;) {
      await this.pace();
      this.requests++;
      let body: { status?: unknown; message?: unknown; result?: unknown };
      try {
        const answer = await this.fetchImpl(url, { signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
        if (!answer.ok) throw new Error(`HTTP ${answer.status}`);
        body = (await answer.json()) as typeof body;
      } catch (error) {
        if (++failures > FAILED_CALL_RETRIES) throw new BackfillStopped(`the explorer did not answer: ${(error as Error).message}`);
        await sleep(retryMs * 2 ** failures);
        continue;
      }
      if (body.status === "1" && Array.isArray(body.result)) return this.parse(body.result as ExplorerLog[], address, from, to);
      // "No records found" is a refusal in form only.
      if (body.status === "0" && Array.isArray(body.result) && body.result.length === 0) return [];
      const said = typeof body.result === "string" ? body.result : String(body.message);
      if (/rate limit/i.test(said)) {
        this.rateLimited++;
        if (++rateLimits > RATE_LIMIT_RETRIES) throw new BackfillStopped(`the explorer kept refusing for its rate: ${said}`);
        await sleep(retryMs);
        continue;
      }
      throw new BackfillStopped(`the explorer refused: ${said}`);
    }
  }

  /** The explorer's logs as the decoder reads them, each checked to be what was asked for. */
  private parse(result: ExplorerLog[], address: string, from: number, to: number): FilledLog[] {
    const logs = result.map((l) => {
      const blockNumber = hexNumber(l.blockNumber);
      if (l.address?.toLowerCase() !== address || !(blockNumber >= from && blockNumber <= to))
        throw new BackfillStopped(
          `the explorer answered a log of ${l.address} at block ${blockNumber} to a query for ${address} over ${from}-${to}`,
        );
      if (!l.blockHash) throw new BackfillStopped("the explorer's logs carry no block hash, which the index needs");
      return {
        address: l.address,
        topics: l.topics.filter((t): t is string => typeof t === "string" && t.length > 2),
        data: l.data,
        blockNumber,
        blockHash: l.blockHash,
        transactionHash: l.transactionHash,
        index: hexNumber(l.logIndex),
        blockTime: hexNumber(l.timeStamp),
      };
    });
    // Etherscan answers oldest first; the cut in `page` relies on it.
    return logs.sort((a, b) => a.blockNumber - b.blockNumber || a.index - b.index);
  }

  /** Spaces calls to the plan's rate (a little wider: the explorer counts them as they arrive). */
  private async pace(): Promise<void> {
    const gap = 1000 / this.options.callsPerSecond + 10;
    const wait = this.lastCallAt + gap - Date.now();
    if (wait > 0) await sleep(wait);
    this.lastCallAt = Date.now();
  }

  /**
   * The seam: the newest block the explorer gave must have the chain's hash (its hash pins every
   * block below it). If not (the explorer on another fork, or wrong), the stored blocks of this run
   * are read back from the newest until one agrees, and everything above it is discarded in one
   * transaction; the indexer then reads it by RPC. Checked here rather than left to the indexer's
   * reorg check, which reads only the checkpoint's block: the seam block above, read from the chain.
   */
  private async checkSeam(
    started: number,
    checkpoint: number,
    newest: { blockNumber: number; blockHash: string },
    seam: BlockRow,
  ): Promise<number> {
    const onChain = newest.blockNumber === seam.blockNumber ? seam : await this.readBlock(newest.blockNumber);
    if (onChain.blockHash === newest.blockHash) return checkpoint;
    this.stopped = true;
    const stored = await this.db
      .select()
      .from(indexedBlocks)
      .where(and(gt(indexedBlocks.blockNumber, started), lt(indexedBlocks.blockNumber, newest.blockNumber)))
      .orderBy(desc(indexedBlocks.blockNumber))
      .limit(SEAM_WALK);
    let agreed = started;
    for (const block of stored) {
      if ((await this.readBlock(block.blockNumber)).blockHash === block.blockHash) {
        agreed = block.blockNumber;
        break;
      }
    }
    // As a reorganisation's rewind: a batch chunk the discarded events confirmed is open again.
    await rewindTo(this.db, agreed, this.log, checkpoint);
    this.log.warn(
      { block: newest.blockNumber, explorer: newest.blockHash, chain: onChain.blockHash, keptTo: agreed },
      "explorer backfill: the explorer's newest block is not the chain's; what it gave above the last agreeing block is discarded",
    );
    return agreed;
  }

  private async storedCheckpoint(): Promise<number> {
    const [row] = await this.db.select().from(indexerState).where(eq(indexerState.id, STATE_ID));
    return row.checkpointBlock;
  }

  private async readBlock(n: number): Promise<BlockRow> {
    const block = await this.chain.provider.getBlock(n);
    if (!block || !block.hash) throw new Error(`block ${n} is not available yet`);
    return { blockNumber: n, blockHash: block.hash, blockTime: block.timestamp };
  }

  /** The key never reaches a log: it rides in the explorer URL's query, which errors may quote. */
  private redact(text: string): string {
    return this.options.apiKey ? text.split(this.options.apiKey).join("<redacted>") : text;
  }
}
