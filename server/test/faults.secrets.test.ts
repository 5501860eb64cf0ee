/**
 * Secrets in logs (issue 29, item 8). Drizzle's error for a failed query carries the query's bound
 * parameters (and its message lists them), and the driver's own message can quote a value: a
 * webhook's secret and URL in a rule's creation or a secret's rotation, a receiver's answer in an
 * alert attempt. None of that may reach the log, nor a loop's lastError on the public /api/health
 * and /api/monitoring. The faults are the database's own refusals (a trigger that quotes the row
 * it refuses, as a check or a cast does), made while the secret is in flight.
 */
import { expect } from "chai";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes, randomUUID } from "node:crypto";
import { Writable } from "node:stream";
import { Wallet } from "ethers";
import { sql } from "drizzle-orm";
import { alertDeliveries } from "../src/db/schema";
import { DATABASE_FAILED } from "../src/lib/errors";
import { createLogger } from "../src/lib/logger";
import { RunningServer, startServer } from "../src/index";
import { call, mine, testConfig, until, walletUser } from "./helpers";

/** A webhook receiver whose URL holds a token, as a chat service's does, and whose answer quotes another. */
async function receiver(answerToken: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(500, { "content-type": "text/plain" }).end(`refused, key ${answerToken}`));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Makes every insert or update of `table` fail with a message that quotes the row, as PostgreSQL's own words can. */
async function refuseWrites(db: RunningServer["services"]["db"]["db"], table: string): Promise<void> {
  await db.execute(
    sql.raw(`create or replace function usdx_test_refuse() returns trigger language plpgsql as $$
      begin raise exception 'refused: %', row_to_json(NEW)::text; end $$`),
  );
  await db.execute(
    sql.raw(`create trigger usdx_test_refuse before insert or update on ${table} for each row execute function usdx_test_refuse()`),
  );
}
const allowWrites = (table: string) => sql.raw(`drop trigger usdx_test_refuse on ${table}`);

/** The lines of `text` that hold `needle`: the failure shows where a secret leaked. */
const linesWith = (text: string, needle: string | RegExp) =>
  text.split("\n").filter((line) => (typeof needle === "string" ? line.includes(needle) : needle.test(line)));

/** A rule's secret as the server makes them (services/alerts/rules.ts's newSecret). */
const ANY_SECRET = /whsec_[0-9a-f]{64}/;

describe("Secrets stay out of logs and public answers", function () {
  this.timeout(120_000);
  const adminWallet = Wallet.createRandom() as unknown as Wallet;
  const urlToken = `T0KEN${randomBytes(12).toString("hex")}`;
  const answerToken = `ANSWER${randomBytes(12).toString("hex")}`;
  const logs: string[] = [];
  let server: RunningServer;
  let hook: Awaited<ReturnType<typeof receiver>>;
  let admin: string;

  before(async () => {
    hook = await receiver(answerToken);
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logs.push(String(chunk));
        done();
      },
    });
    const config = testConfig({
      ADMIN_WALLETS: adminWallet.address,
      ALERT_POLL_MS: "100",
      ALERT_RETRY_BASE_MS: "150",
      ALERT_RETRY_MAX_MS: "300",
      LOG_LEVEL: "debug",
    });
    server = await startServer(config, createLogger("debug", sink));
    await server.services.indexer.syncOnce();
    admin = (await walletUser(server, adminWallet)).idToken;
  });
  after(async () => {
    await server?.close();
    await hook?.close();
  });

  /** Everything a reader outside the server could see, and the log. */
  async function everywhere(): Promise<string> {
    await server.services.monitoring.sample();
    const health = await call(server, "GET", "/api/health");
    const monitoring = await call(server, "GET", "/api/monitoring");
    return [logs.join(""), JSON.stringify(health.body), JSON.stringify(monitoring.body)].join("\n");
  }

  it("a rule created and a secret rotated while the database refuses them: a 500 in words, and neither secret nor URL in the log", async () => {
    const { db } = server.services.db;
    const webhookUrl = `${hook.url}/hooks/${urlToken}`;
    const made = await call(server, "POST", "/api/alerts/rules", { token: admin, body: { kind: "pause", webhookUrl } });
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    const { id } = made.body.rule;

    await refuseWrites(db, "alert_rules");
    try {
      const created = await call(server, "POST", "/api/alerts/rules", { token: admin, body: { kind: "mint", webhookUrl } });
      const rotated = await call(server, "POST", `/api/alerts/rules/${id}/rotate-secret`, { token: admin });
      for (const answer of [created, rotated]) {
        expect({ status: answer.status, body: answer.body }).to.deep.equal({
          status: 500,
          body: { success: false, error: "Something went wrong on the server. It has been logged." },
        });
      }
    } finally {
      await db.execute(allowWrites("alert_rules"));
    }
    const seen = await everywhere();
    expect(seen).to.include("request failed"); // it was logged: what the log says is checked below
    expect(seen).to.include('"code":"P0001"'); // with the database's code for what happened, not its words
    expect(linesWith(seen, urlToken).join("\n")).to.equal("");
    expect(linesWith(seen, ANY_SECRET).join("\n")).to.equal("");
    expect(linesWith(seen, made.body.secret).join("\n")).to.equal("");
  });

  it("background loops whose writes the database refuses show a fixed sentence on /api/health and /api/monitoring, and the log keeps the values out", async () => {
    const { db } = server.services.db;
    const webhookUrl = `${hook.url}/hooks/${urlToken}`;
    const made = await call(server, "POST", "/api/alerts/rules", { token: admin, body: { kind: "pause", webhookUrl } });
    expect(made.status, JSON.stringify(made.body)).to.equal(201);

    // The alerts loop: the receiver's answer (quoting a key) is written with the attempt, and refused.
    // The indexer: its checkpoint's write is refused.
    await refuseWrites(db, "alert_attempts");
    await refuseWrites(db, "indexer_state");
    try {
      // 'Send test' records its attempt in the request: a 500 in words.
      const sent = await call(server, "POST", `/api/alerts/rules/${made.body.rule.id}/test`, { token: admin });
      expect({ status: sent.status, body: sent.body }).to.deep.equal({
        status: 500,
        body: { success: false, error: "Something went wrong on the server. It has been logged." },
      });
      // A delivery the loop sends (as for a matched event), and a block for the indexer to write.
      await db.insert(alertDeliveries).values({
        publicId: randomUUID(),
        ruleId: made.body.rule.id,
        test: true,
        payload: { test: true },
        status: "pending",
        nextAttemptAt: new Date(),
      });
      await mine();
      const health = await until(
        "the alerts loop and the indexer to report their failure",
        async () => (await call(server, "GET", "/api/health")).body,
        (h) => h.alerts?.lastError != null && h.indexer.lastError != null,
        30_000,
      );
      expect(health.alerts.lastError).to.equal(DATABASE_FAILED);
      expect(health.indexer.lastError).to.equal(DATABASE_FAILED);
      // A step that has nothing to write (no new block) succeeds and clears its part's error until the
      // next refusal, so the monitoring page is read until it shows both, as /api/health was.
      const lastErrors = await until(
        "/api/monitoring to show both failures",
        async () => {
          await server.services.monitoring.sample();
          const parts = (await call(server, "GET", "/api/monitoring")).body.parts as { part: string; lastError: string | null }[];
          return parts.filter((p) => p.part === "alerts" || p.part === "indexer").map((p) => p.lastError);
        },
        (errors) => errors.length === 2 && errors.every((e) => e !== null),
        30_000,
      );
      expect(lastErrors).to.deep.equal([DATABASE_FAILED, DATABASE_FAILED]);
    } finally {
      await db.execute(allowWrites("alert_attempts"));
      await db.execute(allowWrites("indexer_state"));
    }
    const seen = await everywhere();
    expect(seen).to.include("step failed");
    expect(linesWith(seen, answerToken).join("\n")).to.equal("");
    expect(linesWith(seen, urlToken).join("\n")).to.equal("");
    expect(linesWith(seen, ANY_SECRET).join("\n")).to.equal("");
  });
});
