import type { PGlite, Transaction } from "@electric-sql/pglite";

/**
 * In-memory PGlite databases ("memory://") made cheaply, for the server test suite, which starts a
 * server, and so opens a database, in most of its tests. Production never turns this on (only
 * server/test/hooks.ts calls reuseMemoryDatabases), and a data directory on disk or PostgreSQL is
 * never affected.
 *
 * Two savings, each measured on the server suite's CPU profile:
 * - a new database is a copy of one migrated once (PGlite's loadDataDir of a dumped data
 *   directory), not PGlite's initdb followed by every migration: several seconds of CPU each;
 * - a closed database is emptied and kept for the next one opened, not dropped: even a copy costs
 *   about half a second of CPU (instantiating PostgreSQL's WebAssembly and unpacking the data
 *   directory), its emptying about 50 ms. Emptying is every table truncated (identities restarted)
 *   and the session reset (DISCARD ALL: settings, prepared statements, advisory locks, temporary
 *   tables). A database whose schema, functions, triggers, roles or grants no longer match the
 *   migrated one's (a test that added a trigger) is closed instead, and so is one that does not
 *   empty in time (a transaction left open).
 *
 * A server holds its database through a lease: once it closes the lease, its queries fail as a
 * closed PGlite's do ("PGlite is closed"), even while the database serves another server.
 */

/** The migrated database, dumped: what every new in-memory database starts as. */
let template: Promise<{ dump: Blob; tables: string[]; fingerprint: string }> | undefined;
/** Emptied databases, ready for the next open. */
const idle: PGlite[] = [];
/**
 * How many emptied databases are kept: each holds its own PostgreSQL heap (tens of MB), and a test
 * opens at most a few at once.
 */
const MAX_IDLE = 4;
/** How long emptying may take before the database is closed instead (a transaction left open would hold it forever). */
const EMPTY_TIMEOUT_MS = 5000;

/**
 * What must not change for a database to be reused: every relation with its columns and grants,
 * constraints, non-internal triggers, functions, roles, schemas, extensions and database settings
 * (a test may add a trigger that refuses writes; the next test must not inherit it).
 */
const FINGERPRINT_SQL = `select md5(string_agg(x, ',' order by x)) as fingerprint from (
  select 'c:' || c.oid::regclass::text || ':' || c.relkind::text || ':' || coalesce(c.relacl::text, '') || ':' ||
    coalesce((select string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || ' ' || a.attnotnull::text, ';' order by a.attnum)
      from pg_attribute a where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped), '') as x
    from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')
  union all select 'k:' || conname || ':' || pg_get_constraintdef(oid) from pg_constraint
    where connamespace not in (select oid from pg_namespace where nspname in ('pg_catalog', 'information_schema'))
  union all select 't:' || tgname || ':' || tgrelid::regclass::text || ':' || tgenabled::text from pg_trigger where not tgisinternal
  union all select 'f:' || p.oid::regprocedure::text || ':' || md5(p.prosrc) from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname not in ('pg_catalog', 'information_schema')
  union all select 'r:' || rolname || ':' || rolsuper::text || ':' || rolcanlogin::text from pg_roles
  union all select 'n:' || nspname || ':' || coalesce(nspacl::text, '') from pg_namespace
  union all select 'e:' || extname || ':' || extversion from pg_extension
  union all select 's:' || coalesce(array_to_string(setconfig, ','), '') from pg_db_role_setting
) parts`;

async function fingerprintOf(client: Pick<PGlite, "query">): Promise<string> {
  return (await client.query<{ fingerprint: string }>(FINGERPRINT_SQL)).rows[0].fingerprint;
}

/** The application's tables (drizzle's own migrations table stays: it says the schema is migrated). */
async function tablesOf(client: PGlite): Promise<string[]> {
  const rows = (
    await client.query<{ name: string }>(
      `select format('%I.%I', schemaname, tablename) as name from pg_tables
       where schemaname not in ('pg_catalog', 'information_schema', 'drizzle') order by 1`,
    )
  ).rows;
  return rows.map((r) => r.name);
}

let reusing = false;

/**
 * From now on, every in-memory PGlite this process opens is an emptied one kept from before or a
 * copy of one database migrated once (`migrate` migrates a new one). Resolves once that copy is made.
 */
export async function reuseMemoryDatabases(migrate: (client: PGlite) => Promise<void>): Promise<void> {
  reusing = true;
  template ??= (async () => {
    const { PGlite } = await import("@electric-sql/pglite");
    const client = new PGlite("memory://");
    try {
      await migrate(client);
      const tables = await tablesOf(client);
      // Reuse empties every table: that is a new database only while the migrations insert no rows.
      for (const table of tables) {
        const { rows } = await client.query<{ any: boolean }>(`select exists (select from ${table}) as any`);
        if (rows[0].any) throw new Error(`The migrations left rows in ${table}: an emptied database would not be a new one.`);
      }
      return { dump: await client.dumpDataDir("none"), tables, fingerprint: await fingerprintOf(client) };
    } finally {
      await client.close();
    }
  })();
  await template;
}

/**
 * The migrated database, dumped (a PGlite data directory as a tarball): the server test suite also
 * unpacks it into the data directories on disk its tests start servers on (server/test/dataDirs.ts).
 */
export async function migratedDump(): Promise<Blob> {
  if (!template) throw new Error("reuseMemoryDatabases has not been called: there is no migrated database to copy.");
  return (await template).dump;
}

/**
 * An in-memory PGlite for openDatabase: a lease on a reused or copied database when
 * reuseMemoryDatabases is on; otherwise undefined (openDatabase makes a new one itself).
 */
export async function takeMemoryDatabase(): Promise<PGlite | undefined> {
  if (!reusing || !template) return undefined;
  const reused = idle.pop();
  if (reused) return leaseOf(reused);
  const { PGlite } = await import("@electric-sql/pglite");
  return leaseOf(new PGlite("memory://", { loadDataDir: (await template).dump }));
}

/** Empties `client` and keeps it for the next open; or closes it, if it no longer matches the template or does not empty in time. */
async function giveBack(client: PGlite): Promise<void> {
  const { tables, fingerprint } = await template!;
  let timer: NodeJS.Timeout | undefined;
  const emptied = (async () => {
    await client.transaction(async (tx: Transaction) => {
      await tx.exec(`truncate ${tables.join(", ")} restart identity cascade`);
    });
    await client.exec("discard all");
    return (await fingerprintOf(client)) === fingerprint;
  })();
  const timedOut = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), EMPTY_TIMEOUT_MS)));
  const reusable = await Promise.race([emptied.catch(() => false), timedOut]);
  clearTimeout(timer);
  if (reusable && idle.length < MAX_IDLE) idle.push(client);
  // Not awaited when it timed out: a transaction left open would hold the close too.
  else if (reusable) await client.close();
  else void client.close().catch(() => undefined);
}

/**
 * What openDatabase and drizzle use of a PGlite, on one database until closed: then every call fails
 * as a closed PGlite's does, and the database is given back (close resolves once it is).
 */
class Lease {
  #client: PGlite | null;
  constructor(client: PGlite) {
    this.#client = client;
  }
  #live(): PGlite {
    if (!this.#client) throw new Error("PGlite is closed");
    return this.#client;
  }
  get closed() {
    return this.#client === null;
  }
  async query(...args: Parameters<PGlite["query"]>) {
    return this.#live().query(...args);
  }
  async exec(...args: Parameters<PGlite["exec"]>) {
    return this.#live().exec(...args);
  }
  async transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.#live().transaction(callback);
  }
  async close(): Promise<void> {
    const client = this.#live();
    this.#client = null;
    await giveBack(client);
  }
}

const leaseOf = (client: PGlite) => new Lease(client) as unknown as PGlite;
