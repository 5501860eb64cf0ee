import { z } from "zod";
import { endpoints } from "./endpoint";
import { EXPORT_LIMITS, SAFE_CELLS } from "./exports";
import { HOLDER_SEARCH, HOLDER_SEARCH_MAX, HOLDER_SORTS, HOLDERS_DEFAULT_LIMIT, HOLDERS_MAX_LIMIT } from "../holders";
import { ZERO_ADDRESS_TYPED } from "../addresses";
import { Address, AddressInput, BaseUnits, BlockNumber, OFFSET_MAX, UnixSeconds, WHOLE, wholeNumber } from "./schemas";

/** /api/holders and /api/rewards: who holds USDX, and what a balance earned from the multiplier. */

export type { HolderSort, SortOrder } from "../holders";

const Activity = z
  .strictObject({ blockNumber: BlockNumber, timestamp: UnixSeconds })
  .meta({ id: "HolderActivity", description: "A block in which a Transfer touched the account, and that block's time." });

export const Holder = z
  .strictObject({
    address: Address,
    balance: BaseUnits.meta({ description: "floor(shares * rewardMultiplier / 1e18): what balanceOf answers." }),
    shares: BaseUnits,
    shareOfSupply: z.string().meta({
      description: "balance / totalSupply as a decimal fraction, rounded down to 8 decimal places ('0.25' is a quarter of the supply).",
      example: "0.0125",
    }),
    firstActivity: Activity,
    lastActivity: Activity,
  })
  .meta({ id: "Holder" });
export type Holder = z.infer<typeof Holder>;

export const HolderPage = z
  .strictObject({
    holders: z.array(Holder),
    holderCount: z.number().int().meta({ description: "Accounts holding USDX now (shares above 0), whatever the search." }),
    matching: z.number().int().meta({ description: "Holders the search matches, in all (the holder count without a search)." }),
    offset: z.number().int(),
    limit: z.number().int(),
    sort: z.enum(HOLDER_SORTS),
    order: z.enum(["asc", "desc"]),
    totalSupply: BaseUnits.meta({ description: "floor(totalShares * rewardMultiplier / 1e18), as of blockNumber." }),
    totalShares: BaseUnits,
    rewardMultiplier: BaseUnits,
    blockNumber: BlockNumber.nullable().meta({
      description: "The index's block these figures are as of; null before the index's first step.",
    }),
  })
  .meta({ id: "HolderPage" });
export type HolderPage = z.infer<typeof HolderPage>;

const SignedBaseUnits = z.string().meta({
  description: "A whole number of base units (18 decimals) as a decimal string, negative when the multiplier went down.",
  example: "10000000000000000000",
});

export const Rewards = z
  .strictObject({
    address: Address,
    shares: BaseUnits,
    rewardMultiplier: BaseUnits,
    balance: BaseUnits,
    allTime: SignedBaseUnits.meta({ description: "What multiplier changes added to the balance since the deployment." }),
    last30Days: SignedBaseUnits.meta({ description: "What multiplier changes added in the 30 days of block time up to asOf." }),
    fromTransfers: SignedBaseUnits.meta({
      description: "The rest of the balance: balance - allTime, what transfers, mints and burns moved.",
    }),
    asOf: z.strictObject({ blockNumber: BlockNumber, timestamp: UnixSeconds }).nullable().meta({
      description:
        "The index's newest block and its time: the figures are as of it, and the 30 days end at it. Null before the index's first step.",
    }),
  })
  .meta({ id: "Rewards" });
export type Rewards = z.infer<typeof Rewards>;

// ---------------------------------------------------------------- input

const sort = z
  .enum(HOLDER_SORTS)
  .default("balance")
  .meta({ description: "balance (the default), address, firstActivity or lastActivity." });
const order = z
  .enum(["asc", "desc"])
  .optional()
  .meta({ description: "asc or desc; by default desc, but asc for address. desc is exactly asc reversed (ties go by address)." });
const search = z
  .string()
  .max(HOLDER_SEARCH_MAX)
  .regex(HOLDER_SEARCH, "must be part of an address: hex digits (0-9, a-f), with or without a leading 0x")
  .optional()
  .meta({
    description: "Any case. Hex digits match anywhere in the address's 40 hex digits; with a leading 0x they match its beginning.",
    example: "0x7099",
  });
const listQuery = { sort, order, search };

export const holdersApi = endpoints({
  "GET /api/holders": {
    tag: "Holders",
    summary: "Accounts holding USDX, a page at a time",
    description:
      "Every account whose shares are above 0, from the event index (the contract's arithmetic over every Transfer and multiplier change), " +
      "with its balance, share of supply and first and last Transfer. Sorted and searched on the server; pages by offset.",
    access: "user",
    query: z.object({
      ...listQuery,
      offset: wholeNumber(0, OFFSET_MAX).default(0).meta({ description: "Holders to skip; 0 when left out." }),
      limit: wholeNumber(1, HOLDERS_MAX_LIMIT)
        .default(HOLDERS_DEFAULT_LIMIT)
        .meta({ description: `Holders per page, 1 to ${HOLDERS_MAX_LIMIT}; ${HOLDERS_DEFAULT_LIMIT} when left out.` }),
    }),
    answer: HolderPage,
    errors: [503],
  },
  "GET /api/holders/export": {
    tag: "Holders",
    summary: "Export the holders as CSV",
    description:
      "Every holder the search matches, in the asked order: Address, Balance, Shares, Share of supply (USDX and shares as exact decimals), " +
      `First activity block and time, Last activity block and time (ISO 8601, UTC). ${SAFE_CELLS} ${EXPORT_LIMITS}`,
    access: "user",
    query: z.object(listQuery),
    answer: {
      contentType: "text/csv; charset=utf-8",
      description: "A CSV file (usdx_holders.csv).",
      example:
        '"Address","Balance","Shares","Share of supply","First activity block","First activity time","Last activity block","Last activity time"\r\n' +
        '"0x70997970C51812dc3A010C7d01b50e0d17dc79C8","1015","1000","0.25","12","2026-01-05T09:30:00.000Z","40","2026-01-07T10:00:00.000Z"\r\n',
    },
    noStore: true,
    // 429: the export limits (requests a minute, exports at once, rows a minute), with Retry-After.
    errors: [429, 503],
  },
  "GET /api/rewards/:address": {
    tag: "Holders",
    summary: "What an account's balance earned from the reward multiplier",
    description:
      "The account's Transfers replayed with every multiplier change, in chain order. Each change adds " +
      "floor(shares * new / 1e18) - floor(shares * old / 1e18) for the shares held then (negative if the multiplier went down). " +
      "All time, and over the 30 days of block time that end at the index's newest block.",
    access: "user",
    params: z.object({
      address: AddressInput.refine((address) => !ZERO_ADDRESS_TYPED.test(address), {
        message: "The zero address holds no USDX: it is where mints come from and burns go.",
        params: WHOLE,
      }).meta({
        not: { pattern: ZERO_ADDRESS_TYPED.source },
        description:
          "An Ethereum address: 0x and 40 hex characters. All lower or all upper case is taken as it is; mixed case must be a right EIP-55 checksum. Not the zero address, which holds no USDX.",
      }),
    }),
    answer: Rewards,
    errors: [503],
  },
});
