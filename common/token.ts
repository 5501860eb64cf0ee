/** USDX's fixed facts (PRODUCT.md sections 1 and 9). */
export const TOKEN_NAME = "XFT Digital Dollar";
export const TOKEN_SYMBOL = "USDX";
export const TOKEN_DECIMALS = 18;

/** The largest uint256: no amount, share count or multiplier the contract holds can exceed it. */
export const MAX_UINT256 = 2n ** 256n - 1n;

/** The reward multiplier's fixed-point base: 1e18 is a multiplier of 1.0 (the default). */
export const MULTIPLIER_BASE = 10n ** 18n;

/**
 * The reward multiplier's rule, USDX's own (contracts/USDX.sol: setRewardMultiplier,
 * addRewardMultiplier): the multiplier is never below 1.0 (USDXInvalidRewardMultiplier), an
 * increment of 0 is refused the same way, and no argument exceeds uint256.
 */
export const MIN_REWARD_MULTIPLIER = MULTIPLIER_BASE;

/** The Reward Multiplier card's quick add, and the increment the dialog starts from: 0.01 (PRODUCT.md section 9). */
export const MULTIPLIER_QUICK_ADD = 10n ** 16n;

export type MultiplierOperation = "set" | "add";

/** A multiplier argument the contract can take at all, for either operation: above 0, within uint256. */
export const isMultiplierArgument = (value: bigint): boolean => value > 0n && value <= MAX_UINT256;

/**
 * Why USDX would refuse `value` for `operation`, or null: 0 ('not positive'), past uint256
 * ('too large'), or a multiplier set below 1.0 ('below 1.0'). An increment that overflows the
 * current multiplier is the chain's to say (USDXRewardMultiplierOverflow).
 */
export function multiplierRefusal(operation: MultiplierOperation, value: bigint): "not positive" | "too large" | "below 1.0" | null {
  if (value <= 0n) return "not positive";
  if (value > MAX_UINT256) return "too large";
  if (operation === "set" && value < MIN_REWARD_MULTIPLIER) return "below 1.0";
  return null;
}
