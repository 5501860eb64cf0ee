import { z } from "zod";
import {
  EVENT_FILTERS,
  EVENTS_DEFAULT_LIMIT,
  EVENTS_MAX_LIMIT,
  HISTORY_DEFAULT_LIMIT,
  HISTORY_MAX_LIMIT,
  INDEXED_EVENT_NAMES,
  resolveEventName,
} from "../events";
import { endpoints } from "./endpoint";
import {
  Address,
  AddressInput,
  anyCaseOf,
  BaseUnits,
  BlockNumber,
  Bytes32,
  matching,
  rangeInOrder,
  TokenAmount,
  TxHash,
  UnixSeconds,
  wholeNumber,
} from "./schemas";

/** Reads of the token and its events: GET /api/token, /events, /accounts/:address/history, /roles, /blocklist, /stats/supply. */

export const TokenInfo = z
  .strictObject({
    totalSupply: BaseUnits,
    totalShares: BaseUnits,
    decimals: z.number().int().meta({ example: 18 }),
    rewardMultiplier: BaseUnits.meta({ description: "The reward multiplier in 18-decimal units: 1e18 is 1.0." }),
    paused: z.boolean(),
    name: z.string().meta({ example: "USDX" }),
    symbol: z.string().meta({ example: "USDX" }),
    blockNumber: BlockNumber,
    source: z.enum(["chain", "index"]).optional().meta({
      description:
        "'chain': read from the node at blockNumber. 'index': the node could not be asked, so these are the index's figures as of its checkpoint.",
    }),
  })
  .meta({ id: "TokenInfo" });
export type TokenInfo = z.infer<typeof TokenInfo>;

/**
 * The Safe whose executed proposal sent a row's transaction (a mint an Operations Safe's owners
 * approved shows as Mint, via that Safe). Present only for such rows.
 */
export const SafeVia = z
  .strictObject({
    address: Address,
    name: z.string().meta({ description: "The deployment's name for the Safe, else its short address.", example: "Operations Safe" }),
  })
  .meta({
    id: "SafeVia",
    description:
      "The Safe that executed this transaction: one of its proposals (made on this server) ran in it. Absent for any other transaction, and until the Safe's proposals were read after it ran.",
  });
export type SafeVia = z.infer<typeof SafeVia>;

/** A contract event as the API answers it (its decoded arguments too). */
export const ContractEvent = z
  .strictObject({
    name: z.string().meta({ example: "Transfer" }),
    signature: z.string().meta({ example: "Transfer(address,address,uint256)" }),
    contract: Address,
    transactionHash: TxHash,
    logIndex: z.number().int(),
    blockNumber: BlockNumber,
    timestamp: UnixSeconds,
    args: z
      .record(z.string(), z.union([z.string(), z.boolean()]))
      .meta({ description: "The event's arguments by name; numbers as decimal strings." }),
    sharesMoved: BaseUnits.optional().meta({ description: "Transfer only: the shares it moved (see HistoryEntry)." }),
    amountMoved: BaseUnits.optional().meta({ description: "Transfer only: what those shares were worth." }),
    viaSafe: SafeVia.optional(),
  })
  .meta({ id: "ContractEvent" });
export type ContractEvent = z.infer<typeof ContractEvent>;

const Cursor = z.string().nullable().meta({ description: "Pass back as `cursor` for the next, older page; null on the last page." });

export const EventPage = z
  .strictObject({
    events: z.array(ContractEvent),
    range: z.strictObject({ fromBlock: BlockNumber, toBlock: BlockNumber, hasMore: z.boolean() }),
    cursor: Cursor,
  })
  .meta({ id: "EventPage" });
export type EventPage = z.infer<typeof EventPage>;

/**
 * What a Transfer really moved. USDX converts the amount to shares rounding down at the multiplier
 * in effect at that log, so the event's value can exceed what moved, and a value worth less than
 * one share moves nothing though the event is emitted.
 */
export const TransferMoved = z.strictObject({
  sharesMoved: BaseUnits.meta({ description: "Shares moved: floor(value * 1e18 / multiplier)." }),
  amountMoved: BaseUnits.meta({
    description: 'The tokens those shares were worth: floor(shares * multiplier / 1e18); "0" when no share moved.',
  }),
});
export type TransferMoved = z.infer<typeof TransferMoved>;

export const HistoryEntry = z
  .strictObject({
    hash: TxHash,
    type: z.enum(["Transfer", "Mint", "Burn"]),
    from: Address,
    to: Address,
    amount: TokenAmount,
    amountRaw: BaseUnits.meta({ description: "The event's value in base units; what moved is amountMoved." }),
    ...TransferMoved.shape,
    blockNumber: BlockNumber,
    logIndex: z.number().int(),
    timestamp: UnixSeconds,
    status: z.literal("confirmed"),
    viaSafe: SafeVia.optional(),
  })
  .meta({ id: "HistoryEntry" });
export type HistoryEntry = z.infer<typeof HistoryEntry>;

export const HistoryPage = z.strictObject({ items: z.array(HistoryEntry), nextCursor: Cursor }).meta({ id: "HistoryPage" });
export type HistoryPage = z.infer<typeof HistoryPage>;

export const RoleHolders = z
  .strictObject({ roleName: z.string().meta({ example: "MINTER_ROLE" }), roleHash: Bytes32, holders: z.array(Address) })
  .meta({ id: "RoleHolders" });
export type RoleHolders = z.infer<typeof RoleHolders>;

export const BlockedAccount = z
  .strictObject({
    address: Address,
    isBlocked: z.literal(true),
    since: z.strictObject({ blockNumber: BlockNumber, timestamp: UnixSeconds, transactionHash: TxHash }).nullable(),
  })
  .meta({ id: "BlockedAccount" });
export type BlockedAccount = z.infer<typeof BlockedAccount>;

/** One point of the supply chart; the three figures are formatted decimal strings (18 decimals). */
export const SupplyPoint = z
  .strictObject({
    blockNumber: BlockNumber,
    timestamp: UnixSeconds,
    totalSupply: TokenAmount,
    totalShares: TokenAmount,
    rewardMultiplier: TokenAmount,
  })
  .meta({ id: "SupplyPoint" });
export type SupplyPoint = z.infer<typeof SupplyPoint>;

// ---------------------------------------------------------------- input

/** A block in a query: any block a chain here will reach (15 digits), stated as the integer it is. */
export const blockNumber = wholeNumber(0, 999_999_999_999_999, {
  invalid: "must be a block number (digits only)",
  outOfRange: "must be a block number (digits only)",
});
/** A block range's ends, each inclusive; fromBlock after toBlock is refused (rangeInOrder). */
export const blockRange = {
  fromBlock: blockNumber.optional().meta({
    description: "The first block to include; not after toBlock (JSON Schema cannot compare two parameters, so this says it).",
  }),
  toBlock: blockNumber.optional().meta({ description: "The last block to include; not before fromBlock." }),
};

const limit = (fallback: number, max: number) =>
  wholeNumber(1, max)
    .default(fallback)
    .meta({ description: `1 to ${max}; ${fallback} when left out.` });

/** Where a page stopped, in chain order: the next, older page starts after it. */
export interface EventPosition {
  blockNumber: number;
  logIndex: number;
}
// A cursor as a page hands it out: 'block-logIndex'.
const CURSOR_TYPED = /^\d{1,15}-\d{1,9}$/;
const cursor = matching(z.string().max(40, { abort: true }), CURSOR_TYPED, () => "cursor must be the cursor of an earlier page.")
  .transform((text): EventPosition => {
    const [blockNumber, logIndex] = text.split("-").map(Number);
    return { blockNumber, logIndex };
  })
  .optional()
  .meta({ description: "The previous page's cursor ('block-logIndex'), for the next, older page." });

const FILTER_LABELS = EVENT_FILTERS.map((f) => f.label);
// A filter's label or an indexed event's name, in any case, surrounding spaces allowed (resolveEventName).
const EVENT_NAME_TYPED = new RegExp(`^\\s*(?:${anyCaseOf([...FILTER_LABELS, ...INDEXED_EVENT_NAMES])})\\s*$`);
/** An eventName filter, as the stored event name (null: every event). */
export const eventName = matching(
  z.string().max(64, { abort: true }),
  EVENT_NAME_TYPED,
  (text) => `Unknown eventName '${text}': use one of ${FILTER_LABELS.join(", ")}.`,
)
  .transform((text) => resolveEventName(text) ?? null)
  .optional()
  .meta({
    description: `A filter (${FILTER_LABELS.join(", ")}) or an indexed event's name, in any case; All Events, or none, is every event.`,
    example: "Transfer",
  });

export const tokenApi = endpoints({
  "GET /api/token": {
    tag: "Token",
    summary: "Supply, shares, multiplier and pause state",
    description: "Read from the chain at its latest block; when the node cannot be asked, the index's figures (source: 'index').",
    access: "public",
    answer: TokenInfo,
    errors: [503],
  },
  "GET /api/events": {
    tag: "Token",
    summary: "Contract events, newest first",
    description: `Events of USDX and BatchPayments from the index, newest first, a page at a time. eventName filters: ${EVENT_FILTERS.map((f) => f.label).join(", ")}.`,
    access: "public",
    query: z
      .object({ ...blockRange, limit: limit(EVENTS_DEFAULT_LIMIT, EVENTS_MAX_LIMIT), eventName, cursor })
      .superRefine(rangeInOrder("Block")),
    answer: EventPage,
    errors: [503],
  },
  "GET /api/accounts/:address/history": {
    tag: "Token",
    summary: "An account's transfers, mints and burns",
    access: "public",
    params: z.object({ address: AddressInput }),
    query: z.object({ limit: limit(HISTORY_DEFAULT_LIMIT, HISTORY_MAX_LIMIT), cursor }),
    answer: HistoryPage,
    errors: [503],
  },
  "GET /api/roles": {
    tag: "Token",
    summary: "Each role and its holders",
    access: "public",
    answer: z.strictObject({ roles: z.array(RoleHolders) }),
    errors: [503],
  },
  "GET /api/blocklist": {
    tag: "Token",
    summary: "Blocked accounts",
    access: "public",
    answer: z.strictObject({ blocked: z.array(BlockedAccount) }),
    errors: [503],
  },
  "GET /api/stats/supply": {
    tag: "Token",
    summary: "Supply, shares and multiplier over time",
    description: "At most `points` points, spread evenly over the blocks where one of the three changed.",
    access: "public",
    query: z.object({ points: limit(500, 5000) }),
    answer: z.strictObject({ points: z.array(SupplyPoint) }),
    errors: [503],
  },
});
