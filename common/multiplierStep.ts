/**
 * One change of the reward multiplier, as the oracle's tools weigh it (issue 29). The contract lets
 * ORACLE_ROLE set any multiplier of 1.0 or more in one call, up or down, and every balance is shares
 * times the multiplier: a slip moves every holder's balance at once. So the dashboard's forms and
 * the `usdx set-multiplier` / `add-multiplier` tasks show the change as a percentage of every
 * balance, and ask for the new value to be typed again before a step above the bound or any
 * decrease. No zod here: the dashboard imports it at run time.
 */

/**
 * The largest step up, in percent of every balance, that goes through without being typed again:
 * 1%, which is one quick add (0.01) at a multiplier of 1.0, and far more than a day's yield on a
 * dollar token. Each deployment may change it
 * (MULTIPLIER_MAX_STEP_PERCENT, read by the server for the dashboard and by the tasks).
 */
export const DEFAULT_MULTIPLIER_MAX_STEP_PERCENT = "1";

/** The bound's setting, for the server's settings and the tasks' environment alike. */
export const MULTIPLIER_MAX_STEP_VARIABLE = "MULTIPLIER_MAX_STEP_PERCENT";

/** The highest bound a deployment may set: 1000% (eleven times every balance), which is no bound at all. */
const MAX_BOUND_HUNDREDTHS = 100_000;

/** Hundredths of a percent in one (1% = 100): the bound is kept in these, so every comparison is exact. */
const HUNDREDTHS = 100n;

/**
 * The text parseStepBound takes, or nothing but spaces (a field left empty): up to four digits, at
 * most two decimals, at most 1000.
 */
export const STEP_BOUND_OR_BLANK_TYPED = /^\s*(?:(?:\d{1,3}|0\d{3})(?:\.\d{1,2})?|1000(?:\.0{1,2})?)?\s*$/;

/**
 * The bound as hundredths of a percent ("1" is 100, "0.25" is 25): a percentage with at most two
 * decimals, from 0 (every increase is typed again) to 1000. Throws a sentence otherwise.
 */
export function parseStepBound(text: string): number {
  const trimmed = text.trim();
  const match = /^(\d{1,4})(?:\.(\d{1,2}))?$/.exec(trimmed);
  const hundredths = match ? Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0")) : NaN;
  if (!match || hundredths > MAX_BOUND_HUNDREDTHS) {
    throw new Error(
      `The multiplier's step bound must be a percentage from 0 to 1000 with at most two decimals, such as 1 or 0.5, not '${text}'.`,
    );
  }
  return hundredths;
}

/** The bound as people read it: "1%", "0.5%", "2.25%". */
export function formatStepBound(hundredths: number): string {
  const whole = Math.floor(hundredths / 100);
  const rest = hundredths % 100;
  return `${whole}${rest === 0 ? "" : `.${String(rest).padStart(2, "0").replace(/0$/, "")}`}%`;
}

/** The true minus sign, so "−12.00%" reads as a negative number (a hyphen reads as a dash). */
const MINUS = "\u2212";

/**
 * How much every balance changes when the multiplier goes from `current` to `next`:
 * (next / current − 1) × 100 %, with its sign and two to four decimals ("+0.50%", "−4.762%",
 * "+0.0125%", "0.00%"). Rounded away from zero at the fourth decimal, so a change is never shown
 * smaller than it is (a step just above a 1% bound reads "+1.0001%", not "+1.00%").
 */
export function balanceChangePercent(current: bigint, next: bigint): string {
  if (current <= 0n) throw new Error("The current multiplier must be above 0.");
  const diff = next - current;
  const abs = diff < 0n ? -diff : diff;
  // Ten-thousandths of a percent: |diff| / current × 100 × 10^4, rounded up.
  const scaled = abs * 1_000_000n;
  const units = (scaled + current - 1n) / current;
  const whole = (units / 10_000n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const decimals = (units % 10_000n)
    .toString()
    .padStart(4, "0")
    .replace(/0{1,2}$/, "");
  const sign = diff > 0n ? "+" : diff < 0n ? MINUS : "";
  return `${sign}${whole}.${decimals}%`;
}

/** The percentage as the forms and the tasks say it: "+0.50% to every balance". */
export const changeToEveryBalance = (current: bigint, next: bigint) => `${balanceChangePercent(current, next)} to every balance`;

/** Why a change must be typed again: it lowers every balance, or raises it by more than the bound. */
export type RetypeReason = "decrease" | "above bound";

/** Whether going from `current` to `next` must be typed again, and why; null when it may go as it is. */
export function retypeReason(current: bigint, next: bigint, boundHundredths: number): RetypeReason | null {
  if (next < current) return "decrease";
  // next / current − 1 > bound / 10^4, kept in integers.
  if ((next - current) * 100n * HUNDREDTHS > current * BigInt(boundHundredths)) return "above bound";
  return null;
}

/** The warning a form shows, and a task refuses with, before a change that must be typed again. */
export function retypeWarning(reason: RetypeReason, current: bigint, next: bigint, boundHundredths: number): string {
  const change = balanceChangePercent(current, next);
  return reason === "decrease"
    ? `This lowers the multiplier, so every holder's balance goes down (${change}).`
    : `This raises every holder's balance by ${change.slice(1)}, more than the ${formatStepBound(boundHundredths)} one change may move it without a second look.`;
}

/** The second entry matches the first exactly (as typed, only surrounding spaces aside), and is not empty. */
export const retyped = (first: string, second: string): boolean => first.trim() !== "" && first.trim() === second.trim();
