import type { Client } from "pg";
import type { Config } from "../../config";
import { sessionLockSql } from "../../db/locks";
import { errorText, type Logger } from "../../lib/logger";

/**
 * The advisory lock whose holder does the background work (the indexer, the batch watcher and the
 * mock bank's worker): the one lock of its class (db/locks.ts), which no per-user lock can share.
 */
const TRY_LEADER_LOCK = sessionLockSql("leader", "pg_try_advisory_lock");
const LEADER_UNLOCK = sessionLockSql("leader", "pg_advisory_unlock");

export interface LeaderStatus {
  /** Whether this replica runs the background work now. */
  leader: boolean;
  /** "sole": PGlite, one process per data directory, always the leader; "advisory-lock": PostgreSQL's session lock decides. */
  mode: "sole" | "advisory-lock";
  /** When this replica last became the leader (null: it is not). */
  since: string | null;
}

/** What leading means: start the loops, and stop them (resolving once every step under way has ended). */
export interface BackgroundWork {
  lead(): void;
  yield(): Promise<void>;
}

export interface Leadership {
  /** The first attempt to lead (awaited), then one every checkMs. */
  start(): Promise<void>;
  /** Stops the work if this replica leads, then releases the lock and closes its connection. */
  stop(): Promise<void>;
  status(): LeaderStatus;
}

export function createLeadership(database: Config["database"], checkMs: number, work: BackgroundWork, log: Logger): Leadership {
  return database.kind === "pglite" ? new SoleLeadership(work) : new AdvisoryLockLeadership(database.url, checkMs, work, log);
}

/** PGlite: one process owns its data directory, so it is the only replica and always leads. */
class SoleLeadership implements Leadership {
  private since: string | null = null;
  constructor(private readonly work: BackgroundWork) {}
  async start(): Promise<void> {
    this.since = new Date().toISOString();
    this.work.lead();
  }
  async stop(): Promise<void> {
    if (this.since === null) return;
    this.since = null;
    await this.work.yield();
  }
  status(): LeaderStatus {
    return { leader: this.since !== null, mode: "sole", since: this.since };
  }
}

/**
 * PostgreSQL: a session advisory lock on a connection of its own (never one of the pool's, which
 * could hand it to a request). A replica that does not hold it asks for it every checkMs
 * (pg_try_advisory_lock, never waiting). The leader checks its connection as often (`select 1`
 * within checkMs): when that fails, or the connection reports an error, it stops its loops at once
 * and drops the connection; PostgreSQL frees the lock with the session. The session also carries
 * idle_session_timeout (3 × checkMs): a leader that stops checking (frozen, or cut off without a
 * reset) loses the lock on the server's side, without anyone having to notice the dead socket.
 */
class AdvisoryLockLeadership implements Leadership {
  private client: Client | null = null;
  /** The connection reported an error or closed: the next check fails without asking. */
  private broken = false;
  private since: string | null = null;
  private stopped = true;
  private timer: NodeJS.Timeout | null = null;
  /** One turn at a time: a check, an attempt, or the stop. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly url: string,
    private readonly checkMs: number,
    private readonly work: BackgroundWork,
    private readonly log: Logger,
  ) {}

  status(): LeaderStatus {
    return { leader: this.since !== null, mode: "advisory-lock", since: this.since };
  }

  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    await this.turn();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const run = this.queue.then(async () => {
      if (this.since !== null) {
        this.since = null;
        await this.work.yield();
        // Unlocked before the connection ends, so a replica waiting for it need not wait for the server to notice the session end.
        await this.client?.query(LEADER_UNLOCK).catch(() => undefined);
        this.log.info("background work stopped and the leader lock released");
      }
      await this.drop(true);
    });
    this.queue = run.catch(() => undefined);
    await run;
  }

  private turn(): Promise<void> {
    const run = this.queue.then(() => this.step());
    this.queue = run.catch(() => undefined);
    return run.finally(() => this.schedule());
  }

  private schedule(): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.turn();
    }, this.checkMs);
  }

  private async step(): Promise<void> {
    if (this.stopped) return;
    if (this.since !== null) {
      if (await this.alive()) return;
      // The lock may already be another replica's: stop every loop before anything else.
      this.log.error("the connection holding the leader lock failed: stopping the background work");
      this.since = null;
      await this.work.yield();
      await this.drop(false);
      return;
    }
    try {
      this.client ??= await this.connect();
      const { rows } = await this.client.query<{ locked: boolean }>(`${TRY_LEADER_LOCK} as locked`);
      if (!rows[0]?.locked || this.stopped) return;
      this.since = new Date().toISOString();
      this.log.info("took the leader lock: running the indexer, the batch watcher and the mock bank's worker here");
      this.work.lead();
    } catch (error) {
      this.log.warn({ err: errorText(error) }, "could not ask for the leader lock; asking again");
      await this.drop(false);
    }
  }

  private async alive(): Promise<boolean> {
    if (this.broken || !this.client) return false;
    try {
      const { rows } = await this.client.query("select 1 as one");
      return rows.length === 1 && !this.broken;
    } catch {
      return false;
    }
  }

  private async connect(): Promise<Client> {
    const { Client } = await import("pg");
    const client = new Client({
      connectionString: this.url,
      keepAlive: true,
      connectionTimeoutMillis: this.checkMs,
      query_timeout: this.checkMs,
      application_name: "usdx-leader",
    });
    this.broken = false;
    const failed = () => {
      if (this.client !== client) return;
      this.broken = true;
      // A leader acts at once rather than at its next check.
      if (this.since !== null && !this.stopped) void this.turn();
    };
    client.on("error", failed);
    client.on("end", failed);
    await client.connect();
    try {
      await client.query(`set idle_session_timeout = ${this.checkMs * 3}`);
    } catch {
      /* PostgreSQL before 14: no such setting; the leader's own checks remain */
    }
    return client;
  }

  /** Closes the lock's connection (a lost session frees the lock); graceful waits for its end, briefly. */
  private async drop(graceful: boolean): Promise<void> {
    const client = this.client;
    this.client = null;
    this.broken = false;
    if (!client) return;
    const ended = client.end().catch(() => undefined);
    // A socket that no longer answers would keep end() waiting: it is destroyed after a moment.
    const timer = setTimeout(
      () => (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy(),
      1000,
    );
    timer.unref();
    if (graceful) await ended;
  }
}
