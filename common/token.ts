/** USDX's fixed facts (PRODUCT.md sections 1 and 9). */
export const TOKEN_NAME = "XFT Digital Dollar";
export const TOKEN_SYMBOL = "USDX";
export const TOKEN_DECIMALS = 18;

/** The largest uint256: no amount, share count or multiplier the contract holds can exceed it. */
export const MAX_UINT256 = 2n ** 256n - 1n;

/** The reward multiplier's fixed-point base: 1e18 is a multiplier of 1.0 (the default). */
export const MULTIPLIER_BASE = 10n ** 18n;
