/**
 * What CSV exports may cost (issue 29): a few at once per user and per process, and a budget of rows
 * a minute per user and per client address, the contacts export counted with the others. A refusal
 * for load is a 429 with Retry-After and a sentence saying when to try again.
 */
import { expect } from "chai";
import type { CsvChunk, CsvDownload } from "../src/lib/csv";
import type { RunningServer } from "../src/index";
import { call, emailUser, randomAddress, startTestServer } from "./helpers";

type User = { idToken: string; uid?: string };

const TRY_AGAIN = /; try again in \d+ seconds?\.$/;

describe("CSV export limits: exports at once and rows a minute", function () {
  this.timeout(60_000);

  describe("exports at once (EXPORTS_AT_ONCE_PER_USER, EXPORTS_AT_ONCE)", () => {
    let server: RunningServer;
    /** Exports held open after their first row until the test lets them end. */
    let letThemEnd: () => void;
    let ended: Promise<void>;
    before(async () => {
      server = await startTestServer({ EXPORTS_AT_ONCE_PER_USER: "2", EXPORTS_AT_ONCE: "3", RATE_LIMIT_CSV_PER_MINUTE: "1000" });
      ended = new Promise((resolve) => (letThemEnd = resolve));
      // Contract Events exports that write one row, then wait: running exports, whatever the machine's speed.
      const exportsService = server.services.exports as { contractEvents: (filter: unknown) => Promise<CsvDownload> };
      exportsService.contractEvents = async () => ({
        fileName: "usdx_events.csv",
        header: ["Event"],
        chunks: (async function* (): AsyncGenerator<CsvChunk> {
          yield [["first"]];
          await ended;
          yield [["last"]];
        })(),
      });
    });
    after(() => server?.close());

    /** Starts an events export and answers once its status and headers are in (the body still coming). */
    const start = (user: User) => fetch(`${server.url}/api/events/export`, { headers: { authorization: `Bearer ${user.idToken}` } });

    it("lets the caps' worth run, refuses the next with 429, Retry-After and the sentence, and lets more in once they end", async () => {
      const [alice, bob, carol] = [await emailUser(), await emailUser(), await emailUser()];
      const running = [await start(alice), await start(alice)];
      expect(running.map((r) => r.status)).to.deep.equal([200, 200]);

      // A third of Alice's: the per-user cap.
      const mine = await call(server, "GET", "/api/events/export", { token: alice.idToken });
      expect(mine.status).to.equal(429);
      expect(mine.headers.get("retry-after")).to.equal("5");
      expect(mine.body).to.deep.equal({
        success: false,
        error:
          "Too many CSV exports at once: one user may run 2 exports at a time, and yours are still being written; try again in 5 seconds.",
      });
      // Her contacts export is an export too.
      expect((await call(server, "GET", "/api/contacts/export", { token: alice.idToken })).status).to.equal(429);

      // Bob's takes the process's last place; Carol's finds none.
      running.push(await start(bob));
      expect(running[2].status).to.equal(200);
      const full = await call(server, "GET", "/api/holders/export", { token: carol.idToken });
      expect(full.status).to.equal(429);
      expect(full.headers.get("retry-after")).to.equal("5");
      expect(full.body.error).to.equal("The server is busy writing other CSV exports (3 at once at most); try again in 5 seconds.");

      letThemEnd();
      expect(await Promise.all(running.map((r) => r.text()))).to.deep.equal(Array(3).fill('"Event"\r\n"first"\r\n"last"\r\n'));
      // Their places are free again.
      expect((await call(server, "GET", "/api/contacts/export", { token: alice.idToken })).status).to.equal(200);
      expect((await call(server, "GET", "/api/holders/export", { token: carol.idToken })).status).to.equal(200);
    });
  });

  describe("rows a minute (EXPORT_ROWS_PER_USER_PER_MINUTE, EXPORT_ROWS_PER_IP_PER_MINUTE)", () => {
    let server: RunningServer;
    before(async () => {
      server = await startTestServer({
        EXPORT_ROWS_PER_USER_PER_MINUTE: "5",
        EXPORT_ROWS_PER_IP_PER_MINUTE: "8",
        RATE_LIMIT_CSV_PER_MINUTE: "1000",
      });
    });
    after(() => server?.close());

    /** A user with `n` contacts, whose calls come from `ip`. */
    async function userAt(ip: string, n: number) {
      const user = await emailUser();
      for (let i = 0; i < n; i++) {
        const added = await call(server, "POST", "/api/contacts", {
          token: user.idToken,
          body: { name: `Payee ${i}`, address: randomAddress() },
        });
        expect(added.status).to.equal(201);
      }
      return (path: string) => call(server, "GET", path, { token: user.idToken, headers: { "x-forwarded-for": ip } });
    }

    function expectRefused(answer: { status: number; headers: Headers; body: { error?: string } }, budget: string) {
      expect(answer.status).to.equal(429);
      const wait = Number(answer.headers.get("retry-after"));
      expect(wait).to.be.within(1, 60);
      expect(answer.body.error).to.equal(`CSV export limit reached: ${budget}; try again in ${wait} second${wait === 1 ? "" : "s"}.`);
      expect(answer.body.error).to.match(TRY_AGAIN);
    }

    it("counts rows, not requests: the contacts export's rows use up the user's budget for every export", async () => {
      const alice = await userAt("203.0.113.10", 5);
      expect((await alice("/api/contacts/export")).status).to.equal(200);
      expectRefused(await alice("/api/contacts/export"), "5 rows a minute per user");
      expectRefused(await alice("/api/holders/export"), "5 rows a minute per user");
    });

    it("counts two users from one address against the address's budget, and not a user elsewhere", async () => {
      const ip = "203.0.113.20";
      const alice = await userAt(ip, 5);
      const bob = await userAt(ip, 3);
      expect((await alice("/api/contacts/export")).status).to.equal(200);
      expect((await bob("/api/contacts/export")).status).to.equal(200);
      // Bob has written 3 of his own 5, but the address has written 8 of its 8.
      expectRefused(await bob("/api/contacts/export"), "8 rows a minute from one IP address, all its users together");
      const carol = await userAt("198.51.100.30", 2);
      expect((await carol("/api/contacts/export")).status).to.equal(200);
    });

    it("counts the contacts export with the other exports' requests a minute", async () => {
      const limited = await startTestServer({ RATE_LIMIT_CSV_PER_MINUTE: "2" });
      try {
        const user = await emailUser();
        const get = (path: string) => call(limited, "GET", path, { token: user.idToken });
        expect((await get("/api/holders/export")).status).to.equal(200);
        expect((await get("/api/contacts/export")).status).to.equal(200);
        const refused = await get("/api/contacts/export");
        expect(refused.status).to.equal(429);
        expect(refused.body.error).to.equal("Too many CSV exports: wait a minute and try again.");
      } finally {
        await limited.close();
      }
    });
  });
});
