import type { HistoryType } from "./events";

/**
 * What the API answers, as types: the server's services build these, the dashboard reads them.
 * One declaration each, so a change to an answer is a type error on both sides.
 */

/** A contract event as the API answers it (spec section 3, plus its decoded arguments). */
export interface ContractEvent {
  name: string;
  signature: string;
  contract: string;
  transactionHash: string;
  logIndex: number;
  blockNumber: number;
  /** Unix seconds. */
  timestamp: number;
  args: Record<string, string | boolean>;
}

export interface EventPage {
  events: ContractEvent[];
  range: { fromBlock: number; toBlock: number; hasMore: boolean };
  /** Pass back as `cursor` for the next, older page; null on the last page. */
  cursor: string | null;
}

export interface HistoryEntry {
  hash: string;
  type: HistoryType;
  from: string;
  to: string;
  /** USDX, as an exact decimal string. */
  amount: string;
  /** Base units (18 decimals). */
  amountRaw: string;
  blockNumber: number;
  logIndex: number;
  timestamp: number;
  status: "confirmed";
}

export interface HistoryPage {
  items: HistoryEntry[];
  /** Pass back as `cursor` for the next, older page; null on the last page. */
  nextCursor: string | null;
}

export interface TokenInfo {
  /** Base units, as decimal strings (they exceed JavaScript numbers). */
  totalSupply: string;
  totalShares: string;
  decimals: number;
  rewardMultiplier: string;
  paused: boolean;
  name: string;
  symbol: string;
  blockNumber: number;
}

export interface RoleHolders {
  roleName: string;
  roleHash: string;
  holders: string[];
}

export interface BlockedAccount {
  address: string;
  isBlocked: true;
  since: { blockNumber: number; timestamp: number; transactionHash: string } | null;
}

/** One point of the supply chart; the three figures are decimal strings (18 decimals, formatted). */
export interface SupplyPoint {
  blockNumber: number;
  timestamp: number;
  totalSupply: string;
  totalShares: string;
  rewardMultiplier: string;
}
