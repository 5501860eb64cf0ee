import { expect } from "chai";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { openDatabase } from "../src/db/client";
import { auditLog } from "../src/db/schema";
import { RunningServer, startServer } from "../src/index";
import { createLogger } from "../src/logger";
import { call, startTestServer, testConfig, testPostgres } from "./helpers";
import { freePort } from "./stack";

const JOURNAL = path.resolve(__dirname, "..", "drizzle", "meta", "_journal.json");

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
      const applied = postgres.server.psql("select created_at from drizzle.__drizzle_migrations order by id", "replicas").trim().split("\n").map(Number);
      expect(applied).to.deep.equal(journal.entries.map((e) => e.when));
    } finally {
      await Promise.all(servers.map((s) => (s.status === "fulfilled" ? s.value.close() : undefined)));
    }
  });
});
