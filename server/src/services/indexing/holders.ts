import { ZeroAddress } from "ethers";
import { exactTokenAmount, transferMoved } from "@common/amounts";
import { DEFAULT_ORDER, type HolderSort, type SortOrder } from "@common/holders";
import { MULTIPLIER_BASE } from "@common/token";
import type { Holder, HolderPage } from "@common/apiTypes";
import type { EventFilter, EventRecord, EventsService } from "./events";
import { IndexFold } from "./folds";
import type { CsvDownload } from "../../lib/csv";
import { errorText, type Logger } from "../../lib/logger";

export type { Holder, HolderPage };

/**
 * Who holds USDX: every Transfer and every multiplier change of the index folded with the
 * contract's own arithmetic (a Transfer moves floor(value * 1e18 / multiplier) shares, at the
 * multiplier in effect at its log), so each balance, floor(shares * multiplier / 1e18), is what
 * balanceOf answers as of the index's block. A holder is an account with shares above 0; with the
 * multiplier never below 1.0 that is exactly an account whose balance is above 0. The zero address
 * (mints and burns) is never one.
 */

/** Every USDX Transfer (not only mints and burns) and every multiplier change. */
export const HOLDER_EVENTS: readonly EventFilter[] = [{ eventName: "Transfer" }, { eventName: "RewardMultiplier" }];

/** A block in which a Transfer touched the account; the log index orders two in one block. */
interface Activity {
  blockNumber: number;
  timestamp: number;
  logIndex: number;
}

/**
 * One account as the fold knows it. Never changed once made: a Transfer puts a new record in the
 * map, so a snapshot taken for an earlier generation (a page or an export being written) keeps its
 * figures while the fold moves on.
 */
interface AccountRecord {
  readonly address: string; // checksummed, as the event's args carry it
  readonly hex: string; // the 40 hex digits, lower case: what a search looks in
  readonly shares: bigint;
  readonly first: Activity;
  readonly last: Activity;
}

export interface HolderBook {
  /** Every account a Transfer ever touched, by lower-case address (holders and former holders). */
  accounts: Map<string, AccountRecord>;
  totalShares: bigint;
  multiplier: bigint;
}

const ZERO = ZeroAddress.toLowerCase();

function touch(book: HolderBook, address: string, delta: bigint, row: EventRecord): void {
  const key = address.toLowerCase();
  if (key === ZERO) return;
  const at: Activity = { blockNumber: row.blockNumber, timestamp: row.blockTime, logIndex: row.logIndex };
  const old = book.accounts.get(key);
  book.accounts.set(key, { address, hex: key.slice(2), shares: (old?.shares ?? 0n) + delta, first: old?.first ?? at, last: at });
}

/** Applies one event, in chain order, as the contract did (a transfer to oneself moves nothing, but is activity). */
export function applyHolderEvent(book: HolderBook, row: EventRecord): void {
  const args = row.args as Record<string, string>;
  if (row.eventName === "RewardMultiplier") {
    book.multiplier = BigInt(args.value);
    return;
  }
  if (row.eventName !== "Transfer") return;
  const { shares } = transferMoved(BigInt(args.value), book.multiplier);
  if (args.from.toLowerCase() === ZERO) book.totalShares += shares;
  if (args.to.toLowerCase() === ZERO) book.totalShares -= shares;
  touch(book, args.from, -shares, row);
  touch(book, args.to, shares, row);
}

const compareBigint = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);
const compareHex = (a: AccountRecord, b: AccountRecord) => (a.hex < b.hex ? -1 : a.hex > b.hex ? 1 : 0);
const compareActivity = (a: Activity, b: Activity) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex;

/** Each sort, ascending; ties go by address. Balance sorts by shares: the balance is a non-decreasing function of them. */
const ASCENDING: Record<HolderSort, (a: AccountRecord, b: AccountRecord) => number> = {
  balance: (a, b) => compareBigint(a.shares, b.shares) || compareHex(a, b),
  address: compareHex,
  firstActivity: (a, b) => compareActivity(a.first, b.first) || compareHex(a, b),
  lastActivity: (a, b) => compareActivity(a.last, b.last) || compareHex(a, b),
};

/** The holders as of one generation of the fold, and the orders and searches asked of it so far. */
interface Snapshot {
  generation: number;
  multiplier: bigint;
  totalShares: bigint;
  totalSupply: bigint;
  holders: AccountRecord[];
  sorted: Map<HolderSort, AccountRecord[]>;
  /** Searches over a sorted array, by sort and search text; a few dozen kept. */
  searches: Map<string, AccountRecord[]>;
}

const SEARCHES_KEPT = 64;
/** Rows an export writes at a time before giving other requests their turn. */
export const EXPORT_CHUNK_ROWS = 1000;

export interface HolderQuery {
  sort: HolderSort;
  order?: SortOrder;
  search?: string;
}

export const HOLDERS_CSV_HEADER = [
  "Address",
  "Balance",
  "Shares",
  "Share of supply",
  "First activity block",
  "First activity time",
  "Last activity block",
  "Last activity time",
] as const;

/**
 * Pages of holders, the CSV export, and the holder count, from one incremental fold (a new block
 * costs a read of its Transfers only). Sorting 100,000 holders takes a while, so each order is
 * sorted once per generation of the fold (when a Transfer or multiplier change arrives), and a page
 * is a slice of it; a search is one pass over that order, kept per search text.
 */
export class HoldersService {
  private readonly fold: IndexFold<HolderBook>;
  private snapshot: Snapshot | null = null;
  /** warm()'s work, once started (null before): a test waits for it. */
  warming: Promise<void> | null = null;

  constructor(events: EventsService, indexVersion: () => Promise<number>) {
    this.fold = new IndexFold(events, indexVersion, {
      filters: HOLDER_EVENTS,
      initial: () => ({ accounts: new Map(), totalShares: 0n, multiplier: MULTIPLIER_BASE }),
      apply: applyHolderEvent,
    });
  }

  /**
   * Builds the fold and the default order at start, so the first visitor after a restart does not
   * wait for every Transfer to be replayed (seconds at 100,000 holders); later pages only apply the
   * events since. Resolves either way: a failure here is the first request's to retry.
   */
  warm(log: Logger): Promise<void> {
    this.warming ??= this.page({ sort: "balance", offset: 0, limit: 1 }).then(
      () => undefined,
      (error: unknown) => log.debug({ err: errorText(error) }, "holders not warmed at start; the first request builds them"),
    );
    return this.warming;
  }

  async page(query: HolderQuery & { offset: number; limit: number }): Promise<HolderPage> {
    const { snapshot, head } = await this.current();
    const order = query.order ?? DEFAULT_ORDER[query.sort];
    const matching = this.matching(snapshot, query);
    const rows: Holder[] = [];
    for (let i = query.offset; i < Math.min(matching.length, query.offset + query.limit); i++) {
      rows.push(toHolder(at(matching, i, order), snapshot));
    }
    return {
      holders: rows,
      holderCount: snapshot.holders.length,
      matching: matching.length,
      offset: query.offset,
      limit: query.limit,
      sort: query.sort,
      order,
      totalSupply: snapshot.totalSupply.toString(),
      totalShares: snapshot.totalShares.toString(),
      rewardMultiplier: snapshot.multiplier.toString(),
      blockNumber: head?.block ?? null,
    };
  }

  /**
   * The export (usdx_holders.csv): the header, then every matching holder in the asked order, EXPORT_CHUNK_ROWS
   * rows at a time (sendCsv makes each cell safe for a spreadsheet). The rows are those of the
   * snapshot current when it was asked for, however long the writing takes.
   */
  async csv(query: HolderQuery): Promise<CsvDownload> {
    const { snapshot } = await this.current();
    const order = query.order ?? DEFAULT_ORDER[query.sort];
    const matching = this.matching(snapshot, query);
    function* chunks() {
      for (let start = 0; start < matching.length; start += EXPORT_CHUNK_ROWS) {
        const lines: string[][] = [];
        for (let i = start; i < Math.min(matching.length, start + EXPORT_CHUNK_ROWS); i++)
          lines.push(csvRow(toHolder(at(matching, i, order), snapshot)));
        yield lines;
      }
    }
    return { fileName: "usdx_holders.csv", header: HOLDERS_CSV_HEADER, chunks: chunks() };
  }

  /** The fold as of now, and its snapshot (made once per generation). */
  private async current(): Promise<{ snapshot: Snapshot; head: { block: number } | null }> {
    const { state, generation, head } = await this.fold.get();
    let snapshot = this.snapshot;
    if (!snapshot || snapshot.generation !== generation) {
      // Synchronous from here: no event is applied while the state is copied.
      const holders: AccountRecord[] = [];
      for (const account of state.accounts.values()) if (account.shares > 0n) holders.push(account);
      snapshot = this.snapshot = {
        generation,
        multiplier: state.multiplier,
        totalShares: state.totalShares,
        totalSupply: (state.totalShares * state.multiplier) / MULTIPLIER_BASE,
        holders,
        sorted: new Map(),
        searches: new Map(),
      };
    }
    return { snapshot, head };
  }

  /** The holders in `query.sort`'s ascending order that its search matches. */
  private matching(snapshot: Snapshot, query: HolderQuery): AccountRecord[] {
    let sorted = snapshot.sorted.get(query.sort);
    if (!sorted) {
      sorted = [...snapshot.holders].sort(ASCENDING[query.sort]);
      snapshot.sorted.set(query.sort, sorted);
    }
    const search = (query.search ?? "").toLowerCase();
    if (search === "" || search === "0x") return sorted;
    const key = `${query.sort}:${search}`;
    let found = snapshot.searches.get(key);
    if (!found) {
      found = sorted.filter(searchMatcher(search));
      if (snapshot.searches.size >= SEARCHES_KEPT) snapshot.searches.clear();
      snapshot.searches.set(key, found);
    }
    return found;
  }
}

/**
 * A search: hex digits anywhere in the address's 40 (so "0" does not match every address through
 * its "0x"), or, after a leading 0x, the address's beginning. Case never matters.
 */
export function searchMatcher(search: string): (account: { hex: string }) => boolean {
  const text = search.toLowerCase();
  if (text.startsWith("0x")) {
    const prefix = text.slice(2);
    return (account) => account.hex.startsWith(prefix);
  }
  return (account) => account.hex.includes(text);
}

/** The i-th of `rows` in `order` (desc is asc read from the end). */
function at<T>(rows: T[], i: number, order: SortOrder): T {
  return order === "asc" ? rows[i] : rows[rows.length - 1 - i];
}

/** balance / supply as a decimal fraction rounded down to 8 places ("0.25"); "0" without supply. */
export function shareOfSupply(balance: bigint, totalSupply: bigint): string {
  if (totalSupply === 0n) return "0";
  return exactTokenAmount((balance * 10n ** 8n) / totalSupply, 8);
}

function toHolder(account: AccountRecord, snapshot: Snapshot): Holder {
  const balance = (account.shares * snapshot.multiplier) / MULTIPLIER_BASE;
  const activity = ({ blockNumber, timestamp }: Activity) => ({ blockNumber, timestamp });
  return {
    address: account.address,
    balance: balance.toString(),
    shares: account.shares.toString(),
    shareOfSupply: shareOfSupply(balance, snapshot.totalSupply),
    firstActivity: activity(account.first),
    lastActivity: activity(account.last),
  };
}

const isoTime = (seconds: number) => new Date(seconds * 1000).toISOString();

/** One holder as a CSV row: USDX and shares as exact decimals, times in ISO 8601 (UTC). */
function csvRow(holder: Holder): string[] {
  return [
    holder.address,
    exactTokenAmount(BigInt(holder.balance)),
    exactTokenAmount(BigInt(holder.shares)),
    holder.shareOfSupply,
    String(holder.firstActivity.blockNumber),
    isoTime(holder.firstActivity.timestamp),
    String(holder.lastActivity.blockNumber),
    isoTime(holder.lastActivity.timestamp),
  ];
}
