import { formatUnits } from "ethers";
import { RPC_TIMEOUT_MS, type Chain } from "../../chain/client";
import { HttpError, unavailable } from "../../lib/errors";
import { SUPPLY_EVENTS, type EventRecord, type EventsService } from "./events";
import { IndexFold } from "./folds";
import { historyType } from "@common/events";
import { transferMoved } from "@common/amounts";
import { ROLE_NAMES, ROLES } from "@common/roles";
import { MULTIPLIER_BASE, TOKEN_DECIMALS, TOKEN_NAME, TOKEN_SYMBOL } from "@common/token";
import type { BlockedAccount, RoleHolders, SupplyPoint, TokenInfo } from "@common/apiTypes";
import { mapLimit, within } from "../../lib/concurrency";

export type { BlockedAccount, RoleHolders, SupplyPoint, TokenInfo };

// PRODUCT.md section 9: server data is cached for at most 5 minutes.
export const TOKEN_CACHE_MS = 5 * 60 * 1000;

/** Thinned supply answers kept per state of the series (one per `points` asked for). */
const THINNED_ANSWERS = 64;
/** hasRole / isBlocked calls in flight at once when confirming holders. */
const CHAIN_READS_AT_ONCE = 16;

/**
 * Runs a chain read, turning a node that does not answer into a 503 with a clear message. A read
 * of several calls in turn gets RPC_TIMEOUT_MS in all, not each, so the caller hears within it.
 */
export async function fromChain<T>(what: string, read: () => Promise<T>): Promise<T> {
  try {
    return await within(read(), RPC_TIMEOUT_MS, `no answer within ${RPC_TIMEOUT_MS} ms`);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "CALL_EXCEPTION") throw error;
    throw unavailable(`Cannot read ${what}: the chain's RPC node is not answering. Try again shortly.`);
  }
}

/**
 * The chain's confirmation of an answer the index already holds; when the node cannot be asked (a
 * rate-limited or failing provider), the index's own answer, which is what the chain said as of the
 * index's checkpoint. A read the index can answer is never a 5xx because the node is busy.
 */
async function orFromIndex<T>(confirmed: Promise<T>, fromIndex: () => T | Promise<T>): Promise<T> {
  try {
    return await confirmed;
  } catch (error) {
    if (error instanceof HttpError && error.status === 503) return fromIndex();
    throw error;
  }
}

/**
 * What the token holds now, read from the chain and cached per state of the index: a cached answer
 * is served while the index has not changed (no new block, no rewind), and never for more than 5
 * minutes. Checking costs nothing on the replica that indexes (its version is in memory) and one
 * small shared query on one that follows (`EventIndexer.currentVersion`); the read after a change
 * is shared by every request that arrives while it is under way.
 */
export class TokenStateService {
  private tokenCache: { version: number; at: number; value: TokenInfo } | null = null;
  private tokenRead: { version: number; value: Promise<TokenInfo> } | null = null;
  private readonly supplyFold: IndexFold<SupplySeries>;
  private thinned: { generation: number; byPoints: Map<number, SupplyPoint[]> } = { generation: -1, byPoints: new Map() };
  /** Role holders by role hash: accounts whose last role event granted the role. */
  private readonly roleFold: IndexFold<Map<string, Map<string, true>>>;
  /** Blocked accounts (checksummed) and the event that blocked each. */
  private readonly blockFold: IndexFold<Map<string, BlockedAccount["since"]>>;
  private readonly confirmations = new Map<string, { generation: number; at: number; value: Promise<unknown> }>();
  /** Whether the token is paused, as the index's last Paused or Unpaused event says. */
  private readonly pauseFold: IndexFold<{ paused: boolean }>;

  constructor(
    private readonly chain: Chain,
    private readonly events: EventsService,
    /** The index's version as of now: it changes whenever the index does. */
    private readonly indexVersion: () => Promise<number>,
    private readonly now: () => number = Date.now,
    /** The block the index has reached (null before its first step): what figures from the index are as of. */
    private readonly indexCheckpoint: () => number | null = () => null,
  ) {
    this.supplyFold = new IndexFold(events, indexVersion, {
      filters: SUPPLY_EVENTS,
      initial: () => ({ multiplier: MULTIPLIER_BASE, shares: 0n, points: [] }),
      apply: applySupplyChange,
    });
    this.roleFold = new IndexFold(events, indexVersion, {
      filters: [{ eventName: "RoleGranted" }, { eventName: "RoleRevoked" }],
      initial: () => new Map(),
      apply: (holders, row) => {
        const role = String(row.args.role);
        const account = String(row.args.account);
        if (!holders.has(role)) holders.set(role, new Map());
        if (row.eventName === "RoleGranted") holders.get(role)!.set(account, true);
        else holders.get(role)!.delete(account);
      },
    });
    this.pauseFold = new IndexFold<{ paused: boolean }>(events, indexVersion, {
      filters: [{ eventName: "Paused" }, { eventName: "Unpaused" }],
      initial: () => ({ paused: false }),
      apply: (state, row) => void (state.paused = row.eventName === "Paused"),
    });
    this.blockFold = new IndexFold(events, indexVersion, {
      filters: [{ eventName: "AccountBlocked" }, { eventName: "AccountUnblocked" }],
      initial: () => new Map(),
      apply: (blocked, row) => {
        const account = String(row.args.account);
        if (row.eventName === "AccountBlocked")
          blocked.set(account, { blockNumber: row.blockNumber, timestamp: row.blockTime, transactionHash: row.transactionHash });
        else blocked.delete(account);
      },
    });
  }

  async token(): Promise<TokenInfo> {
    const version = await this.indexVersion();
    const cached = this.tokenCache;
    if (cached && cached.version === version && this.now() - cached.at < TOKEN_CACHE_MS) return cached.value;
    // A new block makes every poller miss at once: one chain read answers them all.
    let read = this.tokenRead;
    if (read?.version !== version) {
      const current = { version, value: this.readToken() };
      read = this.tokenRead = current;
      current.value
        .then(
          (value) => (this.tokenCache = { version, at: this.now(), value }),
          () => undefined,
        )
        .finally(() => {
          if (this.tokenRead === current) this.tokenRead = null;
        });
    }
    return orFromIndex(read.value, () => this.tokenFromIndex());
  }

  /**
   * The token's figures as the index holds them, for when the node cannot be asked: supply, shares
   * and multiplier from the supply fold (the contract's own arithmetic), the pause from the last
   * Paused or Unpaused event, as of the index's checkpoint; `source: "index"` says so.
   */
  private async tokenFromIndex(): Promise<TokenInfo> {
    const [{ state: supply }, { state: pause }] = await Promise.all([this.supplyFold.get(), this.pauseFold.get()]);
    const last = this.tokenCache?.value;
    return {
      totalSupply: ((supply.shares * supply.multiplier) / MULTIPLIER_BASE).toString(),
      totalShares: supply.shares.toString(),
      decimals: last?.decimals ?? TOKEN_DECIMALS,
      rewardMultiplier: supply.multiplier.toString(),
      paused: pause.paused,
      name: last?.name ?? TOKEN_NAME,
      symbol: last?.symbol ?? TOKEN_SYMBOL,
      blockNumber: this.indexCheckpoint() ?? supply.points[supply.points.length - 1]?.blockNumber ?? 0,
      source: "index",
    };
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
        source: "chain",
      };
    });
  }

  /**
   * Current holders of every role: the index's RoleGranted and RoleRevoked events replayed (an
   * incremental fold, so a new block costs a read of its role events only), each holder confirmed
   * with hasRole. The confirmed answer is kept until a role event arrives (or the index rewinds),
   * and for at most 5 minutes; the chain is asked once per holder, not once per account ever granted.
   */
  async roles(): Promise<RoleHolders[]> {
    const { state, generation } = await this.roleFold.get();
    const candidates = ROLE_NAMES.map((roleName) => ({
      roleName,
      roleHash: ROLES[roleName],
      accounts: [...(state.get(ROLES[roleName])?.keys() ?? [])],
    }));
    const confirmed = this.confirmedOnce("roles", generation, () =>
      fromChain("role holders", async () =>
        Promise.all(
          candidates.map(async ({ roleName, roleHash, accounts }) => {
            const held = await mapLimit(accounts, CHAIN_READS_AT_ONCE, (a) => this.chain.usdx.hasRole(roleHash, a));
            return { roleName, roleHash, holders: accounts.filter((_, i) => held[i]).sort() };
          }),
        ),
      ),
    );
    return orFromIndex(confirmed, () =>
      candidates.map(({ roleName, roleHash, accounts }) => ({ roleName, roleHash, holders: [...accounts].sort() })),
    );
  }

  /**
   * Accounts blocked now: the index's AccountBlocked and AccountUnblocked events replayed (with the
   * block that blocked each), confirmed with isBlocked; kept like roles().
   */
  async blocklist(): Promise<BlockedAccount[]> {
    const { state, generation } = await this.blockFold.get();
    const candidates = [...state.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const confirmed = this.confirmedOnce("blocklist", generation, () =>
      fromChain("the blocklist", async () => {
        const flags = await mapLimit(candidates, CHAIN_READS_AT_ONCE, ([address]) => this.chain.usdx.isBlocked(address));
        return candidates.filter((_, i) => flags[i]).map(([address, since]) => ({ address, isBlocked: true as const, since }));
      }),
    );
    return orFromIndex(confirmed, () => candidates.map(([address, since]) => ({ address, isBlocked: true as const, since })));
  }

  /**
   * Supply, shares and multiplier after every mint, burn and multiplier change, replayed from the
   * index with the contract's own arithmetic (shares = amount * 1e18 / multiplier, rounded down),
   * so the last point equals what the chain reports. At most `maxPoints`, evenly thinned.
   *
   * Only mints, burns and RewardMultiplier events are read (index-ordered), and the series is
   * extended from where it stopped when the index grows, replayed only after a rewind; a thinned
   * answer is kept per `maxPoints` until the series changes. A request costs nothing while the index
   * version is unchanged, and a read of the new blocks' supply events when it is not.
   */
  async supplyHistory(maxPoints: number): Promise<SupplyPoint[]> {
    const { state, generation } = await this.supplyFold.get();
    if (this.thinned.generation !== generation || this.thinned.byPoints.size >= THINNED_ANSWERS)
      this.thinned = { generation, byPoints: new Map() };
    let answer = this.thinned.byPoints.get(maxPoints);
    if (!answer) {
      answer = thin(state.points, maxPoints);
      this.thinned.byPoints.set(maxPoints, answer);
    }
    return answer;
  }

  /** A chain confirmation of fold `key`'s state, shared while its generation holds and for at most TOKEN_CACHE_MS. */
  private confirmedOnce<T>(key: "roles" | "blocklist", generation: number, read: () => Promise<T>): Promise<T> {
    const cached = this.confirmations.get(key) as { generation: number; at: number; value: Promise<T> } | undefined;
    if (cached && cached.generation === generation && this.now() - cached.at < TOKEN_CACHE_MS) return cached.value;
    const entry = { generation, at: this.now(), value: read() };
    this.confirmations.set(key, entry);
    entry.value.catch(() => {
      if (this.confirmations.get(key) === entry) this.confirmations.delete(key);
    });
    return entry.value;
  }
}

/** The supply chart's running state: the series so far and where the replay stands. */
interface SupplySeries {
  multiplier: bigint;
  shares: bigint;
  points: SupplyPoint[];
}

function applySupplyChange(state: SupplySeries, row: EventRecord): void {
  const args = row.args as Record<string, string>;
  if (row.eventName === "RewardMultiplier") {
    state.multiplier = BigInt(args.value);
  } else if (row.eventName === "Transfer" && historyType(args.from, args.to) === "Mint") {
    state.shares += transferMoved(BigInt(args.value), state.multiplier).shares;
  } else if (row.eventName === "Transfer" && historyType(args.from, args.to) === "Burn") {
    state.shares -= transferMoved(BigInt(args.value), state.multiplier).shares;
  } else {
    return;
  }
  const point: SupplyPoint = {
    blockNumber: row.blockNumber,
    timestamp: row.blockTime,
    totalSupply: formatUnits((state.shares * state.multiplier) / MULTIPLIER_BASE, TOKEN_DECIMALS),
    totalShares: formatUnits(state.shares, TOKEN_DECIMALS),
    rewardMultiplier: formatUnits(state.multiplier, 18),
  };
  // Several changes in one block: the chart wants the block's final state.
  const points = state.points;
  if (points.length > 0 && points[points.length - 1].blockNumber === row.blockNumber) points[points.length - 1] = point;
  else points.push(point);
}

/** At most `maxPoints` of `points`, evenly spaced, keeping the first and the last: O(maxPoints), a copy. */
export function thin<T>(points: T[], maxPoints: number): T[] {
  if (points.length <= maxPoints) return points.slice();
  if (maxPoints === 1) return [points[points.length - 1]];
  const step = (points.length - 1) / (maxPoints - 1);
  return Array.from({ length: maxPoints }, (_, i) => points[Math.round(i * step)]);
}
