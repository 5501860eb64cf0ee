/**
 * Exactly one replica does the background work (issue 15, part 2): on PostgreSQL the replicas on one
 * database elect the one that runs the indexer, the batch watcher and the mock bank's worker through
 * an advisory lock; a leader killed, stopped or cut off from the database is replaced within 10 s,
 * and the new one carries on from the checkpoints. On PGlite the one replica always leads. The
 * kills are real: replicas run as child processes (server/src/index.ts) and get SIGKILL or SIGTERM.
 */
import { expect } from "chai";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseUnits } from "ethers";
import { USDX__factory } from "@bindings";
import type { Api } from "@common/api";
import type { AnswerOf } from "@common/api/endpoint";
import { readManifest } from "@common/manifestFile";
import { openDatabase } from "../src/db/client";
import { DATABASE_UNAVAILABLE } from "../src/lib/errors";
import { startServer, RunningServer } from "../src/index";
import { createLogger } from "../src/lib/logger";
import { call, provider, seeded, stack, startTestServer, testConfig, testPostgres, until, untilIndexEqualsChain } from "./helpers";
import { killServerProcesses, startServerProcess } from "./serverProcess";

/** The bound on a takeover. */
const TAKEOVER_MS = 10_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const manifest = () => readManifest("localhost", { DEPLOYMENTS_DIR: stack().deploymentsDir });

/** A few transfers, so the index has new events to store. */
async function transfers(count: number): Promise<void> {
  const usdx = USDX__factory.connect(manifest().proxy, seeded("alice"));
  for (let i = 0; i < count; i++) await (await usdx.transfer(seeded("bob").address, parseUnits("0.01", 18))).wait();
}

/** GET /api/health's report (its 503 answers the same report, degraded). */
type Health = AnswerOf<Api["GET /api/health"]>;

async function json(url: string): Promise<{ status: number; body: Health }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
  return { status: res.status, body: (await res.json()) as Health };
}

async function isLeader(url: string): Promise<boolean | null> {
  return json(`${url}/api/health`)
    .then((a) => a.body.leader as boolean)
    .catch(() => null);
}

// ---------------------------------------------------------------- replicas as processes

/** How long until `url` reports itself the leader (fails past the bound). */
async function untilLeader(url: string): Promise<number> {
  const started = Date.now();
  await until(
    `${url} to lead`,
    () => isLeader(url),
    (leader) => leader === true,
    TAKEOVER_MS,
  );
  return Date.now() - started;
}

// ---------------------------------------------------------------- a database connection that can be cut

/** A TCP forwarder in front of PostgreSQL: cut() drops every connection and refuses new ones until restore(). */
class DatabaseLink {
  private cutOff = false;
  private readonly sockets = new Set<net.Socket>();
  private constructor(
    private readonly server: net.Server,
    readonly port: number,
  ) {}

  static async open(targetPort: number): Promise<DatabaseLink> {
    // The handler reaches the link, made once the server listens; no connection comes before open returns the port.
    const server = net.createServer((socket) => {
      if (link.cutOff) return socket.destroy();
      const upstream = net.connect(targetPort, "127.0.0.1");
      for (const s of [socket, upstream]) {
        link.sockets.add(s);
        s.on("error", () => undefined);
        s.on("close", () => {
          link.sockets.delete(s);
          socket.destroy();
          upstream.destroy();
        });
      }
      socket.pipe(upstream).pipe(socket);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const link = new DatabaseLink(server, (server.address() as net.AddressInfo).port);
    return link;
  }

  cut(): void {
    this.cutOff = true;
    for (const s of this.sockets) s.destroy();
  }

  restore(): void {
    this.cutOff = false;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

// ---------------------------------------------------------------- the tests

describe("Leadership: one replica does the background work", function () {
  describe("one replica alone", () => {
    let server: RunningServer;
    before(async () => {
      server = await startTestServer();
    });
    after(async () => {
      await server?.close();
    });

    it("leads (on PGlite always: one process owns the data directory), and says so in /api/health", async () => {
      const { status, body } = await call(server, "GET", "/api/health");
      expect(status).to.equal(200);
      expect(body.leader).to.equal(true);
      expect(body.leadership.mode).to.equal(testPostgres() ? "advisory-lock" : "sole");
      expect(body.indexer.running).to.equal(true);
      expect(body.batchWatcher.running).to.equal(true);
    });

    it("answers /api/live and /api/ready for a load balancer, and /api/ready is 503 while the server drains", async () => {
      expect(await call(server, "GET", "/api/live")).to.deep.include({ status: 200, body: { status: "live" } });
      expect(await call(server, "GET", "/api/ready")).to.deep.include({ status: 200, body: { status: "ready", leader: true } });
      server.services.serving.draining = true;
      try {
        const ready = await call(server, "GET", "/api/ready");
        expect(ready.status).to.equal(503);
        expect(ready.body).to.deep.equal({
          status: "draining",
          error: "This server is stopping: it finishes the requests under way and takes no new ones.",
        });
        expect(ready.headers.get("connection")).to.equal("close");
      } finally {
        server.services.serving.draining = false;
      }
    });
  });

  it("close() drains: a request under way is answered, a new connection is refused, then it closes", async () => {
    const server = await startTestServer();
    const { port } = new URL(server.url);
    // A request whose body is still on its way: under way as far as the server knows.
    const socket = net.connect(Number(port), "127.0.0.1");
    let answer = "";
    socket.on("data", (d) => (answer += d));
    const ended = new Promise<void>((resolve) => socket.on("close", () => resolve()));
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    socket.write("POST /api/nothing-here HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n");
    await sleep(200);
    let closed = false;
    const closing = server.close().then(() => (closed = true));
    await sleep(300);
    expect(closed, "close() waits for the request under way").to.equal(false);
    const refused = await fetch(`${server.url}/api/live`).then(
      () => "answered",
      () => "refused",
    );
    expect(refused).to.equal("refused");
    socket.write("{}");
    await ended;
    expect(answer).to.match(/^HTTP\/1\.1 404 /);
    await closing;
  });

  describe("on PostgreSQL: replicas on one database", function () {
    // Each test starts two or three server processes (up to 60 s each to be ready on a busy machine:
    // serverProcess.ts); 30 s failed in CI while the other lane ran.
    this.timeout(150_000);
    const dirs: string[] = [];
    const newDir = () => {
      const dir = mkdtempSync(path.join(tmpdir(), "usdx-leader-"));
      dirs.push(dir);
      return dir;
    };
    before(function () {
      if (!testPostgres()) this.skip(); // PGlite: one process per data directory, no second replica
    });
    afterEach(() => killServerProcesses());
    after(() => {
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    });

    it("elect exactly one leader; when it is SIGKILLed another leads within 10 s and indexes on from the checkpoint; a SIGTERMed leader hands over at once", async () => {
      const dir = newDir();
      const db = await openDatabase(testConfig({ PGLITE_DIR: dir }).database);
      try {
        const [a, b] = await Promise.all([startServerProcess(dir), startServerProcess(dir)]);
        const leaders = await Promise.all([a, b].map((r) => json(`${r.url}/api/health`)));
        expect(leaders.map((h) => h.body.leadership.mode)).to.deep.equal(["advisory-lock", "advisory-lock"]);
        expect(leaders.map((h) => h.body.leader).sort()).to.deep.equal([false, true]);
        const [leader, follower] = leaders[0].body.leader ? [a, b] : [b, a];
        // The follower runs no loop, yet its index figures follow the leader's writes.
        const followerHealth = (await json(`${follower.url}/api/health`)).body;
        expect(followerHealth.indexer.running).to.equal(false);
        expect(followerHealth.batchWatcher.running).to.equal(false);
        expect(followerHealth.mockBank.running).to.equal(false);
        await transfers(2);
        await untilIndexEqualsChain(db.db);
        const head = await provider().getBlockNumber();
        await until(
          "the follower to see the new checkpoint",
          () => json(`${follower.url}/api/health`),
          (h) => h.body.indexer.checkpoint === head,
        );

        // SIGKILL: nothing closed, the lock freed only by the session's end; more events meanwhile.
        await leader.kill("SIGKILL");
        await transfers(2);
        const tookMs = await untilLeader(follower.url);
        console.log(`      (takeover after SIGKILL: ${tookMs} ms)`);
        await untilIndexEqualsChain(db.db);
        expect((await json(`${follower.url}/api/health`)).body.indexer.running).to.equal(true);

        // SIGTERM: the leader drains, releases the lock and exits 0; the waiting replica leads at its next ask.
        const c = await startServerProcess(dir);
        expect(await isLeader(c.url)).to.equal(false);
        const stopped = Date.now();
        expect(await follower.kill("SIGTERM"), follower.output()).to.equal(0);
        await untilLeader(c.url);
        console.log(`      (takeover after SIGTERM: ${Date.now() - stopped} ms from the signal)`);
        await transfers(1);
        await untilIndexEqualsChain(db.db);
      } finally {
        await db.close();
      }
    });

    it("a leader cut off from the database stops its loops and another takes over; /api/ready is 503 until the database answers again", async () => {
      const dir = newDir();
      const postgres = testPostgres()!;
      const direct = postgres.databaseUrl(dir);
      const link = await DatabaseLink.open(postgres.server.port);
      const viaLink = direct.replace(`:${postgres.server.port}/`, `:${link.port}/`);
      const servers: RunningServer[] = [];
      const db = await openDatabase({ kind: "postgres", url: direct });
      try {
        const cutOff = await startServer(testConfig({ DATABASE_URL: viaLink }), createLogger("silent"));
        servers.push(cutOff);
        const other = await startServer(testConfig({ DATABASE_URL: direct }), createLogger("silent"));
        servers.push(other);
        expect(cutOff.services.leadership.status().leader).to.equal(true);
        expect(other.services.leadership.status().leader).to.equal(false);
        expect((await call(cutOff, "GET", "/api/ready")).status).to.equal(200);

        link.cut();
        const ready = await until(
          "/api/ready to be 503",
          () => call(cutOff, "GET", "/api/ready"),
          (r) => r.status === 503,
          5000,
        );
        expect(ready.body).to.deep.equal({ status: "unready", error: DATABASE_UNAVAILABLE });
        // It stops its loops at once (it cannot know whether the lock is still its own).
        await until(
          "the cut-off leader to stop",
          async () => cutOff.services.leadership.status(),
          (s) => !s.leader,
          TAKEOVER_MS,
        );
        expect(cutOff.services.indexer.status().running).to.equal(false);
        expect(cutOff.services.batchWatcher.status().running).to.equal(false);
        expect(cutOff.services.bank.status().running).to.equal(false);
        await until(
          "the other replica to lead",
          async () => other.services.leadership.status().leader,
          (l) => l,
          TAKEOVER_MS,
        );
        await transfers(1);
        await untilIndexEqualsChain(db.db);

        link.restore();
        await until(
          "/api/ready to be 200 again",
          () => call(cutOff, "GET", "/api/ready"),
          (r) => r.status === 200,
          TAKEOVER_MS,
        );
        // Back, it follows: the lock is the other's now.
        expect((await call(cutOff, "GET", "/api/health")).body.leader).to.equal(false);
        await sleep(100);
      } finally {
        await Promise.all(servers.map((s) => s.close()));
        await db.close();
        await link.close();
      }
    });
  });
});
