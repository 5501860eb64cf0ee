import { and, between, desc, eq, getTableColumns, gt, lte, sql, SQL } from "drizzle-orm";
import { ZeroAddress } from "ethers";
import type { Database } from "../../db/client";
import { chainEvents, indexedBlocks, indexerState } from "../../db/schema";
import { historyType } from "@common/events";
import { exactTokenAmount, transferMoved } from "@common/amounts";
import { MULTIPLIER_BASE } from "@common/token";
import type { EventPosition } from "@common/api/token";
import { AnswersPerVersion } from "./answersPerVersion";
import type { ContractEvent, EventPage, HistoryEntry, HistoryPage, SafeVia, TransferMoved } from "@common/apiTypes";

export type { ContractEvent, EventPage, HistoryEntry, HistoryPage };

export type EventRecord = typeof chainEvents.$inferSelect;

/** A row with the reward multiplier in effect at its log (Transfer rows; null before any RewardMultiplier). */
type RowWithMultiplier = EventRecord & { multiplier: string | null };

/**
 * The multiplier in effect at each selected Transfer log: the value of the newest RewardMultiplier
 * event before it in (block, log index) order. One backward scan of chain_events_name_order that
 * stops at its first row, per Transfer row of a page (the outer table is named, not aliased, so
 * `chain_events.` here is the outer row; the inner one is `m`).
 */
export const multiplierAtLog = sql<string | null>`case when chain_events.event_name = 'Transfer' then (
  select m.args->>'value' from chain_events m
  where m.event_name = 'RewardMultiplier' and m.contract = 'USDX'
    and (m.block_number, m.log_index) < (chain_events.block_number, chain_events.log_index)
  order by m.block_number desc, m.log_index desc limit 1) end`;

const withMultiplier = { ...getTableColumns(chainEvents), multiplier: multiplierAtLog };

/** A Transfer's shares moved and what they were worth, at the multiplier of its log (1e18 if none came before). */
export function movedBy(value: string, multiplier: string | null): TransferMoved {
  const moved = transferMoved(BigInt(value), multiplier === null ? MULTIPLIER_BASE : BigInt(multiplier));
  return { sharesMoved: moved.shares.toString(), amountMoved: moved.amount.toString() };
}

/** Where the index stands: its checkpoint and the stored hash of that block (null when none is stored). */
export interface IndexHead {
  block: number;
  hash: string | null;
}

/** Events older than a cursor's place (the declaration reads "block-logIndex", as a page hands it out). */
function before(cursor: EventPosition): SQL {
  return sql`(${chainEvents.blockNumber}, ${chainEvents.logIndex}) < (${cursor.blockNumber}, ${cursor.logIndex})`;
}

function toEvent(row: RowWithMultiplier): ContractEvent {
  const event: ContractEvent = {
    name: row.eventName,
    signature: row.signature,
    contract: row.contract,
    transactionHash: row.transactionHash,
    logIndex: row.logIndex,
    blockNumber: row.blockNumber,
    timestamp: row.blockTime,
    args: row.args,
  };
  if (row.eventName === "Transfer" && typeof row.args.value === "string") Object.assign(event, movedBy(row.args.value, row.multiplier));
  return event;
}

// Pages of events kept per state of the index: every dashboard asks for the same first page.
const PAGE_CACHE_ENTRIES = 256;

/** Reads events and account histories from the index; nothing here asks the chain. */
export class EventsService {
  /** Pages of `list` as of the index's version (they change only when the index does). */
  private readonly pages = new AnswersPerVersion<EventPage>(PAGE_CACHE_ENTRIES);

  constructor(
    private readonly db: Database,
    private readonly deploymentBlock: number,
    /** The index's version as of now: it changes whenever the index does. */
    private readonly indexVersion: () => Promise<number>,
    /** Which Safe executed each transaction (services/safes/executed.ts): one query per page. */
    private readonly safesExecuting: (transactionHashes: string[]) => Promise<Map<string, SafeVia>> = async () => new Map(),
  ) {}

  /** The newest block the index covers, or null before the first step. */
  async indexedBlock(): Promise<number | null> {
    const [row] = await this.db.select({ block: indexerState.checkpointBlock }).from(indexerState);
    return row && row.block >= this.deploymentBlock ? row.block : null;
  }

  /**
   * Events in [fromBlock, toBlock], newest first, `limit` at most. When older matching events
   * exist, `hasMore` is true, `range.fromBlock` is the oldest block returned and `cursor` names the
   * oldest event returned: pass it back to continue exactly where this page stopped, even inside a
   * block (a batch payment puts hundreds of events in one). Asking for the blocks before
   * `range.fromBlock` instead (the spec's 'Load Previous Events') works too, but skips the rest of
   * a block this page split.
   */
  async list(query: {
    fromBlock?: number;
    toBlock?: number;
    limit: number;
    eventName: string | null;
    cursor?: EventPosition;
  }): Promise<EventPage> {
    const key = JSON.stringify([query.fromBlock, query.toBlock, query.limit, query.eventName, query.cursor]);
    // A failed read is not kept.
    const page = await this.pages.get(await this.indexVersion(), key, () => this.readPage(query));
    // Read past the cache: a proposal is found executed without the index changing.
    return { ...page, events: await this.viaSafes(page.events, (e) => e.transactionHash) };
  }

  /** `rows` with the Safe that executed each one's transaction, where one did (copies: a cached page stays as it was). */
  private async viaSafes<T extends object>(rows: T[], hashOf: (row: T) => string): Promise<T[]> {
    const via = await this.safesExecuting(rows.map(hashOf));
    if (via.size === 0) return rows;
    return rows.map((row) => {
      const safe = via.get(hashOf(row).toLowerCase());
      return safe ? { ...row, viaSafe: safe } : row;
    });
  }

  private async readPage(query: {
    fromBlock?: number;
    toBlock?: number;
    limit: number;
    eventName: string | null;
    cursor?: EventPosition;
  }): Promise<EventPage> {
    const latest = await this.indexedBlock();
    const toBlock = Math.min(query.toBlock ?? latest ?? this.deploymentBlock, latest ?? -1);
    const fromBlock = query.fromBlock ?? this.deploymentBlock;
    if (latest === null || toBlock < fromBlock) {
      return { events: [], range: { fromBlock, toBlock: Math.max(toBlock, fromBlock), hasMore: false }, cursor: null };
    }
    const rows = await this.db
      .select(withMultiplier)
      .from(chainEvents)
      .where(
        and(
          between(chainEvents.blockNumber, fromBlock, toBlock),
          query.eventName ? eq(chainEvents.eventName, query.eventName) : undefined,
          query.cursor !== undefined ? before(query.cursor) : undefined,
        ),
      )
      .orderBy(desc(chainEvents.blockNumber), desc(chainEvents.logIndex))
      .limit(query.limit + 1);
    const page = rows.slice(0, query.limit);
    const hasMore = rows.length > query.limit;
    const last = page[page.length - 1];
    return {
      events: page.map(toEvent),
      range: { fromBlock: hasMore ? last.blockNumber : fromBlock, toBlock, hasMore },
      cursor: hasMore ? `${last.blockNumber}-${last.logIndex}` : null,
    };
  }

  /**
   * An account's Transfer, Mint and Burn history, newest first, `limit` at a time. Sent and
   * received transfers are read as two index-ordered queries and merged: an OR of the two would
   * make the database sort every transfer the account ever made. Each entry says what really moved
   * (`sharesMoved`, `amountMoved`) at the multiplier of its log.
   */
  async history(address: string, limit: number, cursor: EventPosition | undefined): Promise<HistoryPage> {
    const account = address.toLowerCase();
    const older = cursor !== undefined ? before(cursor) : undefined;
    const side = (column: typeof chainEvents.fromAddress | typeof chainEvents.toAddress) =>
      this.db
        .select(withMultiplier)
        .from(chainEvents)
        .where(and(eq(column, account), eq(chainEvents.eventName, "Transfer"), older))
        .orderBy(desc(chainEvents.blockNumber), desc(chainEvents.logIndex))
        .limit(limit + 1);
    const [sent, received] = await Promise.all([side(chainEvents.fromAddress), side(chainEvents.toAddress)]);
    const merged = new Map<string, RowWithMultiplier>();
    for (const row of [...sent, ...received]) merged.set(`${row.blockNumber}-${row.logIndex}`, row); // a transfer to oneself is in both
    const rows = [...merged.values()].sort((a, b) => b.blockNumber - a.blockNumber || b.logIndex - a.logIndex).slice(0, limit + 1);
    const items = rows.slice(0, limit).map((row): HistoryEntry => {
      const { from, to, value } = row.args as Record<string, string>;
      return {
        hash: row.transactionHash,
        type: historyType(from, to),
        from,
        to,
        amount: exactTokenAmount(BigInt(value)),
        amountRaw: value,
        ...movedBy(value, row.multiplier),
        blockNumber: row.blockNumber,
        logIndex: row.logIndex,
        timestamp: row.blockTime,
        status: "confirmed",
      };
    });
    const last = items[items.length - 1];
    return {
      items: await this.viaSafes(items, (item) => item.hash),
      nextCursor: rows.length > limit && last ? `${last.blockNumber}-${last.logIndex}` : null,
    };
  }

  /** The index's checkpoint and the hash stored for that block (null when the index has no state yet). */
  async head(): Promise<IndexHead | null> {
    const [row] = await this.db
      .select({ block: indexerState.checkpointBlock, hash: indexedBlocks.blockHash })
      .from(indexerState)
      .leftJoin(indexedBlocks, eq(indexedBlocks.blockNumber, indexerState.checkpointBlock));
    return row ? { block: row.block, hash: row.hash } : null;
  }

  /**
   * USDX events matching any of `filters` in blocks (afterBlock, toBlock], in chain order: one
   * query, a UNION ALL branch per filter, each on its own index (never every Transfer).
   */
  async eventsIn(filters: readonly EventFilter[], afterBlock: number, toBlock: number): Promise<EventRecord[]> {
    const branch = (f: EventFilter) =>
      this.db
        .select()
        .from(chainEvents)
        .where(
          and(
            eq(chainEvents.eventName, f.eventName),
            f.from !== undefined ? eq(chainEvents.fromAddress, f.from) : undefined,
            f.to !== undefined ? eq(chainEvents.toAddress, f.to) : undefined,
            eq(chainEvents.contract, "USDX"),
            gt(chainEvents.blockNumber, afterBlock),
            lte(chainEvents.blockNumber, toBlock),
          ),
        );
    const [first, ...rest] = filters;
    let query = branch(first).$dynamic();
    for (const f of rest) query = query.unionAll(branch(f)).$dynamic();
    return inChainOrder((await query) as EventRecord[]);
  }

  /**
   * What a fold that stopped at `previous` needs, in one round trip (a request after each new block
   * pays it): the index's head now, and, if the index still holds `previous`'s block with the same
   * hash (nothing at or below it was rewound), the events matching `filters` after it up to the head.
   * `rows` is null when it does not (a rewind, a reorg, a new deployment): replay with eventsIn.
   */
  async changesSince(
    filters: readonly EventFilter[],
    previous: IndexHead,
  ): Promise<{ head: IndexHead | null; rows: EventRecord[] | null }> {
    if (previous.hash === null) return { head: await this.head(), rows: null };
    const branches = filters.map(
      (f) =>
        sql`(select c.* from chain_events c where c.event_name = ${f.eventName}${f.from !== undefined ? sql` and c.from_address = ${f.from}` : sql``}${
          f.to !== undefined ? sql` and c.to_address = ${f.to}` : sql``
        } and c.contract = 'USDX' and c.block_number > ${previous.block} and c.block_number <= h.head_block and h.previous_hash = ${previous.hash})`,
    );
    const result = (await this.db.execute(sql`
      select h.head_block, h.head_hash, h.previous_hash, e.*
      from (
        select s.checkpoint_block as head_block, b.block_hash as head_hash, p.block_hash as previous_hash
        from indexer_state s
        left join indexed_blocks b on b.block_number = s.checkpoint_block
        left join indexed_blocks p on p.block_number = ${previous.block}
      ) h
      left join lateral (${sql.join(branches, sql` union all `)}) e on true`)) as unknown as { rows: Record<string, unknown>[] };
    const [first] = result.rows;
    if (!first) return { head: null, rows: null };
    const head = { block: Number(first.head_block), hash: (first.head_hash as string | null) ?? null };
    if (first.previous_hash !== previous.hash || head.block < previous.block) return { head, rows: null };
    return { head, rows: inChainOrder(result.rows.filter((r) => r.block_number !== null && r.block_number !== undefined).map(fromRawRow)) };
  }
}

/** Which USDX events a fold reads: one event name, and for Transfer perhaps its sender or receiver (lower-case). */
export interface EventFilter {
  eventName: string;
  from?: string;
  to?: string;
}

/** Mints, burns and multiplier changes: what the supply chart replays. */
export const SUPPLY_EVENTS: readonly EventFilter[] = [
  { eventName: "Transfer", from: ZeroAddress.toLowerCase() },
  { eventName: "Transfer", to: ZeroAddress.toLowerCase() },
  { eventName: "RewardMultiplier" },
];

function inChainOrder(rows: EventRecord[]): EventRecord[] {
  return rows.sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
}

/** A chain_events row as a raw query answers it (snake_case; int8 as a string or a bigint, jsonb perhaps as text). */
function fromRawRow(r: Record<string, unknown>): EventRecord {
  const text = (v: unknown) => (v === null || v === undefined ? null : String(v));
  return {
    blockNumber: Number(r.block_number),
    logIndex: Number(r.log_index),
    blockHash: String(r.block_hash),
    blockTime: Number(r.block_time),
    transactionHash: String(r.transaction_hash),
    contract: String(r.contract),
    eventName: String(r.event_name),
    signature: String(r.signature),
    args: (typeof r.args === "string" ? JSON.parse(r.args) : r.args) as EventRecord["args"],
    fromAddress: text(r.from_address),
    toAddress: text(r.to_address),
    account: text(r.account),
  };
}
