import { call, endpointUrl } from "@/lib/api";

/** A recipient as the execute call takes it: each row with its own amount (PRODUCT.md section 2, Payments). */
export interface PaymentRow {
  name: string;
  address: string;
  amount: string;
}

export const parseCsv = (csvData: string) => call("POST /api/batch/parse-csv", { body: { csvData } });

/** Starts a job; `payer` lets the server check the wallet's balance, blocklist entry and the pause first. */
export const executeBatch = (recipients: PaymentRow[], payer: string) =>
  call("POST /api/batch/execute", {
    body: { recipients: recipients.map((r) => (r.name ? r : { address: r.address, amount: r.amount })), payer },
  });

/** Tells the server which transaction pays a chunk, so it watches for it. */
export const reportChunkTransaction = (jobId: string, chunkIndex: number, txHash: string) =>
  call("POST /api/batch/:id/transactions", { params: { id: jobId }, body: { chunkIndex, txHash } });

/** Recipients per page of a job's detail (the server allows up to 10,000). */
export const RECIPIENT_PAGE = 1000;

/** A job with its chunks; `offset`/`limit` page its recipients. Its URL is the status poll's query key. */
export const jobDetailUrl = (jobId: string, offset = 0, limit = 1) =>
  endpointUrl("GET /api/batch/:id", { params: { id: jobId }, query: { offset, limit } });

export const fetchJobDetail = (jobId: string, offset = 0, limit = 1) =>
  call("GET /api/batch/:id", { params: { id: jobId }, query: { offset, limit } });

/** GET /api/batch/:id/export's URL: every recipient of the job with status, transaction and block, as CSV. */
export const batchExportUrl = (jobId: string) => endpointUrl("GET /api/batch/:id/export", { params: { id: jobId } });

/** Jobs per page of Payment History. */
export const HISTORY_PAGE = 20;

/** The key every Payment History query starts with, so a finished batch refreshes them all. */
export const HISTORY_KEY = "/api/batch";

export const fetchJobs = (before: string | null) => call("GET /api/batch", { query: { limit: HISTORY_PAGE, before: before ?? undefined } });

/** A CSV cell: quoted when it holds a separator, a quote or a line break. */
const csvCell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

export const toCsv = (header: string[], rows: string[][]) => [header, ...rows].map((row) => row.map(csvCell).join(",")).join("\r\n");

// The import takes at most 1 MB of CSV text; 10,000 recipients with long names can exceed it.
const IMPORT_MAX_CHARS = 900_000;

/**
 * Adds the recipients to the user's contacts through the import (one request, or a few for a very
 * large batch). Addresses already in the contacts are skipped by the server, not refused.
 */
export async function importContacts(contacts: { name: string; address: string }[]): Promise<number> {
  let imported = 0;
  let rows: string[][] = [];
  let size = 0;
  const flush = async () => {
    if (rows.length === 0) return;
    const answer = await call("POST /api/contacts/import", { body: { csvData: toCsv(["Name", "Address"], rows) } });
    imported += answer.imported;
    rows = [];
    size = 0;
  };
  for (const contact of contacts) {
    const row = [contact.name, contact.address];
    const length = row.join(",").length + 4;
    if (size + length > IMPORT_MAX_CHARS) await flush();
    rows.push(row);
    size += length;
  }
  await flush();
  return imported;
}
