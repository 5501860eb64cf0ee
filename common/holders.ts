/**
 * The Holders screen's rules, shared by the API's declaration (common/api/holders.ts), the server
 * and the dashboard (which must not import zod, so they live here).
 */

export const HOLDERS_DEFAULT_LIMIT = 50;
export const HOLDERS_MAX_LIMIT = 500;

export const HOLDER_SORTS = ["balance", "address", "firstActivity", "lastActivity"] as const;
export type HolderSort = (typeof HOLDER_SORTS)[number];
export type SortOrder = "asc" | "desc";

/** Each sort's order when none is asked for: the largest balance, the newest activity, addresses A to Z. */
export const DEFAULT_ORDER: Record<HolderSort, SortOrder> = {
  balance: "desc",
  address: "asc",
  firstActivity: "desc",
  lastActivity: "desc",
};

/** A search is part of an address: hex digits, with or without a leading 0x, at most a whole address. */
export const HOLDER_SEARCH = /^(0x)?[0-9a-fA-F]*$/;
export const HOLDER_SEARCH_MAX = 42;
export const isHolderSearch = (text: string) => text.length <= HOLDER_SEARCH_MAX && HOLDER_SEARCH.test(text);

/** 'Rewards earned': the recent window is 30 days of block time, in seconds. */
export const REWARDS_WINDOW_SECONDS = 30 * 24 * 60 * 60;
