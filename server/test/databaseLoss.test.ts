/**
 * A lost database (issue 15, "Bad input and faults"): while PostgreSQL is stopped, requests that need
 * it answer 503 with a sentence within moments, and the process keeps running; once PostgreSQL is
 * back, the same API server answers them again and its indexer catches up, with no restart. The
 * stop is real: a PostgreSQL server of this file's own is stopped (pg_ctl stop -m fast) and started
 * again on its port and data directory. PostgreSQL only: PGlite lives inside the process.
 */
import { expect } from "chai";
import { parseUnits } from "ethers";
import { USDX__factory } from "@bindings";
import { readManifest } from "@common/manifestFile";
import { sql } from "drizzle-orm";
import { isDatabaseUnavailable } from "../src/db/errors";
import { DATABASE_UNAVAILABLE } from "../src/lib/errors";
import { RunningServer, startServer } from "../src/index";
import { createLogger } from "../src/lib/logger";
import { call, emailUser, provider, seeded, stack, testConfig, testPostgres, until } from "./helpers";
import { PostgresServer, startPostgres } from "./postgres";

/** How soon a request must be answered while the database is away: it is refused, not left to hang. */
const ANSWER_WITHIN_MS = 3000;
/** How soon after PostgreSQL is back the same server must answer again (the leader asks every 2 s). */
const RECOVER_WITHIN_MS = 15_000;

const ALICE = { name: "Alice", address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed" };
const BOB = { name: "Bob", address: "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359" };

describe("A lost database: 503 with a sentence, then recovery without a restart", function () {
  let postgres: PostgresServer;
  let server: RunningServer;

  before(async function () {
    if (!testPostgres()) this.skip(); // PGlite runs inside the process: there is no server to lose
    postgres = await startPostgres();
    postgres.psql("create database dashboard");
    server = await startServer(testConfig({ DATABASE_URL: postgres.url("dashboard") }), createLogger("silent"));
  });
  after(async () => {
    await server?.close();
    postgres?.stop();
  });

  /** Calls the API and says how long the answer took. */
  async function timed(method: string, path: string, options: Parameters<typeof call>[3] = {}) {
    const started = Date.now();
    const answer = await call(server, method, path, options);
    return { ...answer, ms: Date.now() - started };
  }

  it("answers 503 with a sentence while PostgreSQL is stopped, keeps running, and serves again once it is back", async () => {
    const user = await emailUser();
    const added = await call(server, "POST", "/api/contacts", { token: user.idToken, body: ALICE });
    expect(added.status).to.equal(201);
    const head = await provider().getBlockNumber();
    await until(
      "the index to reach the head",
      () => call(server, "GET", "/api/health"),
      (h) => h.status === 200 && h.body.indexer.checkpoint === head,
    );
    const eventsBefore = await call(server, "GET", "/api/events");
    expect(eventsBefore.status).to.equal(200);

    postgres.pause();
    // Each of these queries the database: refused at once, in words, not a 500 and not a hang.
    const down = {
      contacts: await timed("GET", "/api/contacts", { token: user.idToken }),
      addContact: await timed("POST", "/api/contacts", { token: user.idToken, body: BOB }),
      nonce: await timed("POST", "/api/auth/nonce"),
    };
    for (const [what, answer] of Object.entries(down)) {
      expect({ what, status: answer.status, body: answer.body }).to.deep.equal({
        what,
        status: 503,
        body: { success: false, error: DATABASE_UNAVAILABLE },
      });
      expect(answer.ms, `${what} took ${answer.ms} ms`).to.be.below(ANSWER_WITHIN_MS);
    }
    // Readiness and health share one database ping a second (HEALTH_PING_MS): the next one says so.
    const ready = await until(
      "GET /api/ready to say unready",
      () => timed("GET", "/api/ready"),
      (a) => a.status === 503,
      5_000,
    );
    expect({ status: ready.status, body: ready.body }).to.deep.equal({
      status: 503,
      body: { status: "unready", error: DATABASE_UNAVAILABLE },
    });
    expect(ready.ms).to.be.below(ANSWER_WITHIN_MS);
    expect((await call(server, "GET", "/api/live")).status).to.equal(200);
    // /monitoring says so in the same words, from its next sample.
    await server.services.monitoring.sample();
    const monitored = (await call(server, "GET", "/api/monitoring")).body.parts.find((p: { part: string }) => p.part === "database");
    expect(monitored).to.include({ ok: false, detail: "PostgreSQL", lastError: DATABASE_UNAVAILABLE });
    const health = await until(
      "GET /api/health to say degraded",
      () => call(server, "GET", "/api/health"),
      (a) => a.status === 503,
      5_000,
    );
    expect(health.status).to.equal(503);
    expect(health.body.database).to.deep.equal({ ok: false, kind: "postgres" });
    // The loops say so in words too (not drizzle's "Failed query: ..."), once one has tried a step.
    const loops = await until(
      "a background loop to report the outage",
      async () => (await call(server, "GET", "/api/health")).body,
      (h) => h.indexer.lastError !== null,
      10_000,
    );
    expect(loops.indexer.lastError).to.equal(DATABASE_UNAVAILABLE);
    // It stops leading (its lock's connection is gone, so another replica may be indexing). From
    // then on its cached index pages cannot vouch for the index: another replica may have moved it,
    // and checking takes the database. So they answer 503 too, rather than an old page.
    await until(
      "the replica to stop leading",
      async () => server.services.leadership.status().leader,
      (leads) => !leads,
      10_000,
    );
    const events = await timed("GET", "/api/events");
    expect({ status: events.status, body: events.body }).to.deep.equal({
      status: 503,
      body: { success: false, error: DATABASE_UNAVAILABLE },
    });
    expect(eventsBefore.body.events.length).to.be.above(0);

    // The chain moves on meanwhile: the index has something to catch up on.
    const { proxy } = readManifest("localhost", { DEPLOYMENTS_DIR: stack().deploymentsDir });
    const transfer = await (
      await USDX__factory.connect(proxy, seeded("alice")).transfer(seeded("bob").address, parseUnits("0.01", 18))
    ).wait();
    const newHead = await provider().getBlockNumber();

    postgres.resume();
    // The same server, not restarted: its pool connects anew.
    const contacts = await until(
      "GET /api/contacts to answer 200 again",
      () => call(server, "GET", "/api/contacts", { token: user.idToken }),
      (a) => a.status === 200,
      RECOVER_WITHIN_MS,
    );
    expect(contacts.body.contacts.map((c: { name: string }) => c.name)).to.deep.equal(["Alice"]);
    expect((await call(server, "POST", "/api/auth/nonce")).status).to.equal(200);
    // The next shared ping after recovery says so.
    await until(
      "GET /api/ready to answer 200 again",
      () => call(server, "GET", "/api/ready"),
      (a) => a.status === 200,
      5_000,
    );
    const caughtUp = await until(
      "the indexer to catch up with the chain",
      () => call(server, "GET", "/api/health"),
      (h) => h.status === 200 && h.body.indexer.checkpoint === newHead && h.body.indexer.lastError === null,
      RECOVER_WITHIN_MS,
    );
    expect(caughtUp.body.database).to.deep.equal({ ok: true, kind: "postgres" });
    // Up again, and the failure is still shown, with when it was first seen.
    await server.services.monitoring.sample();
    const recovered = (await call(server, "GET", "/api/monitoring")).body.parts.find((p: { part: string }) => p.part === "database");
    expect(recovered).to.include({ ok: true, lastError: DATABASE_UNAVAILABLE, lastErrorAt: monitored.lastErrorAt });
    // The transfer made while the database was away is indexed now, and listed first (newest first).
    const listed = await until(
      "the transfer to be listed",
      () => call(server, "GET", "/api/events"),
      (a) => a.status === 200 && a.body.events[0]?.transactionHash === transfer!.hash,
      RECOVER_WITHIN_MS,
    );
    expect(listed.body.events[0]).to.include({ name: "Transfer", blockNumber: transfer!.blockNumber });
  });

  it("tells a database that went away from a query at fault: a query under way when it stops, and one after, count as unavailable", async () => {
    const { db } = server.services.db;
    const codeOf = (error: unknown) => (error as { cause?: { code?: string } }).cause?.code;
    // A query at fault is the server's own 500, not an outage.
    const faulty = await db.execute(sql`select * from no_such_table`).catch((error: unknown) => error);
    expect(codeOf(faulty)).to.equal("42P01");
    expect(isDatabaseUnavailable(faulty)).to.equal(false);

    const underWay = db.execute(sql`select pg_sleep(30)`).catch((error: unknown) => error);
    await until(
      "the query to be under way",
      async () => postgres.psql("select count(*) from pg_stat_activity where query like 'select pg_sleep%'").trim(),
      (n) => n === "1",
      5000,
    );
    postgres.pause();
    try {
      // pg_ctl stop -m fast ends every session: the query under way fails with admin shutdown.
      const ended = await underWay;
      expect(codeOf(ended)).to.equal("57P01");
      expect(isDatabaseUnavailable(ended)).to.equal(true);
      const refused = await db.execute(sql`select 1`).catch((error: unknown) => error);
      expect(isDatabaseUnavailable(refused), String(refused)).to.equal(true);
    } finally {
      postgres.resume();
    }
    await until(
      "the database to answer again",
      () => server.services.db.ping(),
      (ok) => ok,
      RECOVER_WITHIN_MS,
    );
  });
});
