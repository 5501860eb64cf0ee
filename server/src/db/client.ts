import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { Config, ConfigError } from "../config";
import { within } from "../lib/concurrency";
import { sessionLockSql } from "./locks";
import { migratedDump, reuseMemoryDatabases as startReusingMemoryDatabases, takeMemoryDatabase } from "./memoryDatabases";
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
 * Postgres server at DATABASE_URL) and applies any pending migration before answering; a database
 * that a newer server has migrated is refused (a ConfigError), untouched.
 * PGlite's data directory "memory://" keeps everything in memory (tests).
 */
export async function openDatabase(database: Config["database"]): Promise<DatabaseHandle> {
  let handle: DatabaseHandle;
  if (database.kind === "pglite") {
    const { client, db } = await openPglite(database.dataDir);
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
    // A connection that does not open within 5 s fails (a 503) instead of holding the request for as
    // long as the network takes to give up; it bounds the wait for a free connection too. No
    // query_timeout: a stopped server ends its sessions, which fails their queries at once, and a
    // client-side timeout would leave node-postgres's connection busy with the late answer.
    // lock_timeout and statement_timeout (server-side, so the connection stays usable) bound what
    // one request can hold a pooled connection for: a lock that is not granted, or a statement
    // that runs on, fails in words (a 503, db/errors.ts) instead of filling the pool.
    const pool = new Pool({
      connectionString: database.url,
      max: 10,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      lock_timeout: LOCK_TIMEOUT_MS,
      statement_timeout: STATEMENT_TIMEOUT_MS,
    });
    // An idle client whose server went away (restarted, stopped, a connection killed) emits 'error'
    // on the pool: unheard, that would end the process. The pool drops it; the next query connects anew.
    pool.on("error", () => undefined);
    // A client checked out (inside a transaction, between its statements) emits 'error' on itself
    // when its server goes away; unheard, that too would end the process. Its next query fails, in words (db/errors.ts).
    pool.on("connect", (client) => client.on("error", () => undefined));
    const db = drizzle(pool, { schema });
    // Replicas may start at once on one database: each migrates under a session lock, so one applies
    // the migrations and the others wait, then find them applied (two at once both create drizzle's table and fail).
    const client = await pool.connect();
    let failed: Error | undefined;
    try {
      // The pool's lock and statement timeouts would cut off the wait and the migrations themselves.
      await client.query("set lock_timeout = 0; set statement_timeout = 0");
      await client.query(sessionLockSql("migrations", "pg_advisory_lock"));
      await refuseNewerSchema(
        (text) => client.query<Record<string, unknown>>(text).then((r) => r.rows),
        "DATABASE_URL at another database",
      );
      await migrate(drizzle(client, { schema }), { migrationsFolder: MIGRATIONS });
      await client.query(sessionLockSql("migrations", "pg_advisory_unlock"));
      await client.query("reset lock_timeout; reset statement_timeout");
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

/**
 * Opens PGlite in `dataDir` (a new directory is made by PGlite's initdb; in memory, in the server
 * test suite, a reused or copied one: memoryDatabases.ts) and migrates it, as openDatabase describes.
 */
async function openPglite(dataDir: string) {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const memory = dataDir.startsWith("memory://");
  if (!memory) mkdirSync(dataDir, { recursive: true });
  const client = (memory && (await takeMemoryDatabase())) || new PGlite(dataDir);
  try {
    await migratePglite(client);
  } catch (error) {
    await client.close();
    throw error;
  }
  return { client, db: drizzle(client, { schema }) };
}

async function migratePglite(client: PGlite): Promise<void> {
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  await refuseNewerSchema(
    (text) => client.query<Record<string, unknown>>(text).then((r) => r.rows),
    "PGLITE_DIR at another data directory",
  );
  await migrate(drizzle(client, { schema }), { migrationsFolder: MIGRATIONS });
}

/**
 * From now on, every in-memory PGlite ("memory://") this process opens is a reused or copied one
 * (memoryDatabases.ts), not a new one made by initdb and every migration. The server test suite
 * calls it (server/test/hooks.ts); production never does. Resolves once the first copy is made.
 */
export const reuseMemoryDatabases = () => startReusingMemoryDatabases(migratePglite);
export { migratedDump };

/** How long opening a connection to PostgreSQL may take before the request that needed it fails. */
const CONNECT_TIMEOUT_MS = 5000;
/**
 * How long a pooled connection's statement may wait for a lock (a user's own lock, a row) before it
 * fails: the per-user locks are held for one short transaction, so a longer wait means a lock
 * that is not coming (held by a stuck session), and the request is better refused than parked on
 * one of the pool's ten connections. The migrations lift it on their own connection.
 */
export const LOCK_TIMEOUT_MS = 5000;
/**
 * How long one statement on a pooled connection may run: well above the longest legitimate one
 * (a 10,000-row contacts import, the holders' fold over the whole index, an export's page), and
 * short enough that a runaway statement frees its connection.
 */
export const STATEMENT_TIMEOUT_MS = 30_000;

type Rows = Record<string, unknown>[];

/** The migrations this code knows, oldest first: drizzle-kit's journal beside the SQL files. */
function knownMigrations(): { when: number; tag: string }[] {
  return (JSON.parse(readFileSync(path.join(MIGRATIONS, "meta", "_journal.json"), "utf8")) as { entries: { when: number; tag: string }[] })
    .entries;
}

/**
 * Refuses a database that a newer server has migrated, before anything is applied: drizzle's
 * migrator would apply nothing and say nothing, and this code would then read and write tables
 * whose shape it does not know. Drizzle records each applied migration with its journal entry's
 * `when` (the time drizzle-kit wrote it, not the time it was applied), so a row newer than this
 * code's newest entry, or more rows than its journal has, is a migration it does not know. A
 * database with no drizzle table yet is new, and migrates. `otherDatabase` says where to point instead.
 */
async function refuseNewerSchema(query: (text: string) => Promise<Rows>, otherDatabase: string): Promise<void> {
  const [table] = await query("select to_regclass('drizzle.__drizzle_migrations') is not null as present");
  if (!table.present) return;
  const [row] = await query("select count(*)::int as applied, max(created_at)::text as newest from drizzle.__drizzle_migrations");
  const known = knownMigrations();
  const last = known[known.length - 1];
  const applied = Number(row.applied);
  const newest = row.newest === null ? null : Number(row.newest); // bigint: text, so no driver rounds it
  if (applied <= known.length && (newest === null || newest <= last.when)) return;
  const dated = (ms: number | null) => (ms === null ? "undated" : new Date(ms).toISOString());
  throw new ConfigError(
    `The database has ${applied} schema migrations applied, the newest dated ${dated(newest)}, but this server knows ${known.length}, the newest ${last.tag} dated ${dated(last.when)}: ` +
      `a newer version of the server has migrated it. Run that version (or a newer one), or point ${otherDatabase}. Nothing was changed.`,
  );
}

/** How long a ping may take before the database counts as not answering (a server that is away may hang rather than refuse). */
const PING_TIMEOUT_MS = 2000;

function withinPing(answer: Promise<boolean>): Promise<boolean> {
  return within(answer, PING_TIMEOUT_MS, "no answer").catch(() => false);
}
