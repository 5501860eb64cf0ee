import { useState } from "react";
import { changeToEveryBalance, retypeReason, retyped, retypeWarning } from "@common/multiplierStep";
import { useConfig } from "@/lib/config";

/**
 * The oracle's guard on the dashboard (common/multiplierStep.ts): what a multiplier change does to
 * every balance, and whether the value must be typed again (a decrease, or a rise above the
 * deployment's bound, GET /api/config's multiplierMaxStepPercent) before the form may send it.
 */
export interface MultiplierGuard {
  /** "+0.50% to every balance", or null while the field holds no valid change or the multiplier is unread. */
  change: string | null;
  /** Why the value must be typed again (a sentence), or null when it may go as it is. */
  warning: string | null;
  /** What the second field holds. */
  retype: string;
  setRetype(value: string): void;
  /** The form may not send: the value must be typed again and the two do not match yet. */
  blocked: boolean;
}

/** The bound in hundredths of a percent, as the server hands it (a percentage with at most two decimals). */
export const boundOf = (percent: number) => Math.round(percent * 100);

/** Pure: the guard's verdict for `typed` moving the multiplier from `current` to `next`, with `retype` in the second field. */
export function guardMultiplier(
  current: bigint | undefined,
  next: bigint | null,
  typed: string,
  retype: string,
  boundHundredths: number,
): Omit<MultiplierGuard, "retype" | "setRetype"> {
  if (next === null) return { change: null, warning: null, blocked: false };
  if (current === undefined) {
    // Nothing to weigh the change against: it is typed again rather than sent unseen.
    return {
      change: null,
      warning: "The current multiplier has not been read, so the change to every balance cannot be shown.",
      blocked: !retyped(typed, retype),
    };
  }
  const reason = retypeReason(current, next, boundHundredths);
  return {
    change: changeToEveryBalance(current, next),
    warning: reason ? retypeWarning(reason, current, next, boundHundredths) : null,
    blocked: reason !== null && !retyped(typed, retype),
  };
}

/** The guard for a form: `typed` is the first field as it stands, `next` the multiplier it would leave. */
export function useMultiplierGuard(current: bigint | undefined, next: bigint | null, typed: string): MultiplierGuard {
  const bound = boundOf(useConfig().multiplierMaxStepPercent);
  const [retype, setRetype] = useState("");
  return { ...guardMultiplier(current, next, typed, retype, bound), retype, setRetype };
}
