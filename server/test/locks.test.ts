/**
 * Lock keys that collide (issue 29, item 1). Advisory locks live in key spaces of their own
 * (db/locks.ts): a per-user lock can never be the leader's, however its key hashes. And every
 * pooled connection gives up on a lock after LOCK_TIMEOUT_MS (db/client.ts), so a request that
 * waits on a lock held elsewhere is answered with a sentence instead of holding a connection for
 * good. PostgreSQL only: PGlite has one session, so nothing ever waits on a lock there.
 */
import { expect } from "chai";
import { PgDialect } from "drizzle-orm/pg-core";
import { Client } from "pg";
import { DATABASE_BUSY } from "../src/lib/errors";
import { LOCK_CLASS, xactLock } from "../src/db/locks";
import { LOCK_TIMEOUT_MS, STATEMENT_TIMEOUT_MS } from "../src/db/client";
import type { RunningServer } from "../src/index";
import { call, emailUser, stack, startTestServer, testPostgres, until } from "./helpers";

/**
 * A uid found by an offline search (a few seconds of C): under the old scheme its contacts lock,
 * pg_advisory_xact_lock(hashtext('contacts:<uid>')), was the leader's very lock,
 * pg_advisory_lock(hashtext('usdx:background-work')). A wallet address can be searched the same way.
 */
const COLLIDING_UID = "lock-collision-at1egkr";

/** Signs in as `uid` (a custom token, as the server makes for a wallet) through the emulator. */
async function userWithUid(server: RunningServer, uid: string): Promise<string> {
  const token = await server.services.auth.createCustomToken(uid, {});
  const res = await fetch(`http://${stack().emulatorHost}/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key=test-key`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token, returnSecureToken: true }),
  });
  const json = (await res.json()) as { idToken: string };
  expect(res.status).to.equal(200);
  return json.idToken;
}

describe("Advisory locks: a user's lock is never the leader's, and a lock not granted is refused in words", function () {
  let server: RunningServer;
  /** A session of the test's own on the server's database, as another replica or a stuck session would be. */
  let other: Client;

  before(async function () {
    if (!testPostgres()) this.skip(); // PGlite: one session, no lock ever waits
    server = await startTestServer();
    await until(
      "the server to lead",
      async () => server.services.leadership.status().leader,
      (leads) => leads,
    );
    if (server.services.config.database.kind !== "postgres") throw new Error("expected PostgreSQL");
    other = new Client({ connectionString: server.services.config.database.url });
    await other.connect();
  });
  after(async () => {
    await other?.end();
    await server?.close();
  });

  it("adds a contact for a user whose lock key, hashed the old way, is the leader lock's, while the leader holds its lock", async () => {
    const { rows } = await other.query("select hashtext($1) = hashtext('usdx:background-work') as same", [`contacts:${COLLIDING_UID}`]);
    expect(rows[0].same, "the uid no longer collides under the old scheme").to.equal(true);
    // The leader's lock is the one lock of its class, in the two-integer key space.
    const held = await other.query("select classid::int, objid::int, objsubid::int from pg_locks where locktype = 'advisory' and granted");
    expect(held.rows).to.deep.include({ classid: LOCK_CLASS.leader, objid: 0, objsubid: 2 });

    const idToken = await userWithUid(server, COLLIDING_UID);
    const added = await call(server, "POST", "/api/contacts", {
      token: idToken,
      body: { name: "Alice", address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed" },
    });
    expect(added.status, JSON.stringify(added.body)).to.equal(201);
    expect(added.body.contact).to.include({ name: "Alice" });
    expect(server.services.leadership.status().leader).to.equal(true);
  });

  it("answers 503 with a sentence when the user's lock is held elsewhere past the lock timeout, and serves once it is free", async () => {
    const user = await emailUser();
    const body = { name: "Bob", address: "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359" };
    // Another session holds the user's contacts lock and does not let go (a stuck transaction).
    await other.query("begin");
    const lock = new PgDialect().sqlToQuery(xactLock("contacts", user.uid));
    await other.query(lock.sql, lock.params as unknown[]);
    try {
      const started = Date.now();
      const refused = await call(server, "POST", "/api/contacts", { token: user.idToken, body });
      expect({ status: refused.status, body: refused.body }).to.deep.equal({ status: 503, body: { success: false, error: DATABASE_BUSY } });
      // It gave up on the lock, not on the statement: refused before the statement timeout.
      expect(Date.now() - started).to.be.below(STATEMENT_TIMEOUT_MS);
      expect(LOCK_TIMEOUT_MS).to.be.below(STATEMENT_TIMEOUT_MS);
    } finally {
      await other.query("rollback");
    }
    const added = await call(server, "POST", "/api/contacts", { token: user.idToken, body });
    expect(added.status, JSON.stringify(added.body)).to.equal(201);
  });
});
