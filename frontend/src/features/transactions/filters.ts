import { EVENT_FILTERS } from "@common/events";

/** The Contract Events filter as applied: a label of EVENT_FILTERS and an optional block range. */
export interface EventFilter {
  label: string;
  fromBlock?: number;
  toBlock?: number;
}

export const ALL_EVENTS: EventFilter = { label: EVENT_FILTERS[0].label };

/** What the person typed into the filter form. */
export interface FilterDraft {
  label: string;
  fromBlock: string;
  toBlock: string;
}

export const draftOf = (filter: EventFilter): FilterDraft => ({
  label: filter.label,
  fromBlock: filter.fromBlock === undefined ? "" : String(filter.fromBlock),
  toBlock: filter.toBlock === undefined ? "" : String(filter.toBlock),
});

export type RangeProblems = Partial<Record<"fromBlock" | "toBlock", string>>;

// The API takes up to 15 digits (a block number fits a JavaScript number with room to spare).
const BLOCK = /^\d{1,15}$/;

export function blockProblem(label: string, text: string): string | null {
  if (BLOCK.test(text)) return null;
  if (/^\d+$/.test(text)) return `${label} is too large: at most 15 digits.`;
  return `${label} must be a whole number (digits only, like 1200).`;
}

/** Checks the form: block numbers are whole numbers, From Block not after To Block. */
export function checkFilter(draft: FilterDraft): { ok: true; filter: EventFilter } | { ok: false; problems: RangeProblems } {
  const problems: RangeProblems = {};
  const from = draft.fromBlock.trim();
  const to = draft.toBlock.trim();
  const fromProblem = from === "" ? null : blockProblem("From Block", from);
  const toProblem = to === "" ? null : blockProblem("To Block", to);
  if (fromProblem) problems.fromBlock = fromProblem;
  if (toProblem) problems.toBlock = toProblem;
  if (!fromProblem && !toProblem && from !== "" && to !== "" && Number(from) > Number(to)) {
    problems.fromBlock = `From Block (${from}) must not be after To Block (${to}).`;
  }
  if (problems.fromBlock || problems.toBlock) return { ok: false, problems };
  return {
    ok: true,
    filter: { label: draft.label, fromBlock: from === "" ? undefined : Number(from), toBlock: to === "" ? undefined : Number(to) },
  };
}

/** 'Retry with smaller block range' asks for the last this many blocks of the range that timed out. */
export const NARROWED_RANGE_BLOCKS = 1000;

/**
 * The range after a timeout: the last 1,000 blocks of [fromBlock, toBlock]; a range already that
 * small is halved, so each retry asks for less.
 */
export function narrowRange(fromBlock: number, toBlock: number): { fromBlock: number; toBlock: number } {
  const width = toBlock - fromBlock + 1;
  const next = width > NARROWED_RANGE_BLOCKS ? NARROWED_RANGE_BLOCKS : Math.max(1, Math.floor(width / 2));
  return { fromBlock: toBlock - next + 1, toBlock };
}
