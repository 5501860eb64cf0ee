import { mkdirSync } from "node:fs";
import path from "node:path";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import type { Config } from "../config";
import * as schema from "./schema";

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  kind: Config["database"]["kind"];
  /** Answers true when a trivial query succeeds. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

const MIGRATIONS = path.resolve(__dirname, "..", "..", "drizzle");

/**
 * Opens the database the config names (embedded PGlite in a data directory by default, or a
 * Postgres server at DATABASE_URL) and applies any pending migration before answering.
 * PGlite's data directory "memory://" keeps everything in memory (tests).
 */
export async function openDatabase(database: Config["database"]): Promise<DatabaseHandle> {
  let handle: DatabaseHandle;
  if (database.kind === "pglite") {
    const { PGlite } = await import("@electric-sql/pglite");
    const { drizzle } = await import("drizzle-orm/pglite");
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    if (!database.dataDir.startsWith("memory://")) mkdirSync(database.dataDir, { recursive: true });
    const client = new PGlite(database.dataDir);
    const db = drizzle(client, { schema });
    await migrate(db, { migrationsFolder: MIGRATIONS });
    handle = {
      db: db as unknown as Database,
      kind: "pglite",
      ping: () => withinPing(client.query("select 1").then((r) => r.rows.length === 1)),
      close: () => client.close(),
    };
  } else {
    const { Pool } = await import("pg");
    const { drizzle } = await import("drizzle-orm/node-postgres");
    const { migrate } = await import("drizzle-orm/node-postgres/migrator");
    const pool = new Pool({ connectionString: database.url, max: 10 });
    // An idle client whose server went away (restarted, stopped, a connection killed) emits 'error'
    // on the pool: unheard, that would end the process. The pool drops it; the next query connects anew.
    pool.on("error", () => undefined);
    const db = drizzle(pool, { schema });
    // Replicas may start at once on one database: each migrates under a session lock, so one applies
    // the migrations and the others wait, then find them applied (two at once both create drizzle's table and fail).
    const client = await pool.connect();
    let failed: Error | undefined;
    try {
      await client.query("select pg_advisory_lock(hashtext('usdx:migrations'))");
      await migrate(drizzle(client, { schema }), { migrationsFolder: MIGRATIONS });
      await client.query("select pg_advisory_unlock(hashtext('usdx:migrations'))");
    } catch (error) {
      failed = error as Error;
    } finally {
      client.release(failed); // a failed client is closed, which also frees its lock
    }
    if (failed) {
      await pool.end();
      throw failed;
    }
    handle = {
      db: db as unknown as Database,
      kind: "postgres",
      ping: () => withinPing(pool.query("select 1").then((r) => r.rowCount === 1)),
      close: () => pool.end(),
    };
  }
  await handle.db.execute(sql`select 1`);
  return handle;
}

/** How long a ping may take before the database counts as not answering (a server that is away may hang rather than refuse). */
const PING_TIMEOUT_MS = 2000;

function withinPing(answer: Promise<boolean>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), PING_TIMEOUT_MS)));
  return Promise.race([answer.catch(() => false), late]).finally(() => clearTimeout(timer));
}
