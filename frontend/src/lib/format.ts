import { exactTokenAmount, formatTokenAmount } from "@common/amounts";
import { plural } from "@common/wording";
// Counts, plurals and short hashes are worded once for the whole product (common/wording.ts).
export { count, plural, shortAddress, shortHash } from "@common/wording";

/** PRODUCT.md section 9: balances, shares, supply and batch totals to 2 decimals (rounded down). */
export const formatUsdx = (value: bigint) => formatTokenAmount(value, 2);

/** PRODUCT.md section 9: the multiplier to 4 decimals. */
export const formatMultiplier = (value: bigint) => formatTokenAmount(value, 4);

/**
 * PRODUCT.md section 9: under 60 s 'Just now'; under an hour 'N minute(s) ago'; under a day 'N hour(s)
 * ago'; older, the locale's date and time; no date, 'Unknown'. `timestamp` is Unix seconds.
 */
export function relativeTime(timestamp: number | null | undefined, now: number = Date.now()): string {
  if (timestamp === null || timestamp === undefined || !Number.isFinite(timestamp)) return "Unknown";
  const seconds = Math.floor(now / 1000 - timestamp);
  if (seconds < 60) return "Just now";
  if (seconds < 3600) {
    const n = Math.floor(seconds / 60);
    return `${plural(n, "minute")} ago`;
  }
  if (seconds < 86400) {
    const n = Math.floor(seconds / 3600);
    return `${plural(n, "hour")} ago`;
  }
  return new Date(timestamp * 1000).toLocaleString();
}

/** Thousands separators for an exact decimal string ('-1234567.5' reads '-1,234,567.5'); no rounding. */
export function groupDigits(decimal: string): string {
  const [whole, fraction] = decimal.split(".");
  const sign = whole.startsWith("-") ? "-" : "";
  const digits = whole.replace(/^-/, "").replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${sign}${digits}${fraction !== undefined ? `.${fraction}` : ""}`;
}

/** What a history row says when a Transfer moved less than its event's value (USDX rounds to whole shares). */
export interface MovedNote {
  /** The base units that really moved. */
  moved: bigint;
  /** No share moved at all. */
  noShares: boolean;
  /** The sentence to show beside the amount. */
  text: string;
}

const exactGrouped = (value: bigint) => groupDigits(exactTokenAmount(value));

/**
 * USDX converts a transfer's amount to shares rounding down, so a Transfer event may claim more
 * than moved (at 1.5, transfer(2) moves one share, worth 1.5 wei, shown as 1) or nothing at all.
 * `amountMoved` is the server's answer (base units); null when it matches the event's value (or
 * is unknown), else the note to show.
 */
export function movedNote(eventValue: string | bigint, amountMoved: string | null | undefined): MovedNote | null {
  if (amountMoved === null || amountMoved === undefined || !/^\d+$/.test(amountMoved)) return null;
  const said = BigInt(eventValue);
  const moved = BigInt(amountMoved);
  if (moved === said) return null;
  if (moved === 0n) return { moved, noShares: true, text: "No shares moved: the amount is worth less than one share." };
  return {
    moved,
    noShares: false,
    text: `The event says ${exactGrouped(said)} USDX; ${exactGrouped(moved)} USDX moved (rounded down to whole shares).`,
  };
}
