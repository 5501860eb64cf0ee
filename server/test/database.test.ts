import { expect } from "chai";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { sql } from "drizzle-orm";
import { Client } from "pg";
import type { Config } from "../src/config";
import { openDatabase } from "../src/db/client";
import { auditLog } from "../src/db/schema";
import { RunningServer, startServer } from "../src/index";
import { createLogger } from "../src/lib/logger";
import { call, startTestServer, testConfig, testPostgres, until } from "./helpers";
import { killServerProcesses, startServerProcess } from "./serverProcess";
import { freePort } from "./stack";
import { migratedDataDir } from "./dataDirs";

const JOURNAL = path.resolve(__dirname, "..", "drizzle", "meta", "_journal.json");
const journal = () => JSON.parse(readFileSync(JOURNAL, "utf8")) as { entries: { when: number; tag: string }[] };

/** Rows of `query` on a database that openDatabase would refuse: PGlite's directory opened bare, or a plain connection. */
async function bareQuery(database: Config["database"], query: string): Promise<unknown[]> {
  if (database.kind === "pglite") {
    const pglite = new PGlite(database.dataDir);
    try {
      return (await pglite.query(query)).rows;
    } finally {
      await pglite.close();
    }
  }
  const client = new Client({ connectionString: database.url });
  await client.connect();
  try {
    return (await client.query(query)).rows;
  } finally {
    await client.end();
  }
}

/** What a migration would change: drizzle's record of applied migrations, and every table and column. */
const SCHEMA_STATE = `select json_build_object(
  'migrations', (select json_agg(json_build_array(id, hash, created_at::text) order by id) from drizzle.__drizzle_migrations),
  'columns', (select json_agg(table_name || '.' || column_name || ' ' || data_type order by table_name, column_name)
              from information_schema.columns where table_schema in ('public', 'drizzle'))) as state`;

describe("Database", () => {
  it("runs on node-postgres when DATABASE_URL is set (PGlite served over the Postgres wire protocol)", async () => {
    const pglite = await PGlite.create();
    const port = await freePort();
    // PGlite is single-connection; the socket server multiplexes node-postgres's pool onto it.
    const socket = new PGLiteSocketServer({ db: pglite, port, host: "127.0.0.1", maxConnections: 10 });
    await socket.start();
    try {
      const url = `postgres://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable`;
      const handle = await openDatabase({ kind: "postgres", url });
      try {
        expect(handle.kind).to.equal("postgres");
        expect(await handle.ping()).to.equal(true);
        await handle.db.insert(auditLog).values({ uid: "u1", action: "test", details: { ok: true } });
        const rows = await handle.db.select().from(auditLog);
        expect(rows.map((r) => r.details)).to.deep.equal([{ ok: true }]);
      } finally {
        await handle.close();
      }
      // The whole server on it: migrations are already applied, the indexer fills it.
      const server = await startTestServer({ DATABASE_URL: url });
      try {
        const health = await call(server, "GET", "/api/health");
        expect(health.body.database).to.deep.equal({ ok: true, kind: "postgres" });
        const events = await call(server, "GET", "/api/events");
        expect(events.body.events).to.have.length(10);
      } finally {
        await server.close();
      }
    } finally {
      await socket.stop();
      await pglite.close();
    }
  });

  it("starts each in-memory test database as a copy of one migrated database, with the schema a new data directory migrates to", async function () {
    if (testPostgres()) this.skip(); // that pass copies a PostgreSQL template instead (postgres.ts)
    const dir = mkdtempSync(path.join(tmpdir(), "usdx-pglite-"));
    // Two servers' in-memory databases (server/test/hooks.ts has them copied) and one made by initdb on disk.
    const opened = await Promise.all([
      openDatabase({ kind: "pglite", dataDir: "memory://" }),
      openDatabase({ kind: "pglite", dataDir: "memory://" }),
      openDatabase({ kind: "pglite", dataDir: dir }),
    ]);
    try {
      const read = async (handle: (typeof opened)[number]) => {
        const one = async (query: string) =>
          ((await handle.db.execute(sql.raw(query))) as unknown as { rows: Record<string, unknown>[] }).rows[0];
        return {
          id: (await one("select system_identifier::text as id from pg_control_system()")).id,
          state: (await one(SCHEMA_STATE)).state,
        };
      };
      const [first, second, onDisk] = await Promise.all(opened.map(read));
      // initdb gives each database cluster an identifier of its own: equal ones are copies of one.
      expect(first.id).to.equal(second.id);
      expect(onDisk.id).to.not.equal(first.id);
      expect(first.state).to.deep.equal(onDisk.state);
      expect(second.state).to.deep.equal(onDisk.state);
    } finally {
      await Promise.all(opened.map((handle) => handle.close()));
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("hands a closed in-memory database to the next one opened only emptied (rows gone, identities restarted, session reset), and never one whose schema a test changed", async function () {
    if (testPostgres()) this.skip(); // that pass makes a new PostgreSQL database each time (postgres.ts)
    const rowsOf = async (handle: Awaited<ReturnType<typeof openDatabase>>, query: string) =>
      ((await handle.db.execute(sql.raw(query))) as unknown as { rows: Record<string, unknown>[] }).rows;

    const first = await openDatabase({ kind: "pglite", dataDir: "memory://" });
    const [written] = await first.db.insert(auditLog).values({ uid: "u1", action: "left behind", details: {} }).returning();
    await rowsOf(first, "set statement_timeout = 1234");
    await rowsOf(first, "select pg_advisory_lock(42)");
    await first.close();
    // A closed database answers as a closed PGlite does, though it now serves another server.
    const late = await first.db
      .select()
      .from(auditLog)
      .then(
        () => "answered",
        // drizzle's "Failed query", caused by PGlite's refusal
        (error: Error) => ((error.cause as Error | undefined) ?? error).message,
      );
    expect(late).to.equal("PGlite is closed");

    const second = await openDatabase({ kind: "pglite", dataDir: "memory://" });
    try {
      expect(await second.db.select().from(auditLog), "rows of the server before").to.deep.equal([]);
      const [again] = await second.db.insert(auditLog).values({ uid: "u2", action: "new", details: {} }).returning();
      expect(again.id, "the identity restarted").to.equal(written.id);
      expect((await rowsOf(second, "show statement_timeout"))[0].statement_timeout).to.equal("0");
      expect(await rowsOf(second, "select objid from pg_locks where locktype = 'advisory'")).to.deep.equal([]);
      // A trigger left in the schema: this database is closed, not handed on.
      await rowsOf(second, "create function refuse() returns trigger language plpgsql as $$ begin raise exception 'refused'; end $$");
      await rowsOf(second, "create trigger refuse before insert on audit_log for each row execute function refuse()");
    } finally {
      await second.close();
    }
    const third = await openDatabase({ kind: "pglite", dataDir: "memory://" });
    try {
      expect(await rowsOf(third, "select tgname from pg_trigger where not tgisinternal")).to.deep.equal([]);
      await third.db.insert(auditLog).values({ uid: "u3", action: "allowed", details: {} });
    } finally {
      await third.close();
    }
  });

  it("applies migrations to a new PGlite data directory, and reopens it with its rows intact", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "usdx-pglite-"));
    try {
      const first = await openDatabase({ kind: "pglite", dataDir: dir });
      await first.db.insert(auditLog).values({ uid: "u2", action: "kept", details: {} });
      await first.close();
      const again = await openDatabase({ kind: "pglite", dataDir: dir });
      const rows = await again.db.select().from(auditLog);
      await again.close();
      expect(rows.map((r) => r.action)).to.deep.equal(["kept"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("Database: a PostgreSQL server (npm run test:server:postgres)", function () {
  before(function () {
    if (!testPostgres()) this.skip(); // PGlite has one process per data directory: nothing to race
  });

  it("applies each migration once when two replicas start at once on a new database, and both answer", async () => {
    const postgres = testPostgres()!;
    postgres.server.psql("create database replicas"); // empty: not a copy of the migrated template
    const config = testConfig({ DATABASE_URL: postgres.server.url("replicas") });
    const servers = await Promise.allSettled([startServer(config, createLogger("silent")), startServer(config, createLogger("silent"))]);
    try {
      expect(servers.map((s) => (s.status === "rejected" ? String(s.reason) : "started"))).to.deep.equal(["started", "started"]);
      for (const s of servers) {
        const health = await call((s as PromiseFulfilledResult<RunningServer>).value, "GET", "/api/health");
        expect(health.body.database).to.deep.equal({ ok: true, kind: "postgres" });
      }
      const journal = JSON.parse(readFileSync(JOURNAL, "utf8")) as { entries: { when: number }[] };
      const applied = postgres.server
        .psql("select created_at from drizzle.__drizzle_migrations order by id", "replicas")
        .trim()
        .split("\n")
        .map(Number);
      expect(applied).to.deep.equal(journal.entries.map((e) => e.when));
    } finally {
      await Promise.all(servers.map((s) => (s.status === "fulfilled" ? s.value.close() : undefined)));
    }
  });
});

describe("Database: a schema newer than this server knows", function () {
  // It starts the real entry point in a process of its own (up to 60 s to exit or be ready on a loaded machine).
  this.timeout(150_000);
  after(() => killServerProcesses());

  it("refuses to open a database a newer server migrated, with a sentence; the API server exits 1 saying so; nothing is changed", async () => {
    const dir = await migratedDataDir("usdx-newer-");
    // On PostgreSQL the database that stands in for this directory, as the server process below finds it.
    const database = testConfig({ PGLITE_DIR: dir }).database;
    const elsewhere = database.kind === "postgres" ? "DATABASE_URL at another database" : "PGLITE_DIR at another data directory";
    const { entries } = journal();
    const last = entries[entries.length - 1];
    const iso = (ms: number) => new Date(ms).toISOString();
    try {
      const current = await openDatabase(database);
      const newer = last.when + 86_400_000;
      await current.db.execute(
        sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('written by a newer server', ${newer})`,
      );
      await current.close();
      const before = await bareQuery(database, SCHEMA_STATE);
      expect(JSON.stringify(before)).to.include("written by a newer server");

      const sentence =
        `The database has ${entries.length + 1} schema migrations applied, the newest dated ${iso(newer)}, but this server knows ${entries.length}, ` +
        `the newest ${last.tag} dated ${iso(last.when)}: a newer version of the server has migrated it. Run that version (or a newer one), or point ${elsewhere}. Nothing was changed.`;
      const refused = await openDatabase(database).then(
        async (handle) => (await handle.close(), null),
        (error: Error) => error.message,
      );
      expect(refused).to.equal(sentence);
      if (database.kind === "postgres") {
        // It let go of what it opened: no session of its own left on the database, no migration lock held.
        const left = `select (select count(*) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid())
                          + (select count(*) from pg_locks l join pg_database d on d.oid = l.database where l.locktype = 'advisory' and d.datname = current_database()) as n`;
        await until(
          "the refused opening's connections to end",
          () => bareQuery(database, left),
          (rows) => Number((rows[0] as { n: string }).n) === 0,
          5000,
        );
      }

      // The real entry point, as an operator would start it.
      const server = await startServerProcess(dir, {}, { healthy: false });
      expect(await server.exited, server.output()).to.equal(1);
      expect(server.output()).to.include(`The API server cannot start: ${sentence}`);
      expect(server.output()).not.to.include("    at "); // a sentence, not a stack

      expect(await bareQuery(database, SCHEMA_STATE)).to.deep.equal(before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses a database with more applied migrations than this server knows, even when none is dated after its newest", async () => {
    const dir = await migratedDataDir("usdx-newer-");
    const database = testConfig({ PGLITE_DIR: dir }).database;
    const { entries } = journal();
    const last = entries[entries.length - 1];
    try {
      const current = await openDatabase(database);
      // A migration from another line of work, dated before this server's newest.
      await current.db.execute(
        sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('from another branch', ${entries[0].when})`,
      );
      await current.close();
      const refused = await openDatabase(database).then(
        async (handle) => (await handle.close(), null),
        (error: Error) => error.message,
      );
      expect(refused)
        .to.be.a("string")
        .and.include(
          `The database has ${entries.length + 1} schema migrations applied, the newest dated ${new Date(last.when).toISOString()}, but this server knows ${entries.length},`,
        );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
