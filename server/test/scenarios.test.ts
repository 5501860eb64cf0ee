/**
 * The Scenarios panel's API (issue 31, part 4): /api/scenarios and /api/snapshots. The local chain
 * only (a server configured for Sepolia refuses every endpoint with a sentence and builds no
 * engine); signed-in users; one run at a time, answered 202 and followed by polling; an engine's
 * error ends its run as a sentence, never as a 5xx or a stack.
 *
 * The scenario engine and the snapshots are built beside this panel and are not wired into this
 * server yet (compose.ts), so the server answers 503 without one; the runs' rules are shown on the
 * same app with a stand-in engine whose steps the tests let go one at a time.
 */
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "chai";
import type { JobSummary, ScenarioRun } from "@common/apiTypes";
import { createApp } from "../src/app";
import { loadConfig } from "../src/config";
import { startServer, type RunningServer } from "../src/index";
import { createLogger } from "../src/lib/logger";
import type { ApplyResult, ScenarioEngine, ScenarioProgress, ScenarioSummary, SnapshotSummary } from "../src/services/scenarios";
import { NO_ENGINE, ScenarioRuns } from "../src/services/scenarios/runs";
import { deployToStandIn, startStandIn, type RunningNode } from "../../scripts/lib/standIn";
import { type ApiBase, call, emailUser, passwordSignIn, revert, snapshot, stack, startTestServer, until } from "./helpers";
import { FIREBASE_PROJECT } from "./stack";

/** Every endpoint of the panel, as a request a person's dashboard would send (good names, a good body). */
const ENDPOINTS = [
  ["GET", "/api/scenarios", undefined],
  ["GET", "/api/scenarios/run", undefined],
  ["POST", "/api/scenarios/paused/apply", undefined],
  ["POST", "/api/snapshots", { name: "before-payments" }],
  ["POST", "/api/snapshots/before-payments/restore", undefined],
] as const;

const SIGN_IN = "Sign in first: this needs an 'Authorization: Bearer <Firebase ID token>' header.";
const RUNS_PER_MINUTE = 6;

/**
 * A stand-in for the scenario engine and the snapshots (their real parts are not on this branch):
 * it lists what it is given, and an apply reports its first step and then waits until the test
 * releases it, so a test can look at a run under way.
 */
class StandInEngine implements ScenarioEngine {
  scenarios: ScenarioSummary[] = [
    { name: "paused", file: "scenarios/paused.yaml", description: "The token is paused: every transfer, mint and burn is refused." },
    { name: "empty", file: "scenarios/empty.yaml", description: "No holders but the admin." },
  ];
  taken: SnapshotSummary[] = [{ name: "before-payments", blockNumber: 42, takenAt: "2026-11-25T09:30:00.000Z" }];
  steps = ["grant PAUSE_ROLE to pauser", "mint 10,000 USDX to alice", "pause USDX"];
  /** Thrown where the apply would take its second step. */
  failure: Error | null = null;
  applied: string[] = [];
  restored: string[] = [];
  private held!: Promise<void>;
  release!: () => void;

  constructor() {
    this.hold();
  }

  hold(): void {
    this.held = new Promise((resolve) => (this.release = resolve));
  }

  async list() {
    return this.scenarios;
  }

  async apply(name: string, onProgress: (p: ScenarioProgress) => void): Promise<ApplyResult> {
    this.applied.push(name);
    for (const [i, label] of this.steps.entries()) {
      if (i === 1) {
        await this.held;
        if (this.failure) throw this.failure;
      }
      onProgress({ done: i, total: this.steps.length, label });
      onProgress({ done: i + 1, total: this.steps.length, label });
    }
    return {
      sent: this.steps.length,
      steps: this.steps.map((label) => ({ label })),
      report: ["alice 0x14dC79964da2C08b23698B3D3cc7Ca32193d9955"],
    };
  }

  async snapshots() {
    return this.taken;
  }

  async takeSnapshot(name: string) {
    if (this.taken.some((s) => s.name === name))
      throw new Error(`A snapshot named '${name}' exists already: restore it, or pick another name.`);
    const snapshot = { name, blockNumber: 50, takenAt: "2026-11-25T10:00:00.000Z" };
    this.taken.push(snapshot);
    return snapshot;
  }

  async restore(name: string, onProgress: (p: ScenarioProgress) => void) {
    await this.held;
    this.restored.push(name);
    onProgress({ done: 1, total: 1, label: `revert the node to '${name}'` });
  }
}

/** The test server's app and services, with `engine` as its scenario engine, on a port of its own. */
async function serveWith(server: RunningServer, engine: ScenarioEngine): Promise<ApiBase & { close(): Promise<void> }> {
  const log = createLogger("silent");
  const app = createApp({ ...server.services, scenarios: new ScenarioRuns(engine, null, log) }, log);
  const listening: Server = app.listen(0, "127.0.0.1");
  await once(listening, "listening");
  return {
    url: `http://127.0.0.1:${(listening.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => listening.close(() => resolve())),
  };
}

describe("The Scenarios panel's API (issue 31, part 4)", function () {
  this.timeout(60_000);
  let server: RunningServer;
  before(async () => {
    server = await startTestServer({ USER_SCENARIO_RUNS_PER_MINUTE: String(RUNS_PER_MINUTE) });
  });
  after(async () => {
    await server?.close();
  });

  describe("on the local chain, the server's own engine", () => {
    it("answers every endpoint signed out with 401 'Sign in first'", async () => {
      for (const [method, route, body] of ENDPOINTS) {
        const answer = await call(server, method, route, { body });
        expect([answer.status, answer.body.error], `${method} ${route}`).to.deep.equal([401, SIGN_IN]);
      }
    });

    it("signed in, lists the shipped scenarios from the engine compose.ts wires on the local chain", async () => {
      const { idToken } = await emailUser();
      const answer = await call(server, "GET", "/api/scenarios", { token: idToken });
      expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
      expect(answer.body.scenarios.map((s: { name: string }) => s.name)).to.include.members(["default", "paused"]);
    });

    it("applies blocked-payer, its Firebase test user made through the server's own API: the job half paid, its user able to sign in", async () => {
      const chainSnapshot = await snapshot();
      try {
        const { idToken } = await emailUser();
        const started = await call(server, "POST", "/api/scenarios/blocked-payer/apply", { token: idToken });
        expect(started.status, JSON.stringify(started.body)).to.equal(202);
        const read = async () =>
          (await call<{ run: ScenarioRun | null }>(server, "GET", "/api/scenarios/run", { token: idToken })).body.run;
        const ended = (await until("the run to end", read, (r) => r?.state !== "running", 90_000))!;
        expect([ended.state, ended.error]).to.deep.equal(["done", null]);
        expect(ended.lines).to.include("create the Firebase test user payer@example.com");
        expect(
          ended.lines.some((l) => /^pay chunk 1 of \d+ of 'Scenario batch' from dave$/.test(l)),
          ended.lines.join("\n"),
        ).to.equal(true);
        expect(ended.lines).to.include(
          "Firebase test user: payer@example.com, password blocked-payer-test (sign in to the dashboard with them).",
        );

        const payer = await passwordSignIn("payer@example.com", "blocked-payer-test");
        const jobs = (await call<{ jobs: JobSummary[] }>(server, "GET", "/api/batch", { token: payer })).body.jobs;
        expect(jobs).to.have.length(1);
        expect(jobs[0].recipients).to.equal(1000);
        expect(jobs[0].recipientsPaid).to.be.within(1, 999);
      } finally {
        await revert(chainSnapshot);
      }
    });
  });

  describe("on the local chain, with an engine", () => {
    let engine: StandInEngine;
    let app: ApiBase & { close(): Promise<void> };
    let token: string;
    beforeEach(async () => {
      engine = new StandInEngine();
      app = await serveWith(server, engine);
      // A user of its own each test: the runs' rate limit counts per user.
      token = (await emailUser()).idToken;
    });
    afterEach(async () => {
      engine.release();
      await app.close();
    });

    const run = async () => (await call<{ run: ScenarioRun | null }>(app, "GET", "/api/scenarios/run", { token })).body.run;
    const runEnded = () => until("the run to end", run, (r) => r?.state !== "running");

    it("lists the shipped scenarios and the snapshots, with no run yet", async () => {
      const answer = await call(app, "GET", "/api/scenarios", { token });
      expect(answer.status).to.equal(200);
      expect(answer.headers.get("cache-control")).to.equal("no-store");
      expect(answer.body).to.deep.equal({ success: true, scenarios: engine.scenarios, snapshots: engine.taken, run: null });
    });

    it("applies a scenario: 202 at once, then the progress (step, label, lines), then done with what it sent and reported", async () => {
      const started = await call(app, "POST", "/api/scenarios/paused/apply", { token });
      expect(started.status).to.equal(202);
      expect(started.body.run).to.include({ kind: "apply", name: "paused", state: "running", error: null, finishedAt: null });

      const underWay = await until("the first step", run, (r) => r?.done === 1);
      expect(underWay).to.include({ state: "running", done: 1, total: 3, label: "grant PAUSE_ROLE to pauser" });
      // Reported as under way and again as finished: one line.
      expect(underWay!.lines).to.deep.equal(["grant PAUSE_ROLE to pauser"]);

      engine.release();
      const ended = await runEnded();
      expect(ended).to.include({ state: "done", done: 3, total: 3, label: "pause USDX", sent: 3, error: null });
      expect(ended!.lines).to.deep.equal([...engine.steps, "alice 0x14dC79964da2C08b23698B3D3cc7Ca32193d9955"]);
      expect(Date.parse(ended!.finishedAt!)).to.be.at.least(Date.parse(ended!.startedAt));
      expect(engine.applied).to.deep.equal(["paused"]);
      // The overview answers the last run too.
      expect((await call(app, "GET", "/api/scenarios", { token })).body.run).to.deep.equal(ended);
    });

    it("runs one at a time: while one runs, an apply, a restore and a snapshot are refused with 409 and a sentence", async () => {
      expect((await call(app, "POST", "/api/scenarios/paused/apply", { token })).status).to.equal(202);
      await until("the first step", run, (r) => r?.done === 1);
      const busy = "A run is under way: applying the scenario 'paused' (step 1 of 3). Wait until it ends, then try again.";
      for (const [method, route, body] of ENDPOINTS.filter(([method]) => method === "POST")) {
        const refused = await call(app, method, route, { body, token });
        expect([refused.status, refused.body.error], route).to.deep.equal([409, busy]);
      }
      expect(engine.applied).to.deep.equal(["paused"]);
      expect(engine.restored).to.deep.equal([]);
      expect(engine.taken.map((s) => s.name)).to.deep.equal(["before-payments"]);

      engine.release();
      expect((await runEnded())?.state).to.equal("done");
      expect((await call(app, "POST", "/api/scenarios/empty/apply", { token })).status, "the next run, once it ended").to.equal(202);
    });

    it("starts one of two applies sent at once, and refuses the other with 409", async () => {
      const both = await Promise.all(["paused", "empty"].map((name) => call(app, "POST", `/api/scenarios/${name}/apply`, { token })));
      expect(both.map((a) => a.status).sort()).to.deep.equal([202, 409]);
      expect(engine.applied).to.have.lengthOf(1);
    });

    it("ends a run the engine fails as 'failed' with its sentence (no stack), and the next run may start", async () => {
      engine.failure = new Error("The node at RPC_URL is not answering.\n    at apply (server/src/services/scenarios/apply.ts:40:11)");
      expect((await call(app, "POST", "/api/scenarios/paused/apply", { token })).status).to.equal(202);
      engine.release();
      const failed = await runEnded();
      expect(failed).to.include({ state: "failed", error: "The node at RPC_URL is not answering.", done: 1, sent: null });
      expect(JSON.stringify(failed)).not.to.include("apply.ts");

      engine.failure = null;
      engine.hold();
      expect((await call(app, "POST", "/api/scenarios/paused/apply", { token })).status).to.equal(202);
      engine.release();
      expect((await runEnded())?.state).to.equal("done");
    });

    it("restores a snapshot: 202, then done, saying which block the chain is back at", async () => {
      const started = await call(app, "POST", "/api/snapshots/before-payments/restore", { token });
      expect(started.status).to.equal(202);
      expect(started.body.run).to.include({ kind: "restore", name: "before-payments", state: "running" });
      engine.release();
      const ended = await runEnded();
      expect(ended).to.include({ kind: "restore", state: "done", done: 1, total: 1, sent: null });
      expect(ended!.lines).to.deep.equal([
        "revert the node to 'before-payments'",
        "The chain is back at block 42, as it was at 2026-11-25T09:30:00.000Z.",
      ]);
      expect(engine.restored).to.deep.equal(["before-payments"]);
    });

    it("takes a snapshot (201); the engine's refusal of a name is a 409 with its sentence", async () => {
      const taken = await call(app, "POST", "/api/snapshots", { token, body: { name: "after-mint" } });
      expect([taken.status, taken.body]).to.deep.equal([
        201,
        { success: true, snapshot: { name: "after-mint", blockNumber: 50, takenAt: "2026-11-25T10:00:00.000Z" } },
      ]);
      const again = await call(app, "POST", "/api/snapshots", { token, body: { name: "after-mint" } });
      expect([again.status, again.body.error]).to.deep.equal([
        409,
        "The snapshot was not taken: A snapshot named 'after-mint' exists already: restore it, or pick another name.",
      ]);
    });

    it("answers 404 with a sentence for a scenario that is not shipped and a snapshot that does not exist, and starts nothing", async () => {
      const scenario = await call(app, "POST", "/api/scenarios/paused-forever/apply", { token });
      expect([scenario.status, scenario.body.error]).to.deep.equal([
        404,
        "There is no shipped scenario named 'paused-forever'. The shipped scenarios: paused, empty.",
      ]);
      const snapshot = await call(app, "POST", "/api/snapshots/yesterday/restore", { token });
      expect([snapshot.status, snapshot.body.error]).to.deep.equal([
        404,
        "There is no snapshot named 'yesterday'. The snapshots: before-payments.",
      ]);
      engine.taken = [];
      expect((await call(app, "POST", "/api/snapshots/yesterday/restore", { token })).body.error).to.equal(
        "There is no snapshot named 'yesterday'. Take one first.",
      );
      expect(await run()).to.equal(null);
      expect([engine.applied, engine.restored]).to.deep.equal([[], []]);
    });

    it("refuses a bad name with 400 and a sentence, before the engine hears of it and before the rate limit counts it", async () => {
      const rule = "must be 1 to 64 letters, digits, '-' or '_', starting with a letter or digit";
      for (const bad of ["-paused", "paused.yaml", "a b", "x".repeat(65), "..x"]) {
        const apply = await call(app, "POST", `/api/scenarios/${encodeURIComponent(bad)}/apply`, { token });
        expect([apply.status, apply.body.error], bad).to.deep.equal([400, `Invalid request path: name: ${rule}`]);
        const restore = await call(app, "POST", `/api/snapshots/${encodeURIComponent(bad)}/restore`, { token });
        expect([restore.status, restore.body.error], bad).to.deep.equal([400, `Invalid request path: name: ${rule}`]);
      }
      for (const body of [{ name: "../../etc" }, { name: "" }, { name: 7 }, {}]) {
        const take = await call(app, "POST", "/api/snapshots", { token, body });
        expect(take.status, JSON.stringify(body)).to.equal(400);
        expect(take.body.error, JSON.stringify(body)).to.match(/^Invalid request body: name: /);
      }
      expect(await call(app, "POST", "/api/snapshots", { token, body: { name: 7 } }).then((a) => a.body.error)).to.equal(
        "Invalid request body: name: the snapshot name must be text",
      );
      expect([engine.applied, engine.restored, engine.taken.length]).to.deep.equal([[], [], 1]);
      // Sixteen refusals, and the user's budget is whole.
      expect((await call(app, "POST", "/api/snapshots", { token, body: { name: "after-typos" } })).status).to.equal(201);
    });

    it(`limits a user to ${RUNS_PER_MINUTE} applies, restores and snapshots a minute, together (429 with a sentence)`, async () => {
      for (let i = 0; i < RUNS_PER_MINUTE; i++) {
        expect((await call(app, "POST", "/api/snapshots", { token, body: { name: `s${i}` } })).status).to.equal(201);
      }
      const limited = await call(app, "POST", "/api/scenarios/paused/apply", { token });
      expect([limited.status, limited.body.error]).to.deep.equal([
        429,
        "Too many scenario runs and snapshots: wait a minute and try again.",
      ]);
      expect(engine.applied).to.deep.equal([]);
      // Another user has a budget of their own; polling is not counted.
      expect((await call(app, "GET", "/api/scenarios/run", { token })).status).to.equal(200);
      const other = (await emailUser()).idToken;
      expect((await call(app, "POST", "/api/scenarios/paused/apply", { token: other })).status).to.equal(202);
    });
  });
});

describe("The Scenarios panel's API on a server configured for Sepolia (NETWORK=sepolia)", function () {
  this.timeout(180_000);
  let node: RunningNode;
  let work: string;
  let server: RunningServer;
  before(async () => {
    // A stand-in Sepolia (chain 11155111) with USDX deployed by npm run deploy:sepolia, as the rehearsal runs it.
    work = mkdtempSync(path.join(tmpdir(), "usdx-scenarios-sepolia-"));
    node = await startStandIn();
    const deploymentsDir = path.join(work, "deployments");
    await deployToStandIn(node.url, deploymentsDir);
    const config = loadConfig(
      {
        NETWORK: "sepolia",
        RPC_URL: node.url,
        DEPLOYMENTS_DIR: deploymentsDir,
        PGLITE_DIR: "memory://",
        FIREBASE_AUTH_EMULATOR_HOST: stack().emulatorHost,
        FIREBASE_PROJECT_ID: FIREBASE_PROJECT,
        SERVER_PORT: "0",
        DASHBOARD_ORIGIN: "http://127.0.0.1:5173",
        DASHBOARD_DIST: "off",
        LOG_LEVEL: "silent",
      },
      // The stand-in and the suite's emulator are this machine's own: the emulator is allowed off the local chain here only.
      { standInChain: true },
    );
    server = await startServer(config, createLogger(config.logLevel));
  });
  after(async () => {
    await server?.close();
    await node?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const OFF = "Scenarios are for the local chain only: this server runs on Sepolia.";

  it("refuses every endpoint with 404 and the sentence, signed out and signed in, whatever the input", async () => {
    expect(server.services.config.network).to.equal("sepolia");
    const { idToken } = await emailUser();
    for (const token of [undefined, idToken]) {
      for (const [method, route, body] of [...ENDPOINTS, ["POST", "/api/snapshots/a%20b/restore", { name: 7 }] as const]) {
        const answer = await call(server, method, route, { body, token });
        expect([answer.status, answer.body.error], `${method} ${route} ${token ? "signed in" : "signed out"}`).to.deep.equal([404, OFF]);
      }
    }
  });

  it("builds no scenario engine there (compose.ts)", () => {
    expect(server.services.scenarios.offReason).to.equal(OFF);
    expect(() => server.services.scenarios.current()).to.throw(NO_ENGINE);
  });
});
