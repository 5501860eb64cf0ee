import { and, asc, eq, gte, lt, lte, sql, type SQL } from "drizzle-orm";
import { exactTokenAmount } from "@common/amounts";
import type { RecipientStatus } from "@common/apiTypes";
import { RECIPIENT_STATUS_WORDS } from "@common/batch";
import { argumentNames, historyType, TOKEN_AMOUNT_ARGS } from "@common/events";
import { roleNameOfHash } from "@common/roles";
import type { Database } from "../../db/client";
import { batchChunks, batchJobs, batchRecipients, chainEvents } from "../../db/schema";
import { notFound } from "../../lib/errors";
import type { CsvChunk, CsvDownload } from "../../lib/csv";
import { movedBy, multiplierAtLog, type EventRecord, type EventsService } from "./events";
import type { SessionUser } from "../auth/firebaseAuth";

/**
 * The CSV exports for the books (issue 18): an account's history, Contract Events with a filter,
 * and a batch job's recipients. Each reads the database a page at a time in key order (keyset
 * pagination on an index that ends in the order asked), so an export of any size holds one page in
 * memory; csv.ts's sendCsv writes the pages as the client takes them and stops reading if it goes.
 */

/** Rows a page: one database read, one chunk of the answer. */
export const EXPORT_PAGE_ROWS = 1000;

export const HISTORY_CSV_HEADER = [
  "Date",
  "Block",
  "Transaction Hash",
  "Log Index",
  "Type",
  "From",
  "To",
  "Amount",
  "Amount moved",
] as const;
export const EVENTS_CSV_HEADER = [
  "Date",
  "Block",
  "Transaction Hash",
  "Log Index",
  "Contract",
  "Event",
  "Arguments",
  "Amount moved",
] as const;
export const BATCH_CSV_HEADER = ["Name", "Address", "Amount", "Status", "Transaction Hash", "Block"] as const;

/** Which part of a history to export: blocks and UTC days, each end inclusive and optional. */
export interface HistoryRange {
  fromBlock?: number;
  toBlock?: number;
  /** YYYY-MM-DD (UTC), by block time. */
  fromDate?: string;
  toDate?: string;
}

/**
 * The columns an export reads, and the multiplier at each Transfer's log as the JSON pages compute
 * it. Only these: PGlite's reading of a result's text is most of an export's time, so the block
 * hash, signature and lookup columns are left in the database.
 */
const exportColumns = {
  blockNumber: chainEvents.blockNumber,
  logIndex: chainEvents.logIndex,
  blockTime: chainEvents.blockTime,
  transactionHash: chainEvents.transactionHash,
  contract: chainEvents.contract,
  eventName: chainEvents.eventName,
  args: chainEvents.args,
  multiplier: multiplierAtLog,
};
type ExportRow = Pick<EventRecord, "blockNumber" | "logIndex" | "blockTime" | "transactionHash" | "contract" | "eventName" | "args"> & {
  multiplier: string | null;
};

/** A place in chain order: the rows after it come next. */
interface Position {
  blockNumber: number;
  logIndex: number;
}

const DAY_SECONDS = 86_400;
const isoTime = (seconds: number) => new Date(seconds * 1000).toISOString();
const dayStart = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000;

const after = (position: Position | null): SQL | undefined =>
  position ? sql`(${chainEvents.blockNumber}, ${chainEvents.logIndex}) > (${position.blockNumber}, ${position.logIndex})` : undefined;

export class ExportsService {
  constructor(
    private readonly db: Database,
    private readonly events: EventsService,
    private readonly deploymentBlock: number,
  ) {}

  /**
   * An account's Transfers, Mints and Burns in chain order (oldest first), the rows and amounts of
   * GET /api/accounts/:address/history, within `range`. Sent and received transfers are read
   * separately, each on its own index (chain_events_from_order, _to_order), and merged.
   */
  async history(address: string, range: HistoryRange): Promise<CsvDownload> {
    const account = address.toLowerCase();
    const blocks = await this.blockBounds(range.fromBlock, range.toBlock);
    const fileName = `usdx_history_${address}.csv`;
    if (!blocks) return { fileName, header: HISTORY_CSV_HEADER, chunks: [] };
    const times = and(
      range.fromDate !== undefined ? gte(chainEvents.blockTime, dayStart(range.fromDate)) : undefined,
      range.toDate !== undefined ? lt(chainEvents.blockTime, dayStart(range.toDate) + DAY_SECONDS) : undefined,
    );
    const side = (column: typeof chainEvents.fromAddress | typeof chainEvents.toAddress) =>
      this.pages((position: ExportRow | null) =>
        this.db
          .select(exportColumns)
          .from(chainEvents)
          .where(
            and(
              eq(column, account),
              eq(chainEvents.eventName, "Transfer"),
              gte(chainEvents.blockNumber, blocks.from),
              lte(chainEvents.blockNumber, blocks.to),
              times,
              after(position),
            ),
          )
          .orderBy(asc(chainEvents.blockNumber), asc(chainEvents.logIndex))
          .limit(EXPORT_PAGE_ROWS),
      );
    return {
      fileName,
      header: HISTORY_CSV_HEADER,
      chunks: inChunks(merged(side(chainEvents.fromAddress), side(chainEvents.toAddress)), historyRow),
    };
  }

  /** Contract Events in chain order with GET /api/events' filter (an event name, a block range); by name on chain_events_name_order, else by the primary key. */
  async contractEvents(filter: { eventName: string | null; fromBlock?: number; toBlock?: number }): Promise<CsvDownload> {
    const blocks = await this.blockBounds(filter.fromBlock, filter.toBlock);
    const fileName = "usdx_events.csv";
    if (!blocks) return { fileName, header: EVENTS_CSV_HEADER, chunks: [] };
    const rows = this.pages((position: ExportRow | null) =>
      this.db
        .select(exportColumns)
        .from(chainEvents)
        .where(
          and(
            filter.eventName !== null ? eq(chainEvents.eventName, filter.eventName) : undefined,
            gte(chainEvents.blockNumber, blocks.from),
            lte(chainEvents.blockNumber, blocks.to),
            after(position),
          ),
        )
        .orderBy(asc(chainEvents.blockNumber), asc(chainEvents.logIndex))
        .limit(EXPORT_PAGE_ROWS),
    );
    return { fileName, header: EVENTS_CSV_HEADER, chunks: inChunks(rows, eventRow) };
  }

  /** A job's recipients in job order, each with its chunk's block once paid; another user's job is as unknown as a missing one. */
  async batchRecipients(user: SessionUser, jobId: string): Promise<CsvDownload> {
    const [job] = await this.db
      .select({ id: batchJobs.id })
      .from(batchJobs)
      .where(and(eq(batchJobs.id, jobId), eq(batchJobs.uid, user.uid)));
    if (!job) throw notFound(`No batch job ${jobId} among yours.`);
    const rows = this.pages((last: { position: number } | null) =>
      this.db
        .select({
          position: batchRecipients.position,
          name: batchRecipients.name,
          address: batchRecipients.address,
          amount: batchRecipients.amount,
          status: batchRecipients.status,
          txHash: batchRecipients.txHash,
          chunkBlock: batchChunks.blockNumber,
        })
        .from(batchRecipients)
        .leftJoin(batchChunks, and(eq(batchChunks.jobId, batchRecipients.jobId), eq(batchChunks.index, batchRecipients.chunkIndex)))
        .where(and(eq(batchRecipients.jobId, jobId), sql`${batchRecipients.position} > ${last?.position ?? -1}`))
        .orderBy(asc(batchRecipients.position))
        .limit(EXPORT_PAGE_ROWS),
    );
    return {
      fileName: `usdx_batch_${jobId}.csv`,
      header: BATCH_CSV_HEADER,
      chunks: inChunks(rows, (r) => [
        r.name,
        r.address,
        exactTokenAmount(BigInt(r.amount)),
        RECIPIENT_STATUS_WORDS[r.status as RecipientStatus] ?? r.status,
        r.txHash ?? "",
        r.status === "paid" && r.chunkBlock !== null ? String(r.chunkBlock) : "",
      ]),
    };
  }

  /**
   * The blocks to read: from `fromBlock` (the deployment's when left out) to `toBlock`, but never
   * past the index's head as the export starts, so rows indexed while it streams stay out whole.
   * Null when nothing is indexed there.
   */
  private async blockBounds(fromBlock: number | undefined, toBlock: number | undefined): Promise<{ from: number; to: number } | null> {
    const head = await this.events.indexedBlock();
    if (head === null) return null;
    const from = fromBlock ?? this.deploymentBlock;
    const to = Math.min(toBlock ?? head, head);
    return from <= to ? { from, to } : null;
  }

  /** Every row of a keyset-paged query, in its key's order: `read(last)` reads the page after the row `last` (null: the first page). */
  private async *pages<R>(read: (last: R | null) => Promise<R[]>): AsyncGenerator<R> {
    for (let last: R | null = null; ;) {
      const page = await read(last);
      yield* page;
      if (page.length < EXPORT_PAGE_ROWS) return;
      last = page[page.length - 1];
    }
  }
}

/** Two chain-ordered streams as one, each row once (a transfer to oneself is in both). */
async function* merged(a: AsyncGenerator<ExportRow>, b: AsyncGenerator<ExportRow>): AsyncGenerator<ExportRow> {
  try {
    let x = await a.next();
    let y = await b.next();
    while (!x.done || !y.done) {
      const order = x.done ? 1 : y.done ? -1 : x.value.blockNumber - y.value.blockNumber || x.value.logIndex - y.value.logIndex;
      if (order <= 0 && !x.done) yield x.value;
      else if (!y.done) yield y.value;
      if (order <= 0) x = await a.next();
      if (order >= 0) y = await b.next();
    }
  } finally {
    // Stopped early (the client went): neither side reads another page.
    await Promise.all([a.return(undefined), b.return(undefined)]);
  }
}

/** Rows as chunks of cells, EXPORT_PAGE_ROWS a chunk. */
async function* inChunks<R>(rows: AsyncIterable<R>, toCells: (row: R) => string[]): AsyncGenerator<CsvChunk> {
  let lines: string[][] = [];
  for await (const row of rows) {
    lines.push(toCells(row));
    if (lines.length === EXPORT_PAGE_ROWS) {
      yield lines;
      lines = [];
    }
  }
  if (lines.length > 0) yield lines;
}

/** One history row: as GET /api/accounts/:address/history's entry, amounts in USDX (exact decimals). */
function historyRow(row: ExportRow): string[] {
  const { from, to, value } = row.args as Record<string, string>;
  return [
    isoTime(row.blockTime),
    String(row.blockNumber),
    row.transactionHash,
    String(row.logIndex),
    historyType(from, to),
    from,
    to,
    exactTokenAmount(BigInt(value)),
    exactTokenAmount(BigInt(movedBy(value, row.multiplier).amountMoved)),
  ];
}

/** One Contract Events row: its arguments in reading order, and for a Transfer what really moved. */
function eventRow(row: ExportRow): string[] {
  const value = row.args.value;
  const moved =
    row.eventName === "Transfer" && typeof value === "string" ? exactTokenAmount(BigInt(movedBy(value, row.multiplier).amountMoved)) : "";
  return [
    isoTime(row.blockTime),
    String(row.blockNumber),
    row.transactionHash,
    String(row.logIndex),
    row.contract,
    row.eventName,
    readableArguments(row.eventName, row.args),
    moved,
  ];
}

/**
 * An event's arguments as one cell: "from=0x...; to=0x...; value=1.5 USDX". Amounts in USDX, the
 * multiplier as a decimal ("1.0125"), roles by name, everything else as the index stores it.
 */
export function readableArguments(eventName: string, args: Record<string, string | boolean>): string {
  return argumentNames(eventName, args)
    .map((name) => {
      const raw = args[name];
      if (typeof raw === "boolean") return `${name}=${raw}`;
      if (/^\d+$/.test(raw) && TOKEN_AMOUNT_ARGS[eventName]?.includes(name)) return `${name}=${exactTokenAmount(BigInt(raw))} USDX`;
      if (/^\d+$/.test(raw) && eventName === "RewardMultiplier" && name === "value") return `${name}=${exactTokenAmount(BigInt(raw))}`;
      const role = /role/i.test(name) && /^0x[0-9a-fA-F]{64}$/.test(raw) ? roleNameOfHash(raw) : undefined;
      return `${name}=${role ?? raw}`;
    })
    .join("; ");
}
