import { formatUnits } from "ethers";
import { RPC_TIMEOUT_MS, type Chain } from "../chain";
import { unavailable } from "../errors";
import type { EventsService } from "./events";
import { historyType } from "../../../common/events";
import { ROLE_NAMES, ROLES } from "../../../common/roles";
import { MULTIPLIER_BASE, TOKEN_DECIMALS } from "../../../common/token";
import type { BlockedAccount, RoleHolders, SupplyPoint, TokenInfo } from "../../../common/apiTypes";

export type { BlockedAccount, RoleHolders, SupplyPoint, TokenInfo };

// Spec section 9: server data is cached for at most 5 minutes.
export const TOKEN_CACHE_MS = 5 * 60 * 1000;





/**
 * Runs a chain read, turning a node that does not answer into a 503 with a clear message. A read
 * of several calls in turn gets RPC_TIMEOUT_MS in all, not each, so the caller hears within it.
 */
export async function fromChain<T>(what: string, read: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${RPC_TIMEOUT_MS} ms`)), RPC_TIMEOUT_MS);
  });
  try {
    return await Promise.race([read(), deadline]);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "CALL_EXCEPTION") throw error;
    throw unavailable(`Cannot read ${what}: the chain's RPC node is not answering. Try again shortly.`);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * What the token holds now, read from the chain and cached per state of the index: a cached answer
 * is served while the index has not changed (no new block, no rewind), and never for more than 5
 * minutes. Checking costs nothing (the indexer's version is in memory), and the read after a change
 * is shared by every request that arrives while it is under way.
 */
export class TokenStateService {
  private tokenCache: { version: number; at: number; value: TokenInfo } | null = null;
  private tokenRead: { version: number; value: Promise<TokenInfo> } | null = null;
  private rolesCache: { version: number; value: RoleHolders[] } | null = null;

  constructor(
    private readonly chain: Chain,
    private readonly events: EventsService,
    /** The indexer's version: it changes whenever the index does. */
    private readonly indexVersion: () => number,
    private readonly now: () => number = Date.now,
  ) {}

  async token(): Promise<TokenInfo> {
    const version = this.indexVersion();
    const cached = this.tokenCache;
    if (cached && cached.version === version && this.now() - cached.at < TOKEN_CACHE_MS) return cached.value;
    // A new block makes every poller miss at once: one chain read answers them all.
    let read = this.tokenRead;
    if (read?.version !== version) {
      const current = { version, value: this.readToken() };
      read = this.tokenRead = current;
      current.value
        .then((value) => (this.tokenCache = { version, at: this.now(), value }), () => undefined)
        .finally(() => {
          if (this.tokenRead === current) this.tokenRead = null;
        });
    }
    return read.value;
  }

  private readToken(): Promise<TokenInfo> {
    const { usdx, provider } = this.chain;
    return fromChain("the token", async () => {
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
  }

  /** Current holders of every role: accounts ever granted it (from the index), confirmed with hasRole. */
  async roles(): Promise<RoleHolders[]> {
    const version = this.indexVersion();
    if (this.rolesCache && this.rolesCache.version === version) return this.rolesCache.value;
    const value = await Promise.all(
      ROLE_NAMES.map(async (roleName) => {
        const roleHash = ROLES[roleName];
        const candidates = await this.events.accountsNamedBy("RoleGranted", roleHash);
        const held = await fromChain("role holders", () => Promise.all(candidates.map((a) => this.chain.usdx.hasRole(roleHash, a))));
        return { roleName, roleHash, holders: candidates.filter((_, i) => held[i]).sort() };
      }),
    );
    this.rolesCache = { version, value };
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
