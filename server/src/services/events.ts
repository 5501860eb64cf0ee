import { and, asc, between, desc, eq, inArray, lt, or, sql, SQL } from "drizzle-orm";
import { formatUnits } from "ethers";
import type { Database } from "../db/client";
import { chainEvents, indexerState } from "../db/schema";
import { historyType, HistoryType } from "../../../common/events";
import { TOKEN_DECIMALS } from "../../../common/token";
import { badRequest } from "../errors";

type EventRecord = typeof chainEvents.$inferSelect;

/** A contract event as the API answers it (spec section 3, plus its decoded arguments). */
export interface ContractEvent {
  name: string;
  signature: string;
  contract: string;
  transactionHash: string;
  logIndex: number;
  blockNumber: number;
  /** Unix seconds. */
  timestamp: number;
  args: Record<string, string | boolean>;
}

export interface EventPage {
  events: ContractEvent[];
  range: { fromBlock: number; toBlock: number; hasMore: boolean };
}

export interface HistoryEntry {
  hash: string;
  type: HistoryType;
  from: string;
  to: string;
  /** USDX, as an exact decimal string. */
  amount: string;
  /** Base units (18 decimals). */
  amountRaw: string;
  blockNumber: number;
  logIndex: number;
  timestamp: number;
  status: "confirmed";
}

export interface HistoryPage {
  items: HistoryEntry[];
  /** Pass back as `cursor` for the next, older page; null on the last page. */
  nextCursor: string | null;
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

/** Reads events and account histories from the index; nothing here asks the chain. */
export class EventsService {
  constructor(
    private readonly db: Database,
    private readonly deploymentBlock: number,
  ) {}

  /** The newest block the index covers, or null before the first step. */
  async indexedBlock(): Promise<number | null> {
    const [row] = await this.db.select({ block: indexerState.checkpointBlock }).from(indexerState);
    return row && row.block >= this.deploymentBlock ? row.block : null;
  }

  /**
   * Events in [fromBlock, toBlock], newest first, at most `limit` of them except that a block is
   * never split: when the limit falls inside a block, the rest of that block comes too. When older
   * matching events exist, `range.fromBlock` is the oldest block returned and `hasMore` is true, so
   * the next page asks for blocks before it ('Load Previous Events').
   */
  async list(query: { fromBlock?: number; toBlock?: number; limit: number; eventName: string | null }): Promise<EventPage> {
    const latest = await this.indexedBlock();
    const toBlock = Math.min(query.toBlock ?? latest ?? this.deploymentBlock, latest ?? -1);
    const fromBlock = query.fromBlock ?? this.deploymentBlock;
    if (query.fromBlock !== undefined && query.toBlock !== undefined && query.fromBlock > query.toBlock) {
      throw badRequest(`fromBlock (${query.fromBlock}) is after toBlock (${query.toBlock}).`);
    }
    if (latest === null || toBlock < fromBlock) {
      return { events: [], range: { fromBlock, toBlock: Math.max(toBlock, fromBlock), hasMore: false } };
    }
    const byName: SQL | undefined = query.eventName ? eq(chainEvents.eventName, query.eventName) : undefined;
    const rows = await this.db
      .select()
      .from(chainEvents)
      .where(and(between(chainEvents.blockNumber, fromBlock, toBlock), byName))
      .orderBy(desc(chainEvents.blockNumber), desc(chainEvents.logIndex))
      .limit(query.limit + 1);
    if (rows.length <= query.limit) {
      return { events: rows.map(toEvent), range: { fromBlock, toBlock, hasMore: false } };
    }
    const page = rows.slice(0, query.limit);
    const last = page[page.length - 1];
    const restOfBlock = await this.db
      .select()
      .from(chainEvents)
      .where(and(eq(chainEvents.blockNumber, last.blockNumber), lt(chainEvents.logIndex, last.logIndex), byName))
      .orderBy(desc(chainEvents.logIndex));
    const [older] = await this.db
      .select({ n: chainEvents.blockNumber })
      .from(chainEvents)
      .where(and(between(chainEvents.blockNumber, fromBlock, last.blockNumber - 1), byName))
      .limit(1);
    return {
      events: [...page, ...restOfBlock].map(toEvent),
      range: { fromBlock: older ? last.blockNumber : fromBlock, toBlock, hasMore: Boolean(older) },
    };
  }

  /** An account's Transfer, Mint and Burn history, newest first, `limit` at a time. */
  async history(address: string, limit: number, cursor: string | undefined): Promise<HistoryPage> {
    const account = address.toLowerCase();
    let before: SQL | undefined;
    if (cursor !== undefined) {
      const match = /^(\d+)-(\d+)$/.exec(cursor);
      if (!match) throw badRequest("cursor must be the nextCursor of an earlier page.");
      before = sql`(${chainEvents.blockNumber}, ${chainEvents.logIndex}) < (${Number(match[1])}, ${Number(match[2])})`;
    }
    const rows = await this.db
      .select()
      .from(chainEvents)
      .where(
        and(
          eq(chainEvents.eventName, "Transfer"),
          eq(chainEvents.contract, "USDX"),
          or(eq(chainEvents.fromAddress, account), eq(chainEvents.toAddress, account)),
          before,
        ),
      )
      .orderBy(desc(chainEvents.blockNumber), desc(chainEvents.logIndex))
      .limit(limit + 1);
    const items = rows.slice(0, limit).map((row): HistoryEntry => {
      const { from, to, value } = row.args as Record<string, string>;
      return {
        hash: row.transactionHash,
        type: historyType(from, to),
        from,
        to,
        amount: formatUnits(BigInt(value), TOKEN_DECIMALS).replace(/\.0$/, ""),
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
