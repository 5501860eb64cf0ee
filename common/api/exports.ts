import { z } from "zod";
import { EVENT_FILTERS } from "../events";
import { jobPath } from "./batchInput";
import { endpoints } from "./endpoint";
import { AddressInput, rangeInOrder } from "./schemas";
import { blockRange, eventName } from "./token";

/**
 * CSV exports for the books (issue 18): an account's history, Contract Events with a filter, and a
 * batch job's recipients. The holders' export is declared with the holders (holders.ts). Every one
 * is written a page at a time as the client reads it, and counts against the export limits
 * (EXPORT_LIMITS), as the contacts export does.
 */

/** OWASP's CSV-injection rule, as server/src/lib/csv.ts writes every export. */
export const SAFE_CELLS =
  "Every cell is in double quotes (a double quote in it doubled), and a cell a spreadsheet could read as a formula has a leading apostrophe: " +
  "one starting with =, +, -, @, a tab or a carriage return, or with such a part after a comma, semicolon, tab or line end inside it (a reader set to another separator splits it there).";
/** The export limits (server/src/middleware/exportLimits.ts), each a 429 with Retry-After. */
export const EXPORT_LIMITS =
  "Counted against the signed-in user's CSV exports: requests a minute, exports running at once (per user and per server), and rows a minute per user and per client address; " +
  "past one the answer is a 429 with Retry-After and a sentence saying when to try again.";
const CHAIN_ORDER =
  "Rows in chain order (oldest first), up to the index's newest block as the export starts (rows indexed while it is written are left for the next export).";

const date = (description: string) =>
  z.iso.date({ message: "must be a date as YYYY-MM-DD" }).optional().meta({ description, example: "2026-01-31" });

export const exportsApi = endpoints({
  "GET /api/accounts/:address/history/export": {
    tag: "Token",
    summary: "Export an account's transfers, mints and burns as CSV",
    description:
      "The rows of GET /api/accounts/:address/history, all of them or those in a block range and/or a range of days. " +
      `${CHAIN_ORDER} Columns: Date (the block's time, ISO 8601 in UTC), Block, Transaction Hash, Log Index, Type (Transfer, Mint or Burn), From, To, ` +
      "Amount (the event's value in USDX, an exact decimal) and Amount moved (what its shares were worth in USDX: less than Amount where the transfer was rounded down to whole shares). " +
      `${SAFE_CELLS} ${EXPORT_LIMITS}`,
    access: "user",
    params: z.object({ address: AddressInput }),
    query: z
      .object({
        ...blockRange,
        fromDate: date(
          "The first day to include (UTC), by block time; not after toDate (JSON Schema cannot compare two parameters, so this says it).",
        ),
        toDate: date("The last day to include (UTC), by block time; not before fromDate."),
      })
      .superRefine(rangeInOrder("Block"))
      .superRefine(rangeInOrder("Date")),
    answer: {
      contentType: "text/csv; charset=utf-8",
      description: "A CSV file (usdx_history_<address>.csv).",
      example:
        '"Date","Block","Transaction Hash","Log Index","Type","From","To","Amount","Amount moved"\r\n' +
        '"2026-01-05T09:30:00.000Z","12","0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060","0","Mint","0x0000000000000000000000000000000000000000","0x70997970C51812dc3A010C7d01b50e0d17dc79C8","1000","1000"\r\n',
    },
    noStore: true,
    // 429: the export limits (requests a minute, exports at once, rows a minute), with Retry-After.
    errors: [429, 503],
  },
  "GET /api/events/export": {
    tag: "Token",
    summary: "Export Contract Events as CSV",
    description:
      `The events GET /api/events finds with the same filter (eventName: ${EVENT_FILTERS.map((f) => f.label).join(", ")}; fromBlock and toBlock, inclusive), every one rather than a page. ` +
      `${CHAIN_ORDER} Columns: Date (ISO 8601, UTC), Block, Transaction Hash, Log Index, Contract (USDX or BatchPayments), Event, ` +
      "Arguments (name=value pairs separated by '; ', USDX amounts as exact decimals, the reward multiplier as a decimal, roles by name) and Amount moved (Transfer only: what its shares were worth in USDX). " +
      `${SAFE_CELLS} ${EXPORT_LIMITS}`,
    access: "user",
    query: z.object({ ...blockRange, eventName }).superRefine(rangeInOrder("Block")),
    answer: {
      contentType: "text/csv; charset=utf-8",
      description: "A CSV file (usdx_events.csv).",
      example:
        '"Date","Block","Transaction Hash","Log Index","Contract","Event","Arguments","Amount moved"\r\n' +
        '"2026-01-05T09:30:00.000Z","12","0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060","0","USDX","Transfer","from=0x0000000000000000000000000000000000000000; to=0x70997970C51812dc3A010C7d01b50e0d17dc79C8; value=1000 USDX","1000"\r\n',
    },
    noStore: true,
    errors: [429, 503],
  },
  "GET /api/batch/:id/export": {
    tag: "Batch payments",
    summary: "Export a job's recipients as CSV",
    description:
      "Every recipient of the job in job order, for payroll reconciliation: Name, Address, Amount (USDX, an exact decimal), Status (Pending, Paid or Not paid), " +
      "Transaction Hash (the transaction that paid them) and Block (its block, once paid). Another user's job is a 404, like a missing one. " +
      `${SAFE_CELLS} ${EXPORT_LIMITS}`,
    access: "user",
    params: jobPath,
    answer: {
      contentType: "text/csv; charset=utf-8",
      description: "A CSV file (usdx_batch_<jobId>.csv).",
      example:
        '"Name","Address","Amount","Status","Transaction Hash","Block"\r\n' +
        '"Alice","0x70997970C51812dc3A010C7d01b50e0d17dc79C8","25","Paid","0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060","40"\r\n',
    },
    noStore: true,
    errors: [404, 429, 503],
  },
});
