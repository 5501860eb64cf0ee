/** USDX's fixed facts (PRODUCT.md sections 1 and 9). */
export const TOKEN_NAME = "XFT Digital Dollar";
export const TOKEN_SYMBOL = "USDX";
export const TOKEN_DECIMALS = 18;

/** The reward multiplier's fixed-point base: 1e18 is a multiplier of 1.0 (the default). */
export const MULTIPLIER_BASE = 10n ** 18n;
