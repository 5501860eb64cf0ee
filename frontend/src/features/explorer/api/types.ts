/** What the explorer views show, already decoded and formatted (no ethers types, no bigints). */

export type ArgValue =
  { kind: "address"; address: string; label: string | null } | { kind: "text"; text: string } | { kind: "list"; items: ArgValue[] };

export interface DecodedArg {
  name: string;
  type: string;
  value: ArgValue;
}

/** A call to one of our contracts, decoded with its ABI. */
export interface DecodedCall {
  contract: string;
  name: string;
  signature: string;
  args: DecodedArg[];
}

export interface DecodedLog {
  index: number;
  address: string;
  /** 'USDX' or 'BatchPayments' when the log comes from one of ours. */
  contract: string | null;
  /** Null when the event is not one of our ABIs'. */
  name: string | null;
  signature: string | null;
  args: DecodedArg[];
  topics: string[];
  data: string;
  /**
   * A USDX Transfer only: what it really moved at the multiplier in effect at this log (USDX rounds
   * the amount down to whole shares), base units as decimal strings; null when the chain could not
   * say (no state for the block before), absent for other logs.
   */
  moved?: { value: string; shares: string; amount: string } | null;
}

export type TxStatus = "success" | "reverted" | "pending";

export interface TransactionView {
  hash: string;
  status: TxStatus;
  blockNumber: number | null;
  /** Unix seconds; null while pending. */
  timestamp: number | null;
  from: string;
  fromLabel: string | null;
  to: string | null;
  toLabel: string | null;
  /** Set when the transaction deployed a contract. */
  createdContract: string | null;
  /** Ether sent, e.g. '0.0 ETH'. */
  value: string;
  nonce: number;
  call: DecodedCall | null;
  /** The raw input, shown when the call cannot be decoded. */
  input: string;
  gasLimit: string;
  gasUsed: string | null;
  fee: string | null;
  logs: DecodedLog[];
  /** Why it reverted, in words; null unless reverted. */
  revertReason: string | null;
}

export interface BlockTransaction {
  hash: string;
  from: string;
  fromLabel: string | null;
  to: string | null;
  toLabel: string | null;
  /** The function called ('transfer'), or a description ('ETH transfer', 'Contract creation'). */
  method: string;
  value: string;
}

export interface BlockView {
  number: number;
  hash: string;
  parentHash: string;
  timestamp: number;
  gasUsed: string;
  gasLimit: string;
  miner: string;
  baseFee: string | null;
  transactions: BlockTransaction[];
  /** The chain's latest block when this was read, for the 'Next block' link. */
  latest: number;
}

export type BlockLookup = { found: true; block: BlockView } | { found: false; latest: number };
