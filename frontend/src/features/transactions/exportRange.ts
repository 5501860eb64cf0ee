import { blockProblem } from "./filters";

/** Which of an account's transactions to export: all of them, a block range or a range of UTC days. */
export type ExportScope = "all" | "blocks" | "dates";

/** What the person typed into the export dialog. */
export interface ExportDraft {
  scope: ExportScope;
  fromBlock: string;
  toBlock: string;
  fromDate: string;
  toDate: string;
}

export const EMPTY_EXPORT_DRAFT: ExportDraft = { scope: "all", fromBlock: "", toBlock: "", fromDate: "", toDate: "" };

/** The export's query: GET /api/accounts/:address/history/export's range. */
export interface ExportRange {
  fromBlock?: number;
  toBlock?: number;
  fromDate?: string;
  toDate?: string;
}

export type ExportProblems = Partial<Record<"from" | "to", string>>;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A real day as YYYY-MM-DD (2026-02-30 is not one), as the date fields and the API take it. */
function dateProblem(label: string, text: string): string | null {
  const day = new Date(`${text}T00:00:00Z`);
  if (DATE.test(text) && !Number.isNaN(day.getTime()) && day.toISOString().startsWith(text)) return null;
  return `${label} must be a date (YYYY-MM-DD).`;
}

/**
 * Checks the dialog: a range needs at least one end; block numbers are whole numbers and dates real
 * days; the start is not after the end. Each end is inclusive.
 */
export function checkExportRange(draft: ExportDraft): { ok: true; range: ExportRange } | { ok: false; problems: ExportProblems } {
  if (draft.scope === "all") return { ok: true, range: {} };
  const blocks = draft.scope === "blocks";
  const [fromLabel, toLabel] = blocks ? ["From Block", "To Block"] : ["From Date", "To Date"];
  const from = (blocks ? draft.fromBlock : draft.fromDate).trim();
  const to = (blocks ? draft.toBlock : draft.toDate).trim();
  if (from === "" && to === "") return { ok: false, problems: { from: `Give a ${fromLabel}, a ${toLabel} or both.` } };
  const check = (label: string, text: string) => (text === "" ? null : blocks ? blockProblem(label, text) : dateProblem(label, text));
  const problems: ExportProblems = {};
  const fromProblem = check(fromLabel, from);
  const toProblem = check(toLabel, to);
  if (fromProblem) problems.from = fromProblem;
  if (toProblem) problems.to = toProblem;
  if (!fromProblem && !toProblem && from !== "" && to !== "" && (blocks ? Number(from) > Number(to) : from > to)) {
    problems.from = `${fromLabel} (${from}) must not be after ${toLabel} (${to}).`;
  }
  if (problems.from || problems.to) return { ok: false, problems };
  const some = (text: string) => (text === "" ? undefined : text);
  return {
    ok: true,
    range: blocks
      ? { fromBlock: from === "" ? undefined : Number(from), toBlock: to === "" ? undefined : Number(to) }
      : { fromDate: some(from), toDate: some(to) },
  };
}
