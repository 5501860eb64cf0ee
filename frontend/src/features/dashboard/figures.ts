import { exactTokenAmount } from "@common/amounts";
import { formatMultiplier, formatUsdx, groupDigits } from "@/lib/format";
export { groupDigits };

/** An amount of USDX (or shares) as the cards show it: two decimals, grouped. */
export const shownUsdx = (value: bigint) => groupDigits(formatUsdx(value));

/** The reward multiplier as the cards show it: four decimals followed by x (PRODUCT.md section 2). */
export const shownMultiplier = (value: bigint) => `${formatMultiplier(value)}x`;

/** An error as one line: ethers' short message when it has one (its full message carries the whole request). */
export function errorMessage(error: unknown): string | null {
  if (!error || typeof error !== "object") return null;
  const short = (error as { shortMessage?: unknown }).shortMessage;
  if (typeof short === "string" && short) return short;
  const message = (error as { message?: unknown }).message;
  return typeof message === "string" && message ? message : null;
}

/** PRODUCT.md section 2's generic card error text. */
export function errorText(error: unknown): string {
  const message = errorMessage(error);
  return message ? `Error: ${message}` : "An unknown error occurred";
}

/**
 * The chart's multiplier axis for data from min to max: null (the chart's own range), except for a
 * multiplier that never changed (a live token nobody rebased), which an automatic range pads by
 * whole units (recharts drew 1.0 from -1x to 3x, below the contract's floor of 1.0): a percent
 * either side of it instead (0.990x to 1.010x).
 */
export function multiplierAxisRange(min: number, max: number): [number, number] | null {
  if (max > min) return null;
  return [min * 0.99, min * 1.01];
}

/**
 * A supply-chart value as a number, for drawing only. The server sends decimal strings ("1000.5",
 * ethers' formatUnits always has a point); plain digits are read as base units and scaled.
 */
export function chartNumber(value: string): number {
  return Number(value.includes(".") ? value : exactTokenAmount(BigInt(value)));
}
