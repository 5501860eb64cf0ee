/**
 * GET /api/metrics (issue 16): the Prometheus text format, every metric's name and type, and that
 * each moves when what it counts happens (requests, events, jobs, deposits, RPC calls, refusals);
 * labels carry route patterns, never ids; each server has its own registry; and who may read it.
 */
import { randomBytes } from "node:crypto";
import { expect } from "chai";
import { parseUnits } from "ethers";
import { USDX__factory } from "@bindings";
import type { RunningServer } from "../src/index";
import { isLoopbackAddress, sameSecret } from "../src/middleware/metricsAccess";
import { call, emailUser, randomAddress, revert, seeded, snapshot, startTestServer, until } from "./helpers";

// ---------------------------------------------------------------- reading the text format

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

interface Scrape {
  text: string;
  types: Map<string, string>;
  samples: Sample[];
}

/** The text format, minimally: `# TYPE name type` lines and `name{label="value",...} value` lines. */
function parseMetrics(text: string): Scrape {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) types.set(type[1], type[2]);
    if (line === "" || line.startsWith("#")) continue;
    const sample = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!sample) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (sample[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[key] = value;
    samples.push({ name: sample[1], labels, value: Number(sample[3]) });
  }
  return { text, types, samples };
}

/** The sum of the samples called `name` whose labels include `labels` (0 when there is none). */
function value(scrape: Scrape, name: string, labels: Record<string, string> = {}): number {
  return scrape.samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

const has = (scrape: Scrape, name: string) => scrape.samples.some((s) => s.name === name);

async function scrape(server: RunningServer, headers: Record<string, string> = {}): Promise<Scrape> {
  const answer = await call<string>(server, "GET", "/api/metrics", { headers });
  expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
  return parseMetrics(answer.body);
}

/** Every metric of services/operations/metrics.ts with its type, and two of the process's own. */
const METRICS: [string, string][] = [
  ["usdx_http_requests_total", "counter"],
  ["usdx_http_request_duration_seconds", "histogram"],
  ["usdx_rpc_requests_total", "counter"],
  ["usdx_rpc_errors_total", "counter"],
  ["usdx_indexer_checkpoint_block", "gauge"],
  ["usdx_indexer_head_block", "gauge"],
  ["usdx_indexer_lag_blocks", "gauge"],
  ["usdx_indexer_events_total", "counter"],
  ["usdx_explorer_requests_total", "counter"],
  ["usdx_batch_jobs", "gauge"],
  ["usdx_batch_chunks", "gauge"],
  ["usdx_bank_deposits", "gauge"],
  ["usdx_rate_limit_refusals_total", "counter"],
  ["usdx_leader", "gauge"],
  ["usdx_rpc_budget_allowed_requests_per_second", "gauge"],
  ["usdx_rpc_budget_configured_requests_per_second", "gauge"],
  ["usdx_rpc_budget_lowered_until_seconds", "gauge"],
  ["usdx_rpc_budget_spent_requests_per_second", "gauge"],
  ["usdx_rpc_budget_spent_requests_total", "counter"],
  ["usdx_rpc_budget_waits_total", "counter"],
  ["usdx_rpc_budget_wait_seconds_total", "counter"],
  ["usdx_rpc_budget_refusals_total", "counter"],
  ["usdx_rpc_budget_lowerings_total", "counter"],
  ["process_cpu_seconds_total", "counter"],
  ["nodejs_heap_size_used_bytes", "gauge"],
];

const AUTH_PER_MINUTE = 3;

describe("GET /api/metrics", () => {
  let server: RunningServer;
  let chainSnapshot: string;

  before(async () => {
    chainSnapshot = await snapshot();
    server = await startTestServer({
      RATE_LIMIT_AUTH_PER_MINUTE: String(AUTH_PER_MINUTE),
      BATCH_CHUNK_SIZE: "5",
      // Accounts verify at once; a deposit then waits an hour as pending, so it stays in the queue.
      BANK_VERIFY_MS: "0",
      BANK_PROCESSING_MS: "3600000",
    });
  });
  after(async () => {
    await server?.close();
    await revert(chainSnapshot);
  });

  it("answers the Prometheus text format with every metric's name and type", async () => {
    const answer = await call<string>(server, "GET", "/api/metrics");
    expect(answer.status).to.equal(200);
    expect(answer.headers.get("content-type"))
      .to.match(/^text\/plain/)
      .and.to.include("version=0.0.4");
    expect(answer.headers.get("cache-control")).to.equal("no-store");
    const metrics = parseMetrics(answer.body);
    for (const [name, type] of METRICS) expect(metrics.types.get(name), name).to.equal(type);
    // The indexer has run (startTestServer syncs once) and this replica leads.
    expect(value(metrics, "usdx_indexer_checkpoint_block")).to.equal(server.services.indexer.status().checkpoint);
    expect(value(metrics, "usdx_indexer_lag_blocks")).to.equal(0);
    expect(value(metrics, "usdx_leader")).to.equal(1);
    expect(value(metrics, "process_cpu_seconds_total")).to.be.greaterThan(0);
  });

  it("counts requests by method, route pattern and status, and times them", async () => {
    const labels = { method: "GET", route: "/api/events", status: "200" };
    const before = await scrape(server);
    for (let i = 0; i < 3; i++) expect((await call(server, "GET", "/api/events?limit=5")).status).to.equal(200);
    const after = await scrape(server);
    expect(value(after, "usdx_http_requests_total", labels) - value(before, "usdx_http_requests_total", labels)).to.equal(3);
    expect(
      value(after, "usdx_http_request_duration_seconds_count", labels) - value(before, "usdx_http_request_duration_seconds_count", labels),
    ).to.equal(3);
    expect(
      value(after, "usdx_http_request_duration_seconds_bucket", { ...labels, le: "+Inf" }) -
        value(before, "usdx_http_request_duration_seconds_bucket", { ...labels, le: "+Inf" }),
    ).to.equal(3);
    expect(value(after, "usdx_http_request_duration_seconds_sum", labels)).to.be.greaterThan(
      value(before, "usdx_http_request_duration_seconds_sum", labels),
    );
  });

  it("labels a request by its route's pattern, never its id, and an unknown path 'unmatched'", async () => {
    const { idToken } = await emailUser();
    const id = "5b2f8c1e-8d4a-4c59-9a7e-0c1d2e3f4a5b";
    const pattern = (status: string, method = "GET") => ({ method, route: "/api/batch/:id", status });
    const before = await scrape(server);
    // Refused by sign-in (an error passed on, answered by the error middleware), and a missing job.
    expect((await call(server, "GET", `/api/batch/${id}`)).status).to.equal(401);
    expect((await call(server, "GET", `/api/batch/${id}`, { token: idToken })).status).to.equal(404);
    expect((await call(server, "GET", "/api/batch", { token: idToken })).status).to.equal(200);
    expect((await call(server, "GET", `/api/no-such-thing/${id}`)).status).to.equal(404);
    expect((await call(server, "GET", `/no-such-page/${id}`)).status).to.equal(404);
    const after = await scrape(server);
    const delta = (labels: Record<string, string>) =>
      value(after, "usdx_http_requests_total", labels) - value(before, "usdx_http_requests_total", labels);
    expect(delta(pattern("401"))).to.equal(1);
    expect(delta(pattern("404"))).to.equal(1);
    expect(delta({ method: "GET", route: "/api/batch", status: "200" })).to.equal(1);
    expect(delta({ method: "GET", route: "unmatched", status: "404" })).to.equal(2);
    expect(after.text).not.to.include(id);
    expect(after.text).not.to.include("no-such");
  });

  it("each server has its own registry: a second server starts, and neither counts the other's requests", async () => {
    const other = await startTestServer();
    try {
      const labels = { method: "GET", route: "/api/config", status: "200" };
      const [mineBefore, theirsBefore] = [await scrape(server), await scrape(other)];
      for (let i = 0; i < 2; i++) await call(other, "GET", "/api/config");
      const [mineAfter, theirsAfter] = [await scrape(server), await scrape(other)];
      expect(value(theirsAfter, "usdx_http_requests_total", labels) - value(theirsBefore, "usdx_http_requests_total", labels)).to.equal(2);
      expect(value(mineAfter, "usdx_http_requests_total", labels) - value(mineBefore, "usdx_http_requests_total", labels)).to.equal(0);
    } finally {
      await other.close();
    }
  });

  it("an indexed transfer raises the events counter and the checkpoint, and the indexer's steps count RPC calls", async () => {
    await server.services.indexer.syncOnce();
    const before = await scrape(server);
    const usdx = USDX__factory.connect(server.services.chain.manifest.proxy, seeded("alice"));
    const receipt = await (await usdx.transfer(randomAddress(), parseUnits("1", 18))).wait();
    await server.services.indexer.syncOnce();
    const after = await scrape(server);
    expect(value(after, "usdx_indexer_events_total") - value(before, "usdx_indexer_events_total"), "one Transfer").to.equal(1);
    expect(value(after, "usdx_indexer_checkpoint_block"))
      .to.be.at.least(receipt!.blockNumber)
      .and.greaterThan(value(before, "usdx_indexer_checkpoint_block"));
    expect(value(after, "usdx_indexer_head_block")).to.be.at.least(value(after, "usdx_indexer_checkpoint_block"));
    for (const method of ["eth_getBlockByNumber", "eth_getLogs"]) {
      expect(value(after, "usdx_rpc_requests_total", { method }), method).to.be.greaterThan(
        value(before, "usdx_rpc_requests_total", { method }),
      );
    }
  });

  it("counts an RPC call the node refused as an error of its method", async () => {
    const method = "eth_noSuchMethod";
    const before = await scrape(server);
    await server.services.chain.rawRpc(method, []).then(
      () => expect.fail("the node answered a method it does not have"),
      () => undefined,
    );
    const after = await scrape(server);
    expect(value(after, "usdx_rpc_requests_total", { method }) - value(before, "usdx_rpc_requests_total", { method })).to.equal(1);
    expect(value(after, "usdx_rpc_errors_total", { method }) - value(before, "usdx_rpc_errors_total", { method })).to.equal(1);
    expect(value(after, "usdx_rpc_errors_total", { method: "eth_getLogs" }), "answered calls are no errors").to.equal(
      value(before, "usdx_rpc_errors_total", { method: "eth_getLogs" }),
    );
  });

  it("a new batch job shows as processing and its chunks as pending", async () => {
    const { idToken } = await emailUser();
    const before = await scrape(server);
    const recipients = Array.from({ length: 7 }, (_, i) => ({ name: `Payee ${i}`, address: randomAddress(), amount: "1" }));
    const started = await call(server, "POST", "/api/batch/execute", { token: idToken, body: { recipients } });
    expect(started.status, JSON.stringify(started.body)).to.equal(201);
    const after = await scrape(server);
    expect(value(after, "usdx_batch_jobs", { status: "processing" }) - value(before, "usdx_batch_jobs", { status: "processing" })).to.equal(
      1,
    );
    expect(
      value(after, "usdx_batch_chunks", { status: "pending" }) - value(before, "usdx_batch_chunks", { status: "pending" }),
      "7 recipients in chunks of 5",
    ).to.equal(2);
  });

  it("a deposit shows in the mock bank's queue", async () => {
    const user = await emailUser();
    const post = (path: string, body: unknown) => call(server, "POST", `/api/bank${path}`, { token: user.idToken, body });
    expect((await post("/wallets", { name: "Main", address: randomAddress() })).status).to.equal(201);
    const account = (await post("/accounts", { name: "Checking", type: "checking", accountNumber: "12345678", routingNumber: "021000021" }))
      .body.account;
    await until(
      "the account verified",
      async () => (await call(server, "GET", "/api/bank/accounts", { token: user.idToken })).body.accounts[0],
      (a) => a.status === "verified",
    );
    const before = await scrape(server);
    const deposit = await post("/deposits", { bankAccountId: account.id, amount: "10" });
    expect(deposit.status, JSON.stringify(deposit.body)).to.equal(201);
    const after = await scrape(server);
    expect(value(after, "usdx_bank_deposits", { status: "pending" }) - value(before, "usdx_bank_deposits", { status: "pending" })).to.equal(
      1,
    );
  });

  it("a request past a rate limit counts as a refusal of that limit", async () => {
    // A client of its own (the test server trusts the loopback proxy), so no other test's budget is spent.
    const headers = { "x-forwarded-for": "198.51.100.23" };
    const before = await scrape(server);
    const statuses: number[] = [];
    for (let i = 0; i <= AUTH_PER_MINUTE; i++) statuses.push((await call(server, "POST", "/api/auth/nonce", { headers })).status);
    expect(statuses).to.deep.equal([...Array(AUTH_PER_MINUTE).fill(200), 429]);
    const after = await scrape(server);
    expect(
      value(after, "usdx_rate_limit_refusals_total", { limit: "auth" }) -
        value(before, "usdx_rate_limit_refusals_total", { limit: "auth" }),
    ).to.equal(1);
  });

  it("answers the rest when the database does not: its gauges are left out, not zero", async () => {
    const db = server.services.db.db as unknown as { select: unknown };
    const select = db.select;
    db.select = () => {
      throw new Error("connection terminated unexpectedly");
    };
    let down: Scrape;
    try {
      down = await scrape(server);
    } finally {
      db.select = select;
    }
    for (const name of ["usdx_batch_jobs", "usdx_batch_chunks", "usdx_bank_deposits"]) {
      expect(down.types.get(name), name).to.equal("gauge");
      expect(has(down, name), `${name} has no samples`).to.equal(false);
    }
    expect(has(down, "usdx_indexer_checkpoint_block")).to.equal(true);
    expect(has(down, "usdx_http_requests_total")).to.equal(true);
    // The control: the same scrape with the database back has them.
    const up = await scrape(server);
    for (const name of ["usdx_batch_jobs", "usdx_batch_chunks", "usdx_bank_deposits"]) expect(has(up, name), name).to.equal(true);
  });

  describe("who may read it", () => {
    it("without METRICS_TOKEN: a client on this machine, directly; a request a proxy forwarded is refused with 403, whatever address it names", async () => {
      expect((await call(server, "GET", "/api/metrics")).status).to.equal(200);
      const forwarded: Record<string, string>[] = [
        { "x-forwarded-for": "203.0.113.9" },
        { forwarded: "for=203.0.113.9" },
        { "x-real-ip": "203.0.113.9" },
        { "x-forwarded-for": "127.0.0.1" },
      ];
      for (const headers of forwarded) {
        const answer = await call(server, "GET", "/api/metrics", { headers });
        expect(answer.status, JSON.stringify(headers)).to.equal(403);
        expect(answer.body.success).to.equal(false);
        expect(answer.body.error).to.match(/only from this machine.*METRICS_TOKEN/);
      }
    });

    it("loopback is judged by the socket's address: 127.0.0.0/8 and ::1, also IPv4-mapped, and nothing else", () => {
      for (const address of ["127.0.0.1", "127.1.2.3", "::1", "::ffff:127.0.0.1"])
        expect(isLoopbackAddress(address), address).to.equal(true);
      for (const address of ["203.0.113.9", "::ffff:203.0.113.9", "10.0.0.1", "128.0.0.1", "::", "::2", "localhost", "", undefined]) {
        expect(isLoopbackAddress(address), String(address)).to.equal(false);
      }
    });

    it("compares the token whole: equal, not a prefix, not another of the same length", () => {
      const secret = "a".repeat(40);
      expect(sameSecret(secret, secret)).to.equal(true);
      expect(sameSecret(`${"a".repeat(39)}b`, secret)).to.equal(false);
      expect(sameSecret("a".repeat(39), secret)).to.equal(false);
      expect(sameSecret("a".repeat(41), secret)).to.equal(false);
      expect(sameSecret("", secret)).to.equal(false);
    });

    describe("with METRICS_TOKEN", () => {
      const token = randomBytes(32).toString("hex");
      let guarded: RunningServer;
      before(async () => {
        guarded = await startTestServer({ METRICS_TOKEN: token });
      });
      after(async () => {
        await guarded?.close();
      });

      for (const [what, authorization] of [
        ["no header", undefined],
        ["a wrong token of the same length", `Bearer ${randomBytes(32).toString("hex")}`],
        ["a wrong token of another length", `Bearer ${token}0`],
        ["the token's first half", `Bearer ${token.slice(0, 32)}`],
        ["the token in another scheme", `Basic ${token}`],
      ] as const) {
        it(`refuses ${what} with 401, from this machine too`, async () => {
          const answer = await call(guarded, "GET", "/api/metrics", { headers: authorization ? { authorization } : {} });
          expect(answer.status).to.equal(401);
          expect(answer.body).to.deep.equal({
            success: false,
            error: "Reading metrics needs 'Authorization: Bearer <METRICS_TOKEN>' with the token this server was started with.",
          });
        });
      }

      it("answers the right token, from anywhere a proxy says", async () => {
        const metrics = await scrape(guarded, { authorization: `Bearer ${token}`, "x-forwarded-for": "203.0.113.9" });
        expect(metrics.types.get("usdx_http_requests_total")).to.equal("counter");
        expect(metrics.text).not.to.include(token);
      });
    });
  });
});
