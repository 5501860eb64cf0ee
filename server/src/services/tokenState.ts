import { formatUnits } from "ethers";
import type { Chain } from "../chain";
import { unavailable } from "../errors";
import type { EventsService } from "./events";
import { historyType } from "../../../common/events";
import { ROLE_NAMES, ROLES } from "../../../common/roles";
import { MULTIPLIER_BASE, TOKEN_DECIMALS } from "../../../common/token";
import type { BlockedAccount, RoleHolders, SupplyPoint, TokenInfo } from "../../../common/apiTypes";

export type { BlockedAccount, RoleHolders, SupplyPoint, TokenInfo };

// Spec section 9: server data is cached for at most 5 minutes.
export const TOKEN_CACHE_MS = 5 * 60 * 1000;





/** Runs a chain read, turning a node that does not answer into a 503 with a clear message. */
export async function fromChain<T>(what: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "CALL_EXCEPTION") throw error;
    throw unavailable(`Cannot read ${what}: the chain's RPC node is not answering. Try again shortly.`);
  }
}

/**
 * What the token holds now, read from the chain and cached per indexed block: a cached answer is
 * served while the index has seen no newer event, and never for more than 5 minutes.
 */
export class TokenStateService {
  private tokenCache: { checkpoint: number | null; at: number; value: TokenInfo } | null = null;
  private rolesCache: { checkpoint: number | null; value: RoleHolders[] } | null = null;

  constructor(
    private readonly chain: Chain,
    private readonly events: EventsService,
    private readonly now: () => number = Date.now,
  ) {}

  async token(): Promise<TokenInfo> {
    const checkpoint = await this.events.indexedBlock();
    const cached = this.tokenCache;
    if (cached && cached.checkpoint === checkpoint && this.now() - cached.at < TOKEN_CACHE_MS) return cached.value;
    const { usdx, provider } = this.chain;
    const value = await fromChain("the token", async () => {
      const blockNumber = await provider.getBlockNumber();
      const tag = { blockTag: blockNumber };
      const [totalSupply, totalShares, decimals, rewardMultiplier, paused, name, symbol] = await Promise.all([
        usdx.totalSupply(tag),
        usdx.totalShares(tag),
        usdx.decimals(tag),
        usdx.rewardMultiplier(tag),
        usdx.paused(tag),
        usdx.name(tag),
        usdx.symbol(tag),
      ]);
      return {
        totalSupply: totalSupply.toString(),
        totalShares: totalShares.toString(),
        decimals: Number(decimals),
        rewardMultiplier: rewardMultiplier.toString(),
        paused,
        name,
        symbol,
        blockNumber,
      };
    });
    this.tokenCache = { checkpoint, at: this.now(), value };
    return value;
  }

  /** Current holders of every role: accounts ever granted it (from the index), confirmed with hasRole. */
  async roles(): Promise<RoleHolders[]> {
    const checkpoint = await this.events.indexedBlock();
    if (this.rolesCache && this.rolesCache.checkpoint === checkpoint) return this.rolesCache.value;
    const value = await Promise.all(
      ROLE_NAMES.map(async (roleName) => {
        const roleHash = ROLES[roleName];
        const candidates = await this.events.accountsNamedBy("RoleGranted", roleHash);
        const held = await fromChain("role holders", () => Promise.all(candidates.map((a) => this.chain.usdx.hasRole(roleHash, a))));
        return { roleName, roleHash, holders: candidates.filter((_, i) => held[i]).sort() };
      }),
    );
    this.rolesCache = { checkpoint, value };
    return value;
  }

  /** Accounts blocked now: named by an AccountBlocked event, confirmed with isBlocked. */
  async blocklist(): Promise<BlockedAccount[]> {
    const candidates = await this.events.accountsNamedBy("AccountBlocked");
    const flags = await fromChain("the blocklist", () => Promise.all(candidates.map((a) => this.chain.usdx.isBlocked(a))));
    const blocked = candidates.filter((_, i) => flags[i]).sort();
    const lastBlocks = await this.events.replay(["AccountBlocked"]);
    return blocked.map((address) => {
      const event = [...lastBlocks].reverse().find((e) => e.args.account === address);
      return {
        address,
        isBlocked: true as const,
        since: event ? { blockNumber: event.blockNumber, timestamp: event.blockTime, transactionHash: event.transactionHash } : null,
      };
    });
  }

  /**
   * Supply, shares and multiplier after every mint, burn and multiplier change, replayed from the
   * index with the contract's own arithmetic (shares = amount * 1e18 / multiplier, rounded down),
   * so the last point equals what the chain reports. At most `maxPoints`, evenly thinned.
   */
  async supplyHistory(maxPoints: number): Promise<SupplyPoint[]> {
    const rows = await this.events.replay(["Transfer", "RewardMultiplier"]);
    let multiplier = MULTIPLIER_BASE;
    let shares = 0n;
    const points: SupplyPoint[] = [];
    for (const row of rows) {
      const args = row.args as Record<string, string>;
      if (row.eventName === "RewardMultiplier") {
        multiplier = BigInt(args.value);
      } else if (historyType(args.from, args.to) === "Mint") {
        shares += (BigInt(args.value) * MULTIPLIER_BASE) / multiplier;
      } else if (historyType(args.from, args.to) === "Burn") {
        shares -= (BigInt(args.value) * MULTIPLIER_BASE) / multiplier;
      } else {
        continue;
      }
      const point: SupplyPoint = {
        blockNumber: row.blockNumber,
        timestamp: row.blockTime,
        totalSupply: formatUnits((shares * multiplier) / MULTIPLIER_BASE, TOKEN_DECIMALS),
        totalShares: formatUnits(shares, TOKEN_DECIMALS),
        rewardMultiplier: formatUnits(multiplier, 18),
      };
      // Several changes in one block: the chart wants the block's final state.
      if (points.length > 0 && points[points.length - 1].blockNumber === row.blockNumber) points[points.length - 1] = point;
      else points.push(point);
    }
    if (points.length <= maxPoints) return points;
    const step = (points.length - 1) / (maxPoints - 1);
    return Array.from({ length: maxPoints }, (_, i) => points[Math.round(i * step)]);
  }
}
