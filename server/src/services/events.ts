import { and, asc, between, desc, eq, inArray, sql, SQL } from "drizzle-orm";
import type { Database } from "../db/client";
import { chainEvents, indexerState } from "../db/schema";
import { historyType, HistoryType } from "../../../common/events";
import { exactTokenAmount } from "../../../common/amounts";
import { badRequest } from "../errors";
import type { ContractEvent, EventPage, HistoryEntry, HistoryPage } from "../../../common/apiTypes";

export type { ContractEvent, EventPage, HistoryEntry, HistoryPage };

type EventRecord = typeof chainEvents.$inferSelect;





/** Events older than a cursor ("block-logIndex", as a page hands it out). */
function before(cursor: string): SQL {
  const match = /^(\d{1,15})-(\d{1,9})$/.exec(cursor);
  if (!match) throw badRequest("cursor must be the cursor of an earlier page.");
  return sql`(${chainEvents.blockNumber}, ${chainEvents.logIndex}) < (${Number(match[1])}, ${Number(match[2])})`;
}

function toEvent(row: EventRecord): ContractEvent {
  return {
    name: row.eventName,
    signature: row.signature,
    contract: row.contract,
    transactionHash: row.transactionHash,
    logIndex: row.logIndex,
    blockNumber: row.blockNumber,
    timestamp: row.blockTime,
    args: row.args,
  };
}

// Pages of events kept per state of the index: every dashboard asks for the same first page.
const PAGE_CACHE_ENTRIES = 256;

/** Reads events and account histories from the index; nothing here asks the chain. */
export class EventsService {
  /** Pages of `list` as of index version `version` (they change only when the index does). */
  private pages: { version: number; byQuery: Map<string, Promise<EventPage>> } = { version: -1, byQuery: new Map() };

  constructor(
    private readonly db: Database,
    private readonly deploymentBlock: number,
    /** The indexer's version: it changes whenever the index does. */
    private readonly indexVersion: () => number,
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
  list(query: { fromBlock?: number; toBlock?: number; limit: number; eventName: string | null; cursor?: string }): Promise<EventPage> {
    const version = this.indexVersion();
    if (this.pages.version !== version || this.pages.byQuery.size >= PAGE_CACHE_ENTRIES) this.pages = { version, byQuery: new Map() };
    const key = JSON.stringify([query.fromBlock, query.toBlock, query.limit, query.eventName, query.cursor]);
    let page = this.pages.byQuery.get(key);
    if (!page) {
      const pages = this.pages.byQuery;
      page = this.readPage(query);
      pages.set(key, page);
      page.catch(() => pages.delete(key)); // a refusal (bad range or cursor) or a failed read is not kept
    }
    return page;
  }

  private async readPage(query: { fromBlock?: number; toBlock?: number; limit: number; eventName: string | null; cursor?: string }): Promise<EventPage> {
    const latest = await this.indexedBlock();
    const toBlock = Math.min(query.toBlock ?? latest ?? this.deploymentBlock, latest ?? -1);
    const fromBlock = query.fromBlock ?? this.deploymentBlock;
    if (query.fromBlock !== undefined && query.toBlock !== undefined && query.fromBlock > query.toBlock) {
      throw badRequest(`fromBlock (${query.fromBlock}) is after toBlock (${query.toBlock}).`);
    }
    if (latest === null || toBlock < fromBlock) {
      return { events: [], range: { fromBlock, toBlock: Math.max(toBlock, fromBlock), hasMore: false }, cursor: null };
    }
    const rows = await this.db
      .select()
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
   * make the database sort every transfer the account ever made.
   */
  async history(address: string, limit: number, cursor: string | undefined): Promise<HistoryPage> {
    const account = address.toLowerCase();
    const older = cursor !== undefined ? before(cursor) : undefined;
    const side = (column: typeof chainEvents.fromAddress | typeof chainEvents.toAddress) =>
      this.db
        .select()
        .from(chainEvents)
        .where(and(eq(column, account), eq(chainEvents.eventName, "Transfer"), older))
        .orderBy(desc(chainEvents.blockNumber), desc(chainEvents.logIndex))
        .limit(limit + 1);
    const [sent, received] = await Promise.all([side(chainEvents.fromAddress), side(chainEvents.toAddress)]);
    const merged = new Map<string, EventRecord>();
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
        blockNumber: row.blockNumber,
        logIndex: row.logIndex,
        timestamp: row.blockTime,
        status: "confirmed",
      };
    });
    const last = items[items.length - 1];
    return { items, nextCursor: rows.length > limit && last ? `${last.blockNumber}-${last.logIndex}` : null };
  }

  /** All events of the given names in chain order (for replays such as the supply chart). */
  async replay(eventNames: string[]): Promise<EventRecord[]> {
    return this.db
      .select()
      .from(chainEvents)
      .where(and(eq(chainEvents.contract, "USDX"), inArray(chainEvents.eventName, eventNames)))
      .orderBy(asc(chainEvents.blockNumber), asc(chainEvents.logIndex));
  }

  /** Distinct accounts named by events of one name (RoleGranted for a role, AccountBlocked). */
  async accountsNamedBy(eventName: string, role?: string): Promise<string[]> {
    const rows = await this.db
      .selectDistinct({ args: chainEvents.args })
      .from(chainEvents)
      .where(and(eq(chainEvents.eventName, eventName), role ? sql`${chainEvents.args}->>'role' = ${role}` : undefined));
    return [...new Set(rows.map((r) => String(r.args.account)))];
  }
}
