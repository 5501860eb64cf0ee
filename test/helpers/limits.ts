/**
 * The exact supply bound of USDX (issue 13): what the contract lets exist so that totalSupply() and
 * every balanceOf() stay readable. Shared by the unit tests and the property model.
 *
 * convertToTokens(shares) is Math.mulDiv(shares, multiplier, 1e18), which reverts exactly when the
 * result passes 2^256 - 1, that is when shares * multiplier >= 2^256 * 1e18. The contract refuses a
 * mint or a multiplier that would put totalShares past that, and every account holds at most
 * totalShares.
 */
export const MAX_UINT = 2n ** 256n - 1n;
const BASE = 10n ** 18n;

/** shares * multiplier must stay below this for convertToTokens(shares) to return. */
export const SUPPLY_LIMIT = 2n ** 256n * BASE;

/** Whether convertToTokens(shares) returns at `multiplier`. */
export const isReadable = (shares: bigint, multiplier: bigint): boolean => shares * multiplier < SUPPLY_LIMIT;

/** The most shares there may be at `multiplier` (>= 1.0, so it fits in a uint256). */
export const maxSharesAt = (multiplier: bigint): bigint => (SUPPLY_LIMIT - 1n) / multiplier;

/** The largest multiplier `totalShares` allow: any uint256 when there are none (or few enough). */
export const maxMultiplierFor = (totalShares: bigint): bigint => {
  if (totalShares === 0n) return MAX_UINT;
  const most = (SUPPLY_LIMIT - 1n) / totalShares;
  return most > MAX_UINT ? MAX_UINT : most;
};

/**
 * The largest amount a mint may create with `totalShares` in existence at `multiplier`: the mint
 * adds floor(amount * 1e18 / multiplier) shares, at most maxSharesAt(multiplier) - totalShares of
 * them. One wei more adds one share too many (unless the answer is already 2^256 - 1).
 */
export const maxMintAmount = (totalShares: bigint, multiplier: bigint): bigint => {
  const room = maxSharesAt(multiplier) - totalShares;
  if (room < 0n) return 0n;
  const most = ((room + 1n) * multiplier - 1n) / BASE;
  return most > MAX_UINT ? MAX_UINT : most;
};
