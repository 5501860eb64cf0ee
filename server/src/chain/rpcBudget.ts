/**
 * One request budget for every loop that reads the chain (indexer, batch watcher, mock bank,
 * alerts, Safe and token reads, monitoring): they all send through one RpcTransport, which takes a
 * turn here before each HTTP request.
 *
 * A token bucket, not a sliding window: it is what the providers themselves meter with (Alchemy
 * evaluates its CU/s "over a 10-second rolling window using a token bucket"), its state is two
 * numbers, and the wait for a turn is a division (the deficit over the rate), so callers can be
 * told at once whether their turn comes within what they may wait. A sliding log keeps a timestamp
 * per request, and a fixed window lets twice the rate through across a window's edge.
 *
 * Costs: a JSON-RPC batch of N calls costs N. Alchemy bills a batch as "CU of method × times
 * called", Infura counts each call of a batch (and the batch itself) and QuickNode counts "each
 * request within the batch individually towards your API Credits per second": a batch saves round
 * trips, not throughput.
 *
 * A 429 lowers the rate for a while instead of stopping every caller: the rate halves (from what
 * was allowed, or on an unlimited budget from what was spent in the last second), the bucket is
 * emptied (so the next request waits one turn at the lower rate, a short pause rather than a
 * stop), and it holds for the provider's Retry-After (else LOWERED_FOR_MS), then doubles every
 * RECOVERY_STEP_MS back to the configured rate. Repeated 429s halve it at most three times
 * (MIN_FRACTION): a key whose quota is spent is kept quiet by its callers instead, since a call
 * refused with a long Retry-After fails as rate limited and its loop waits that long (Ticker).
 */

/**
 * The node refused for rate, or this server's request budget has no turn for the call in time: try
 * again after `retryAfterMs` (the provider's word, our backoff, or when the budget's turn comes).
 */
export class RpcRateLimitedError extends Error {
  readonly code = "RPC_RATE_LIMITED";
  constructor(
    readonly retryAfterMs: number,
    detail: string,
    /** Refused by this server's own request budget, before anything was sent. */
    readonly ownBudget = false,
  ) {
    super(
      ownBudget
        ? `${detail}; trying again in ${Math.ceil(retryAfterMs / 1000)} s`
        : `the RPC provider is rate limiting this server (${detail}); trying again in ${Math.ceil(retryAfterMs / 1000)} s`,
    );
  }
}

/** Without a Retry-After, a 429 lowers the rate this long: Alchemy's throughput window is 10 s. */
export const LOWERED_FOR_MS = 10_000;
/** A Retry-After longer than this lowers the rate only this long (a quota spent for the day answers 402, not 429). */
export const MAX_LOWERED_FOR_MS = 10 * 60_000;
/** After the hold, the rate doubles this often until it is back to the configured one. */
export const RECOVERY_STEP_MS = 5_000;
/**
 * A 429 this soon after the last lowering does not halve again: its request was sent at the rate
 * that the last lowering already answered.
 */
export const SAME_LOWERING_MS = 1_000;
/** The lowest a 429 takes the rate, as a fraction of the rate it recovers to: three halvings. */
export const MIN_FRACTION = 1 / 8;
/** The bucket holds one second of requests: a batch or a page's few reads go at once, and no provider's 1-second meter sees more than twice the rate. */
export const BURST_SECONDS = 1;

/** The bucket's arithmetic, on an injected clock (ms). `rate` in tokens a second; Infinity: no limit. */
export class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(
    private rateNow: number,
    now: number,
  ) {
    this.tokens = this.capacity;
    this.at = now;
  }

  get rate(): number {
    return this.rateNow;
  }

  /** The most the bucket holds: BURST_SECONDS of the rate, and at least one request. */
  get capacity(): number {
    return Math.max(1, this.rateNow * BURST_SECONDS);
  }

  /** Tokens now (negative: requests already let through ahead of the rate, which later turns repay). */
  level(now: number): number {
    if (Number.isFinite(this.rateNow)) {
      const elapsed = Math.max(0, now - this.at);
      this.tokens = Math.min(this.capacity, this.tokens + (elapsed / 1000) * this.rateNow);
    }
    this.at = Math.max(this.at, now);
    return Number.isFinite(this.rateNow) ? this.tokens : Infinity;
  }

  /**
   * Ms until a request costing `cost` may go. A cost above the bucket's capacity (a batch larger
   * than a second's worth) goes once the bucket is full, and its excess is repaid by the turns after it.
   */
  waitFor(cost: number, now: number): number {
    const level = this.level(now);
    const needed = Math.min(cost, this.capacity);
    return level >= needed ? 0 : Math.ceil(((needed - level) / this.rateNow) * 1000);
  }

  /** Takes `cost` tokens now (the level may go below zero). */
  take(cost: number, now: number): void {
    if (!Number.isFinite(this.rateNow)) return;
    this.level(now);
    this.tokens -= cost;
  }

  /** A new rate from `now`; tokens already there stay, up to the new capacity. */
  setRate(rate: number, now: number): void {
    this.level(now);
    this.rateNow = rate;
    this.tokens = Number.isFinite(rate) ? Math.min(Number.isFinite(this.tokens) ? this.tokens : this.capacity, this.capacity) : Infinity;
  }

  /** Empties the bucket (a 429 says the provider's is empty). */
  drain(now: number): void {
    this.level(now);
    if (Number.isFinite(this.rateNow)) this.tokens = Math.min(this.tokens, 0);
  }
}

/** A lowering after a 429: the rate it fell to, from when, and until when it holds before recovering. */
export interface Lowering {
  rate: number;
  /** The rate it recovers to (the configured one; on an unlimited budget, the rate spent when refused, then no limit). */
  ceiling: number;
  at: number;
  holdUntil: number;
}

/**
 * The rate a lowering allows at `now`: its own during the hold, then doubling every
 * RECOVERY_STEP_MS; null once it is back at its ceiling (the lowering is over).
 */
export function loweredRate(lowering: Lowering, now: number): number | null {
  if (now < lowering.holdUntil) return lowering.rate;
  const steps = Math.floor((now - lowering.holdUntil) / RECOVERY_STEP_MS) + 1;
  const rate = lowering.rate * 2 ** steps;
  return rate >= lowering.ceiling ? null : rate;
}

/**
 * The lowering a 429 at `now` brings: half of `current` (what the budget allowed, or on an
 * unlimited one what was spent in the last second), held for Retry-After or LOWERED_FOR_MS, and
 * never below MIN_FRACTION of the rate it recovers to.
 */
export function lowerAfter429(
  previous: Lowering | null,
  configured: number,
  current: number,
  spentLastSecond: number,
  retryAfterMs: number | null,
  now: number,
): Lowering {
  const hold = Math.min(MAX_LOWERED_FOR_MS, Math.max(retryAfterMs ?? LOWERED_FOR_MS, 1000));
  if (previous && now - previous.at < SAME_LOWERING_MS) return { ...previous, holdUntil: Math.max(previous.holdUntil, now + hold) };
  const from = Number.isFinite(current) ? current : Math.max(1, spentLastSecond);
  const ceiling = Number.isFinite(configured) ? configured : (previous?.ceiling ?? from);
  return { rate: Math.max(ceiling * MIN_FRACTION, from / 2), ceiling, at: now, holdUntil: now + hold };
}

/** What the budget allows and what was spent, for /api/metrics and /api/monitoring. */
export interface BudgetStatus {
  /** The plan named (RPC_PLAN), or "custom" for RPC_REQUESTS_PER_SECOND. */
  plan: string;
  /** Requests a second the setting allows; null: no limit. */
  configuredPerSecond: number | null;
  /** Requests a second allowed now; null: no limit. */
  allowedPerSecond: number | null;
  /** While a 429 holds the rate lower: until when it holds (ms since the epoch), before it recovers stepwise. */
  lowered: { since: number; holdUntil: number } | null;
  /** Requests sent over the last minute, a second on average. */
  spentPerSecond: number;
  /** Requests sent since start (a batch of N counts N; retries count again). */
  spentTotal: number;
  /** 429s that lowered (or held) the rate since start. */
  lowerings: number;
  /** Requests that waited for their turn, and the seconds they waited, since start. */
  waits: number;
  waitedSeconds: number;
  /** Calls refused because their turn would come after what they may wait (they fail as rate limited, and their loops defer). */
  refused: number;
  /** Requests waiting for their turn now. */
  queued: number;
}

interface Waiter {
  cost: number;
  deadline: number;
  enqueued: number;
  resolve: () => void;
  reject: (error: Error) => void;
}

const MINUTE_SLOTS = 60;
/** Rounding of the turn's ms must not refuse a waiter whose turn is exactly at its deadline. */
const DEADLINE_SLACK_MS = 5;

export class RequestBudget {
  /** Requests a second the setting allows; Infinity: no limit. */
  private readonly configured: number;
  private readonly bucket: TokenBucket;
  private lowering: Lowering | null = null;
  private readonly queue: Waiter[] = [];
  private timer: NodeJS.Timeout | null = null;
  /** Requests sent in each of the last 60 seconds (slot = second % 60), and which second each slot holds. */
  private readonly perSecond = new Array<number>(MINUTE_SLOTS).fill(0);
  private readonly slotSecond = new Array<number>(MINUTE_SLOTS).fill(-1);
  private readonly startedAt: number;
  private stats = { spentTotal: 0, lowerings: 0, waits: 0, waitedMs: 0, refused: 0 };

  constructor(
    /** Requests a second; Infinity (or null): no limit. */
    configured: number | null,
    readonly plan = configured === null || !Number.isFinite(configured) ? "unlimited" : "custom",
    private readonly now: () => number = Date.now,
  ) {
    this.configured = configured === null ? Infinity : configured;
    this.startedAt = this.now();
    this.bucket = new TokenBucket(this.configured, this.startedAt);
  }

  /** Requests a second allowed at `now` (Infinity: no limit); ends a lowering that has recovered. */
  allowed(now = this.now()): number {
    if (this.lowering) {
      const rate = loweredRate(this.lowering, now);
      if (rate === null) this.lowering = null;
      const allowed = rate === null ? this.configured : Math.min(rate, this.configured);
      if (allowed !== this.bucket.rate) this.bucket.setRate(allowed, now);
      return allowed;
    }
    if (this.bucket.rate !== this.configured) this.bucket.setRate(this.configured, now);
    return this.configured;
  }

  /**
   * Waits for a turn for a request costing `cost` (a batch: its number of calls), in arrival
   * order. A turn that would come later than `maxWaitMs` from now is refused at once with
   * RpcRateLimitedError (saying when to come back), and so is one that a 429 pushes past it while
   * waiting. Answers the ms waited.
   */
  async take(cost: number, maxWaitMs: number): Promise<number> {
    const now = this.now();
    this.allowed(now);
    if (this.queue.length === 0 && this.bucket.waitFor(cost, now) === 0) {
      this.spend(cost, now);
      return 0;
    }
    const wait = this.turnAfterQueue(cost, now);
    if (wait > maxWaitMs) {
      this.stats.refused++;
      throw this.overBudget(wait);
    }
    return new Promise<number>((resolve, reject) => {
      this.queue.push({
        cost,
        deadline: now + Math.max(0, maxWaitMs),
        enqueued: now,
        resolve: () => resolve(this.now() - now),
        reject,
      });
      this.pump();
    });
  }

  /** A 429 answered a request: lower the rate (see the file's comment); callers waiting keep their place. */
  refused(retryAfterMs: number | null): void {
    const now = this.now();
    const current = this.allowed(now);
    this.lowering = lowerAfter429(this.lowering, this.configured, current, this.spentInLastSecond(now), retryAfterMs, now);
    this.stats.lowerings++;
    this.allowed(now);
    this.bucket.drain(now);
    this.pump();
  }

  status(now = this.now()): BudgetStatus {
    const allowed = this.allowed(now);
    const second = Math.floor(now / 1000);
    let lastMinute = 0;
    for (let i = 0; i < MINUTE_SLOTS; i++) if (second - this.slotSecond[i] < MINUTE_SLOTS) lastMinute += this.perSecond[i];
    const seconds = Math.min(MINUTE_SLOTS, Math.max(1, (now - this.startedAt) / 1000));
    return {
      plan: this.plan,
      configuredPerSecond: Number.isFinite(this.configured) ? this.configured : null,
      allowedPerSecond: Number.isFinite(allowed) ? round(allowed) : null,
      lowered: this.lowering ? { since: this.lowering.at, holdUntil: this.lowering.holdUntil } : null,
      spentPerSecond: round(lastMinute / seconds),
      spentTotal: this.stats.spentTotal,
      lowerings: this.stats.lowerings,
      waits: this.stats.waits,
      waitedSeconds: round(this.stats.waitedMs / 1000),
      refused: this.stats.refused,
      queued: this.queue.length,
    };
  }

  private overBudget(waitMs: number): RpcRateLimitedError {
    const rate = this.bucket.rate;
    const words = `${round(rate)} requests a second${this.lowering ? ", lowered after a 429" : ""}`;
    return new RpcRateLimitedError(waitMs, `this server's RPC request budget (${words}) has no turn for the call in time`, true);
  }

  /** Ms until a new request's turn, behind every request already waiting. */
  private turnAfterQueue(cost: number, now: number): number {
    const ahead = this.queue.reduce((sum, w) => sum + w.cost, 0);
    const level = this.bucket.level(now);
    const needed = ahead + Math.min(cost, this.bucket.capacity);
    return level >= needed ? 0 : Math.ceil(((needed - level) / this.bucket.rate) * 1000);
  }

  /** Lets through every waiter whose turn has come, in order; refuses those a lowering pushed past their deadline; sets the timer for the next. */
  private pump(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const now = this.now();
    this.allowed(now);
    while (this.queue.length > 0) {
      const head = this.queue[0];
      const wait = this.bucket.waitFor(head.cost, now);
      if (wait > 0) break;
      this.queue.shift();
      this.stats.waits++;
      this.stats.waitedMs += now - head.enqueued;
      this.spend(head.cost, now);
      head.resolve();
    }
    // Past its deadline at the rate now: refused, so its loop defers instead of waiting on.
    let ahead = 0;
    const level = this.bucket.level(now);
    for (let i = 0; i < this.queue.length;) {
      const waiter = this.queue[i];
      const turn = Math.ceil(((ahead + Math.min(waiter.cost, this.bucket.capacity) - level) / this.bucket.rate) * 1000);
      if (now + turn > waiter.deadline + DEADLINE_SLACK_MS) {
        this.queue.splice(i, 1);
        this.stats.refused++;
        waiter.reject(this.overBudget(turn));
        continue;
      }
      ahead += waiter.cost;
      i++;
    }
    if (this.queue.length > 0) this.timer = setTimeout(() => this.pump(), Math.max(1, this.bucket.waitFor(this.queue[0].cost, now)));
  }

  private spend(cost: number, now: number): void {
    this.bucket.take(cost, now);
    this.stats.spentTotal += cost;
    const second = Math.floor(now / 1000);
    const slot = second % MINUTE_SLOTS;
    if (this.slotSecond[slot] !== second) {
      this.slotSecond[slot] = second;
      this.perSecond[slot] = 0;
    }
    this.perSecond[slot] += cost;
  }

  /** Requests sent in the last second: this second's and the previous one's, the latter pro rata. */
  private spentInLastSecond(now: number): number {
    const second = Math.floor(now / 1000);
    const count = (s: number) => (this.slotSecond[s % MINUTE_SLOTS] === s ? this.perSecond[s % MINUTE_SLOTS] : 0);
    const intoThis = (now % 1000) / 1000;
    return count(second) + count(second - 1) * (1 - intoThis);
  }
}

const round = (n: number) => Math.round(n * 100) / 100;
