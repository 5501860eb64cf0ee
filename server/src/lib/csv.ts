import type { Response } from "express";
import Papa from "papaparse";
import { badRequest } from "./errors";
import { count } from "@common/wording";

/** A data row of a CSV: its line (the header is line 1) and its cells by lower-case column name. */
export interface CsvRow {
  line: number;
  cells: Record<string, string>;
  /** Set when the row itself is broken (an unclosed quote, more cells than the header names). */
  problem?: string;
}

export interface CsvReadOptions {
  /** Lower-case column names that must be in the header. */
  required: readonly string[];
  /** Lower-case column names that may be. Other columns are ignored. */
  optional?: readonly string[];
  /** Data rows allowed; more is a 400 that says so. */
  maxRows: number;
  /** What a row is, for messages: "recipients", "contacts". */
  rowsAre: string;
}

/** Every header names its columns with these capitals in messages and exports. */
export const titleCase = (column: string) => column.charAt(0).toUpperCase() + column.slice(1);

/**
 * Reads CSV text with a header row, as a person's spreadsheet writes it: column names in any case
 * and order, a byte-order mark, CRLF or LF line ends, quoted cells, blank lines (skipped). Throws a
 * 400 naming what is wrong with the file as a whole (no header, a missing column, too many rows);
 * a broken row is returned with its `problem` so the caller reports it beside the good ones.
 */
export function readCsv(text: string, options: CsvReadOptions): CsvRow[] {
  // An empty file is refused by the declarations of the bodies that carry one (common/api/schemas.ts csvText).
  const input = text.replace(/^\uFEFF/, "");
  // header: false keeps one record per line (when no quoted cell spans lines), so lines can be counted.
  const parsed = Papa.parse<string[]>(input, { header: false, skipEmptyLines: false });
  const records = parsed.data;
  const header = (records[0] ?? []).map((cell) => cell.trim().toLowerCase());
  const missing = options.required.filter((column) => !header.includes(column));
  if (missing.length > 0) {
    const wanted = [...options.required, ...(options.optional ?? [])].map(titleCase).join(", ");
    throw badRequest(`The CSV header must name the columns ${wanted}; it has no ${missing.map(titleCase).join(" or ")} column.`);
  }
  const known = new Set([...options.required, ...(options.optional ?? [])]);
  const columns = header.map((name, i) => (known.has(name) && header.indexOf(name) === i ? name : null));

  const broken = new Map<number, string>();
  for (const error of parsed.errors) {
    if (error.row !== undefined && !broken.has(error.row)) broken.set(error.row, error.message);
  }

  const dataRows = records.length - 1 - records.slice(1).filter(isBlank).length;
  if (dataRows > options.maxRows) {
    throw badRequest(
      `The CSV has ${count(dataRows)} rows; at most ${count(options.maxRows)} ${options.rowsAre} can be read at once. Split the file and upload each part.`,
    );
  }

  const rows: CsvRow[] = [];
  for (let r = 1; r < records.length; r++) {
    const record = records[r];
    if (isBlank(record)) continue;
    const cells: Record<string, string> = {};
    for (const column of known) cells[column] = "";
    record.forEach((cell, i) => {
      const column = columns[i];
      if (column) cells[column] = cell.trim();
    });
    const row: CsvRow = { line: r + 1, cells };
    const extra = record.slice(header.length).some((cell) => cell.trim() !== "");
    if (broken.has(r)) row.problem = `Broken CSV row: ${broken.get(r)}`;
    else if (extra) row.problem = `Broken CSV row: it has ${record.length} cells but the header names ${header.length}`;
    rows.push(row);
  }
  return rows;
}

function isBlank(record: string[]): boolean {
  return record.every((cell) => cell.trim() === "");
}

/**
 * A cell a spreadsheet could run as a formula: one starting with = + - @, a tab or a carriage
 * return, or one with such a part after a separator (, ; tab or a line end), since a reader set to
 * another separator (a semicolon locale) splits the cell there ('x;=1+1' opens as 'x' and '=1+1').
 * Spaces and double quotes before the starter do not hide it: a reader drops them.
 */
const FORMULA_PART = /(^|[,;\t\r\n])[ "]*[=+\-@\t\r]/;

/**
 * One cell as OWASP's CSV-injection guidance writes it: a leading apostrophe when any part of it
 * would start a formula (FORMULA_PART), every double quote doubled, and the whole cell in double
 * quotes, so the spreadsheet shows the text instead of running it, whatever separator it splits on.
 */
export function safeCsvCell(value: string): string {
  const text = FORMULA_PART.test(value) ? `'${value}` : value;
  return `"${text.replace(/"/g, '""')}"`;
}

/** Rows as CSV lines, each ending in CRLF, every cell made safe (safeCsvCell): the one way an export writes a row. */
export function csvLines(rows: readonly (readonly string[])[]): string {
  return rows.map((row) => `${row.map(safeCsvCell).join(",")}\r\n`).join("");
}

/** A chunk of an export: its rows, each a list of cells as text (sendCsv makes them safe and writes them). */
export type CsvChunk = readonly (readonly string[])[];

/** A CSV download: the name the browser saves it under, its header row and its rows in chunks. */
export interface CsvDownload {
  fileName: string;
  header: readonly string[];
  /** Read one at a time as the client takes them: rows from memory, or read from the database a page at a time. */
  chunks: Iterable<CsvChunk> | AsyncIterable<CsvChunk>;
}

/** The data rows an answer's CSV has written so far (res.locals): the export limits charge them once it ends. */
export const csvRowsWritten = (res: Response): number => (res.locals.csvRows as number | undefined) ?? 0;

/**
 * Answers `download` as a CSV attachment (the one way every export is written, every cell through
 * safeCsvCell): reads its first chunk before the status is sent, so a refusal or a failed first
 * read is still an error answer; then the headers, the header row and every chunk through
 * streamChunks. A failure after that can only cut the answer short: the connection is closed, so
 * the client sees a broken download rather than a file that looks whole.
 */
export async function sendCsv(res: Response, download: CsvDownload): Promise<void> {
  const iterator = asyncIterator(download.chunks);
  res.locals.csvRows = 0;
  try {
    const first = await iterator.next();
    if (res.destroyed) return; // the client went while the first page was read
    res.status(200).set({
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${download.fileName}"`,
      "Cache-Control": "no-store",
    });
    res.write(csvLines([download.header]));
    try {
      if (!first.done) await streamChunks(res, [first.value]);
      if (!first.done && !res.destroyed) await streamChunks(res, { [Symbol.asyncIterator]: () => iterator });
    } catch (error) {
      res.destroy();
      throw error;
    }
    // The export limits charge the rows written before the client can ask for the next export.
    await (res.locals.beforeCsvEnd as (() => Promise<void>) | undefined)?.();
    if (!res.destroyed) res.end();
  } finally {
    await iterator.return?.(); // stopped early (the client went, or a failure): the rest is never read
  }
}

/**
 * Writes `chunks` to the answer one at a time, counting their rows, waiting whenever the client
 * reads slower than the server writes and giving other requests their turn between chunks; stops
 * reading as soon as the client goes (an async generator's `finally` runs, so a database read stops
 * with it).
 */
async function streamChunks(res: Response, chunks: Iterable<CsvChunk> | AsyncIterable<CsvChunk>): Promise<void> {
  for await (const chunk of chunks) {
    if (res.destroyed) return;
    res.locals.csvRows = csvRowsWritten(res) + chunk.length;
    if (!res.write(csvLines(chunk))) {
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off("drain", done);
          res.off("close", done);
          resolve();
        };
        res.on("drain", done);
        res.on("close", done);
      });
    } else {
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (res.destroyed) return;
  }
}

function asyncIterator<T>(chunks: Iterable<T> | AsyncIterable<T>): AsyncIterator<T> {
  if (Symbol.asyncIterator in chunks) return chunks[Symbol.asyncIterator]();
  const sync = chunks[Symbol.iterator]();
  return {
    next: async () => sync.next(),
    return: async () => sync.return?.() ?? { done: true, value: undefined },
  };
}
