import { eq } from "drizzle-orm";
import { parseAddress } from "@common/addresses";
import { transferMoved } from "@common/amounts";
import { REWARDS_WINDOW_SECONDS } from "@common/holders";
import { MULTIPLIER_BASE } from "@common/token";
import type { Rewards } from "@common/apiTypes";
import type { Database } from "../../db/client";
import { indexedBlocks, indexerState } from "../../db/schema";
import { AnswersPerVersion } from "./answersPerVersion";
import type { EventRecord, EventsService } from "./events";

export type { Rewards };

/**
 * What an account's balance earned from the reward multiplier (docs/PRODUCT.md, Dashboard,
 * 'Rewards earned').
 *
 * An account holds shares; its balance is floor(shares * m / 1e18) at the multiplier m. Between
 * two of the account's Transfers its shares stand still, so only a multiplier change moves the
 * balance, and by exactly
 *
 *     reward = floor(shares * m_new / 1e18) - floor(shares * m_old / 1e18)
 *
 * (negative if the multiplier went down; the contract lets a new value be set lower, never below
 * 1.0). A Transfer moves floor(value * 1e18 / m) shares at the multiplier of its log, as the
 * contract does. Every step starts where the last ended, from 0 shares, so the current balance is
 * the rewards plus the balance changes the Transfers made: `fromTransfers` is balance - allTime.
 * The 30 days are block time: the rewards of the multiplier changes whose block is at most 30 days
 * (2,592,000 s) older than the index's newest block, so an answer depends on the index alone.
 */
export function replayRewards(
  account: string,
  rows: readonly EventRecord[],
  windowStart: number,
): { shares: bigint; multiplier: bigint; balance: bigint; allTime: bigint; recent: bigint } {
  const me = account.toLowerCase();
  let shares = 0n;
  let multiplier = MULTIPLIER_BASE;
  let allTime = 0n;
  let recent = 0n;
  for (const row of rows) {
    const args = row.args as Record<string, string>;
    if (row.eventName === "RewardMultiplier") {
      const next = BigInt(args.value);
      const reward = (shares * next) / MULTIPLIER_BASE - (shares * multiplier) / MULTIPLIER_BASE;
      allTime += reward;
      if (row.blockTime >= windowStart) recent += reward;
      multiplier = next;
    } else if (row.eventName === "Transfer") {
      const moved = transferMoved(BigInt(args.value), multiplier).shares;
      // Both for a transfer to oneself: it moves nothing.
      if (args.from.toLowerCase() === me) shares -= moved;
      if (args.to.toLowerCase() === me) shares += moved;
    }
  }
  return { shares, multiplier, balance: (shares * multiplier) / MULTIPLIER_BASE, allTime, recent };
}

/** Answers kept per index version (they change only when the index does). */
const ANSWERS_KEPT = 256;

export class RewardsService {
  private readonly answers = new AnswersPerVersion<Rewards>(ANSWERS_KEPT);

  constructor(
    private readonly db: Database,
    private readonly events: EventsService,
    private readonly indexVersion: () => Promise<number>,
  ) {}

  /** `address`: as the declaration checked it (common/api/holders.ts): an address, not the zero address. */
  async rewards(address: string): Promise<Rewards> {
    const account = parseAddress(address);
    return this.answers.get(await this.indexVersion(), account.toLowerCase(), () => this.replay(account));
  }

  private async replay(account: string): Promise<Rewards> {
    const lower = account.toLowerCase();
    const asOf = await this.newestBlock();
    // The account's Transfers both ways (each on its own index) and every multiplier change, in chain order.
    const rows = asOf
      ? await this.events.eventsIn(
          [{ eventName: "Transfer", from: lower }, { eventName: "Transfer", to: lower }, { eventName: "RewardMultiplier" }],
          Number.MIN_SAFE_INTEGER,
          asOf.blockNumber,
        )
      : [];
    // A transfer to oneself is found by both Transfer branches: keep it once.
    const seen = new Set<string>();
    const once = rows.filter((row) => {
      const key = `${row.blockNumber}-${row.logIndex}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    const result = replayRewards(lower, once, asOf ? asOf.timestamp - REWARDS_WINDOW_SECONDS : 0);
    return {
      address: account,
      shares: result.shares.toString(),
      rewardMultiplier: result.multiplier.toString(),
      balance: result.balance.toString(),
      allTime: result.allTime.toString(),
      last30Days: result.recent.toString(),
      fromTransfers: (result.balance - result.allTime).toString(),
      asOf,
    };
  }

  /** The index's checkpoint and its block's time; null before the index stored a block. */
  private async newestBlock(): Promise<{ blockNumber: number; timestamp: number } | null> {
    const [row] = await this.db
      .select({ blockNumber: indexerState.checkpointBlock, timestamp: indexedBlocks.blockTime })
      .from(indexerState)
      .innerJoin(indexedBlocks, eq(indexedBlocks.blockNumber, indexerState.checkpointBlock));
    return row ?? null;
  }
}
