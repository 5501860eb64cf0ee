import { and, gt, inArray, sql } from "drizzle-orm";
import { count, plural } from "@common/wording";
import type { Config } from "../../config";
import type { Database } from "../../db/client";
import { rateLimitHits } from "../../db/schema";
import { Slots } from "../../lib/concurrency";
import type { RateLimitStores } from "./rateLimitStore";

/**
 * What a CSV export may cost (issue 29): each holds the API's one thread while it reads and writes
 * (a 100,000-row export is 2-3 s on PGlite), and a SIWE account costs nothing to make. So beside the
 * requests a minute (RATE_LIMIT_CSV_PER_MINUTE): a few exports at once per user and per process
 * (in memory: it is this process's thread they share), and a budget of rows a minute per user and
 * per client address (in the database, like the rate limits, so it holds across replicas).
 */

/** What a refusal for load asks the client to wait: an export of 100,000 rows ends in 2-3 s, so one running frees its place within a few. */
export const EXPORT_BUSY_RETRY_SECONDS = 5;
/** The row budgets' window: rows a minute, in fixed windows from the first export (as the rate limits count). */
const WINDOW_MS = 60_000;

/** Who asks for an export: the verified user and the client address (as the rate limits key it). */
export interface ExportClient {
  uid: string;
  ip: string;
}

/** An export let through (`done` with the rows it wrote frees its place and charges them, once) or refused with a 429's sentence and Retry-After. */
export type ExportAdmission =
  { ok: true; done: (rows: number) => Promise<void> } | { ok: false; retryAfterSeconds: number; message: string };

const userKey = (c: ExportClient) => `export-rows:uid:${c.uid}`;
const ipKey = (c: ExportClient) => `export-rows:ip:${c.ip}`;
const tryAgain = (seconds: number) => `try again in ${plural(seconds, "second")}.`;

export class ExportLimits {
  private readonly running: Slots;

  constructor(
    private readonly db: Database,
    private readonly options: Config["exports"],
    private readonly rateLimits: RateLimitStores,
  ) {
    this.running = new Slots(options.atOncePerUser, options.atOnce);
  }

  /** Lets an export start, or says why not and when to try again. Each admitted export must call `done` once it ends. */
  async admit(client: ExportClient): Promise<ExportAdmission> {
    const slot = this.running.take(client.uid);
    if ("full" in slot) {
      this.rateLimits.refused("exports-at-once");
      const wait = EXPORT_BUSY_RETRY_SECONDS;
      return {
        ok: false,
        retryAfterSeconds: wait,
        message:
          slot.full === "key"
            ? `Too many CSV exports at once: one user may run ${plural(this.options.atOncePerUser, "export")} at a time, and yours are still being written; ${tryAgain(wait)}`
            : `The server is busy writing other CSV exports (${count(this.options.atOnce)} at once at most); ${tryAgain(wait)}`,
      };
    }
    try {
      const spent = await this.spent(client);
      const over =
        spent.user.rows >= this.options.rowsPerUserPerMinute
          ? { window: spent.user, what: `${count(this.options.rowsPerUserPerMinute)} rows a minute per user` }
          : spent.ip.rows >= this.options.rowsPerIpPerMinute
            ? {
                window: spent.ip,
                what: `${count(this.options.rowsPerIpPerMinute)} rows a minute from one IP address, all its users together`,
              }
            : null;
      if (over) {
        slot.release();
        this.rateLimits.refused("export-rows");
        const wait = Math.max(1, Math.ceil((over.window.resetAt!.getTime() - Date.now()) / 1000));
        return { ok: false, retryAfterSeconds: wait, message: `CSV export limit reached: ${over.what}; ${tryAgain(wait)}` };
      }
    } catch (error) {
      slot.release();
      throw error;
    }
    let charged = false;
    return {
      ok: true,
      done: async (rows) => {
        slot.release();
        if (charged || rows <= 0) return;
        charged = true;
        await this.charge(client, rows);
      },
    };
  }

  /** Rows charged in the user's and the address's current windows (0 when none is open). */
  private async spent(client: ExportClient): Promise<Record<"user" | "ip", { rows: number; resetAt: Date | null }>> {
    const rows = await this.db
      .select({ key: rateLimitHits.key, hits: rateLimitHits.hits, resetAt: rateLimitHits.resetAt })
      .from(rateLimitHits)
      .where(and(inArray(rateLimitHits.key, [userKey(client), ipKey(client)]), gt(rateLimitHits.resetAt, sql`now()`)));
    const of = (key: string) => {
      const row = rows.find((r) => r.key === key);
      return { rows: row?.hits ?? 0, resetAt: row?.resetAt ?? null };
    };
    return { user: of(userKey(client)), ip: of(ipKey(client)) };
  }

  /** Adds `rows` to the user's and the address's windows, each starting anew when it has ended (one upsert each, as the rate limits count). */
  private async charge(client: ExportClient, rows: number): Promise<void> {
    const windowEnd = sql`now() + (${WINDOW_MS}::integer * interval '1 millisecond')`;
    const ended = sql`${rateLimitHits.resetAt} <= now()`;
    for (const key of [userKey(client), ipKey(client)]) {
      await this.db
        .insert(rateLimitHits)
        .values({ key, hits: rows, resetAt: windowEnd })
        .onConflictDoUpdate({
          target: rateLimitHits.key,
          set: {
            hits: sql`case when ${ended} then excluded.hits else least(${rateLimitHits.hits} + excluded.hits, 2000000000) end`,
            resetAt: sql`case when ${ended} then excluded.reset_at else ${rateLimitHits.resetAt} end`,
          },
        });
    }
  }

  /** Exports running now in this process for `uid` (tests, metrics). */
  runningFor(uid: string): number {
    return this.running.heldBy(uid);
  }
}
