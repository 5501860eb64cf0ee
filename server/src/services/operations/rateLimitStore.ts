import type { ClientRateLimitInfo, IncrementResponse, Options, Store } from "express-rate-limit";
import { and, eq, gt, lt, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { rateLimitHits } from "../../db/schema";

/**
 * The rate limits' counters, in the database: every replica on one database counts into the same
 * window, so a client cannot multiply its budget by spreading its requests over the replicas (each
 * would otherwise keep its own count in memory). A restart does not reset a window either.
 *
 * express-rate-limit does the limiting, the headers and the answers; this is its `Store`: one row
 * a key, a fixed window of `windowMs` from the first request, counted with one upsert so requests at
 * once on several replicas are each counted (the row lock orders them). The windows run on the
 * database's clock, the one clock the replicas share. Why not a published PostgreSQL store: the
 * one kept for express-rate-limit drives its own node-postgres pool and migrations, and could not
 * run on embedded PGlite; this one goes through the server's own database handle and migrations.
 */
/**
 * Every rate limit the API applies, by the name its counts and refusals go under: how many requests a
 * minute each allows, set once at start (compose.ts) from the settings.
 */
export interface RateLimitBudgets {
  /** Sign-in requests (nonce, wallet sign-in) a minute from one address: RATE_LIMIT_AUTH_PER_MINUTE. */
  auth: number;
  /** CSV uploads (batch parse, contacts import) a minute from one address, each its own budget: RATE_LIMIT_CSV_PER_MINUTE. */
  "csv-batch": number;
  "csv-contacts": number;
  /** CSV exports a minute from one user, all exports together: RATE_LIMIT_CSV_PER_MINUTE. */
  "csv-exports": number;
  /** Chunk transactions one user may report a minute: USER_BATCH_REPORTS_PER_MINUTE. */
  "batch-reports": number;
  /** Alert test deliveries one admin may ask for a minute: ALERT_TESTS_PER_MINUTE. */
  "alert-tests": number;
  /** The mock bank's writes a minute per user, each its own budget: MOCK_BANK_WRITES_PER_MINUTE. */
  "bank-accounts": number;
  "bank-wallets": number;
  "bank-deposits": number;
  /** Safe proposals and approvals a minute per user, together: USER_SAFE_WRITES_PER_MINUTE. */
  "safe-writes": number;
  /** Reads of the proposals of an address that is no Safe the dashboard shows, a minute per user: USER_SAFE_LOOKUPS_PER_MINUTE. */
  "safe-lookups": number;
  /** Scenario applies, restores and snapshots a minute per user, together: USER_SCENARIO_RUNS_PER_MINUTE. */
  "scenario-runs": number;
}
export type RateLimitName = keyof RateLimitBudgets;

export class RateLimitStores {
  private lastSweep = 0;
  /** Requests this replica refused (429), by limit: in memory, since each replica is scraped on its own. */
  private readonly refusals = new Map<string, number>();

  constructor(
    private readonly db: Database,
    private readonly budgets: RateLimitBudgets,
  ) {}

  /** Requests a minute the limit `name` allows. */
  perMinute(name: RateLimitName): number {
    return this.budgets[name];
  }

  /** Notes a request the limit `name` refused (/api/metrics). */
  refused(name: string): void {
    this.refusals.set(name, (this.refusals.get(name) ?? 0) + 1);
  }

  /** Requests refused since this process started, by limit. */
  refusalCounts(): ReadonlyMap<string, number> {
    return this.refusals;
  }

  /** The store of one limit; `name` keeps its keys apart from every other limit's. */
  store(name: RateLimitName): Store {
    return new DatabaseRateLimitStore(this.db, `${name}:`, () => this.sweepNowAndThen());
  }

  /** Drops windows that ended, at most once a minute per replica and never in a request's way. */
  private sweepNowAndThen(): void {
    if (Date.now() - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = Date.now();
    this.db
      .delete(rateLimitHits)
      .where(lt(rateLimitHits.resetAt, sql`now()`))
      .catch(() => undefined); // the next sweep tries again; an expired row is only ever restarted, never counted
  }
}

const SWEEP_EVERY_MS = 60_000;

class DatabaseRateLimitStore implements Store {
  /** Counts are shared with other instances (other replicas): express-rate-limit's double-count check must not assume otherwise. */
  readonly localKeys = false;
  private windowMs = 60_000;

  constructor(
    private readonly db: Database,
    readonly prefix: string,
    private readonly sweep: () => void,
  ) {}

  init(options: Options): void {
    this.windowMs = options.windowMs;
  }

  async increment(key: string): Promise<IncrementResponse> {
    const windowEnd = sql`now() + (${this.windowMs}::integer * interval '1 millisecond')`;
    const ended = sql`${rateLimitHits.resetAt} <= now()`;
    const [row] = await this.db
      .insert(rateLimitHits)
      .values({ key: this.prefix + key, hits: 1, resetAt: windowEnd })
      .onConflictDoUpdate({
        target: rateLimitHits.key,
        // A window that ended starts over with this request; else this request counts in it.
        set: {
          hits: sql`case when ${ended} then 1 else ${rateLimitHits.hits} + 1 end`,
          resetAt: sql`case when ${ended} then excluded.reset_at else ${rateLimitHits.resetAt} end`,
        },
      })
      .returning({ hits: rateLimitHits.hits, resetAt: rateLimitHits.resetAt });
    this.sweep();
    return { totalHits: row.hits, resetTime: row.resetAt };
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const [row] = await this.db
      .select({ hits: rateLimitHits.hits, resetAt: rateLimitHits.resetAt })
      .from(rateLimitHits)
      .where(and(eq(rateLimitHits.key, this.prefix + key), gt(rateLimitHits.resetAt, sql`now()`)));
    return row ? { totalHits: row.hits, resetTime: row.resetAt } : undefined;
  }

  async decrement(key: string): Promise<void> {
    await this.db
      .update(rateLimitHits)
      .set({ hits: sql`greatest(${rateLimitHits.hits} - 1, 0)` })
      .where(and(eq(rateLimitHits.key, this.prefix + key), gt(rateLimitHits.resetAt, sql`now()`)));
  }

  async resetKey(key: string): Promise<void> {
    await this.db.delete(rateLimitHits).where(eq(rateLimitHits.key, this.prefix + key));
  }
}
