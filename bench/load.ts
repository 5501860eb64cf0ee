/**
 * Load bench (`npm run bench:load [replicas]`): 200 concurrent keep-alive clients poll what the
 * dashboard polls (a batch job's status, the token figures, the first page of events) for
 * LOAD_SECONDS (30 by default) a run, each request going to the next replica in turn, as behind a
 * round-robin load balancer. Prints requests a second, p50/p95/p99 latency per endpoint and overall,
 * every error (a non-2xx answer or a network failure), and how busy the machine's cores were.
 *
 * With no argument it compares: 1 replica on PGlite (`npm start`'s database), 1 and 3 replicas on
 * one PostgreSQL server. `npm run bench:load -- 3` runs 3 replicas on PostgreSQL alone
 * (LOAD_DATABASE=pglite for PGlite, 1 replica only). Each setup runs twice: clients polling every
 * LOAD_POLL_MS (1,000: three times as often as the Payments screen polls a running batch), and the
 * capacity run, back to back with no pause (LOAD_POLL_MS=0). Setting LOAD_POLL_MS runs that one.
 *
 * Goals: zero errors; p99 under 50 ms with 200 clients polling every second on one replica; more
 * capacity with 3 replicas than with 1 (the ratio is printed, and explained when under 1.5).
 *
 * Servers are the real entry point in processes of their own, as in production, so the clients'
 * work in this process does not sit on a server's event loop. PostgreSQL is a throwaway server in a
 * temporary directory (server/test/postgres.ts), a new database per setup. A transfer is mined every
 * LOAD_TRANSFER_MS (3,000; 0 for none) so the index advances and the caches turn over, as on a live
 * chain. Loopback only; bounded in time.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { JsonRpcProvider, getAddress, hexlify, parseUnits, randomBytes } from "ethers";
import { USDX__factory } from "@bindings";
import { readManifest } from "@common/manifestFile";
import { EVENTS_DEFAULT_LIMIT } from "@common/events";
import { seededAccount } from "@common/seedAccounts";
import { formatTable } from "@common/textTable";
import { emailUser } from "../server/test/helpers";
import { startPostgres, PostgresServer } from "../server/test/postgres";
import { ServerProcess, startServerProcess } from "../server/test/serverProcess";
import { startStack, Stack } from "../server/test/stack";
import { Endpoint, RunResult, figures, runLoad, warmUp } from "./lib/loadRun";

const SECONDS = Number(process.env.LOAD_SECONDS || 30);
const CLIENTS = Number(process.env.LOAD_CLIENTS || 200);
const TRANSFER_MS = Number(process.env.LOAD_TRANSFER_MS ?? 3000);
const MODES = process.env.LOAD_POLL_MS !== undefined && process.env.LOAD_POLL_MS !== "" ? [Number(process.env.LOAD_POLL_MS)] : [1000, 0];
// Each client polls the job of one of these users (their own, as the dashboard does).
const USERS = 20;
const RECIPIENTS_PER_JOB = 25;
const TARGET_P99_MS = 50;
const TARGET_RATIO = 1.5;

type Database = "pglite" | "postgres";
interface Setup {
  database: Database;
  replicas: number;
}
interface Run {
  setup: Setup;
  pollMs: number;
  result: RunResult;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const randomAddress = () => getAddress(hexlify(randomBytes(20)));
const label = (s: Setup) => `${s.replicas} replica${s.replicas === 1 ? "" : "s"}, ${s.database === "pglite" ? "PGlite" : "PostgreSQL"}`;
const mode = (pollMs: number) => (pollMs > 0 ? `polling every ${pollMs} ms` : "capacity");

function setupsToRun(): Setup[] {
  const arg = process.argv[2];
  if (arg === undefined) {
    return [
      { database: "pglite", replicas: 1 },
      { database: "postgres", replicas: 1 },
      { database: "postgres", replicas: 3 },
    ];
  }
  const replicas = Number(arg);
  if (!Number.isInteger(replicas) || replicas < 1 || replicas > 16)
    throw new Error(`The replica count must be a whole number from 1 to 16, not '${arg}'.`);
  const database = (process.env.LOAD_DATABASE || "postgres") as Database;
  if (database !== "pglite" && database !== "postgres") throw new Error(`LOAD_DATABASE must be pglite or postgres, not '${database}'.`);
  if (database === "pglite" && replicas > 1)
    throw new Error("PGlite runs one replica: one process owns its data directory. Use PostgreSQL (the default) for more.");
  return [{ database, replicas }];
}

/** The replicas of one setup: on PGlite one process on a new data directory; on PostgreSQL `replicas` processes on a new database. */
async function startReplicas(
  setup: Setup,
  postgres: PostgresServer | null,
  n: number,
): Promise<{ replicas: ServerProcess[]; stop(): Promise<void> }> {
  const dir = mkdtempSync(path.join(tmpdir(), "usdx-load-"));
  let databaseUrl = "";
  if (setup.database === "postgres") {
    postgres!.psql(`create database load_${n}`);
    databaseUrl = postgres!.url(`load_${n}`);
  }
  // INDEXER_POLL_MS: the local chain's default (the test starter's is shorter); the rest as npm start sets it.
  const env = { DATABASE_URL: databaseUrl, INDEXER_POLL_MS: "500", RATE_LIMIT_AUTH_PER_MINUTE: "1000" };
  // The first migrates and leads; the others join it.
  const replicas = [await startServerProcess(dir, env)];
  replicas.push(...(await Promise.all(Array.from({ length: setup.replicas - 1 }, () => startServerProcess(dir, env)))));
  return {
    replicas,
    async stop() {
      await Promise.all(replicas.map((r) => r.kill("SIGTERM")));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** USERS users, each with a batch job of RECIPIENTS_PER_JOB recipients, and the endpoints the clients poll. */
async function dashboardEndpoints(url: string): Promise<Endpoint[]> {
  const users: { token: string; statusPath: string }[] = [];
  for (let i = 0; i < USERS; i++) {
    const { idToken } = await emailUser();
    const res = await fetch(`${url}/api/batch/execute`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${idToken}` },
      body: JSON.stringify({
        recipients: Array.from({ length: RECIPIENTS_PER_JOB }, (_, j) => ({
          name: `Payee ${j}`,
          address: randomAddress(),
          amount: `${j + 1}.5`,
        })),
      }),
    });
    const job = (await res.json()) as { jobId?: string; error?: string };
    if (res.status !== 201 || !job.jobId) throw new Error(`POST /api/batch/execute: ${res.status} ${job.error}`);
    // The URL the Payments screen polls every 3 s (frontend/src/features/payments/api/batch.ts).
    users.push({ token: idToken, statusPath: `/api/batch/${job.jobId}?offset=0&limit=1` });
  }
  return [
    { name: "GET /api/batch/:id (job status)", path: (c) => users[c % USERS].statusPath, token: (c) => users[c % USERS].token },
    { name: "GET /api/token", path: () => "/api/token", token: () => null },
    { name: `GET /api/events?limit=${EVENTS_DEFAULT_LIMIT}`, path: () => `/api/events?limit=${EVENTS_DEFAULT_LIMIT}`, token: () => null },
  ];
}

/** A live chain: a transfer every TRANSFER_MS moves the index on while the clients poll. */
function mineTransfers(stack: Stack): { stop(): Promise<number> } {
  if (TRANSFER_MS <= 0) return { stop: async () => 0 };
  let mining = true;
  const provider = new JsonRpcProvider(stack.rpcUrl, 31337, { staticNetwork: true, cacheTimeout: -1 });
  const done = (async () => {
    const usdx = USDX__factory.connect(
      readManifest("localhost", { DEPLOYMENTS_DIR: stack.deploymentsDir }).proxy,
      await provider.getSigner(seededAccount("alice").index),
    );
    const bob = await (await provider.getSigner(seededAccount("bob").index)).getAddress();
    let mined = 0;
    while (mining) {
      await (await usdx.transfer(bob, parseUnits("0.01", 18))).wait();
      mined++;
      await sleep(TRANSFER_MS);
    }
    provider.destroy();
    return mined;
  })();
  return {
    stop: () => {
      mining = false;
      return done;
    },
  };
}

const ms = (n: number) => n.toFixed(1);
const pct = (n: number) => `${Math.round(n * 100)}%`;
const cores = (n: number) => n.toFixed(2);
/** Where the CPU went, in cores: "replicas 0.97 (0.97), PostgreSQL 0.31, clients 0.35". */
const cpuUse = (cpu: RunResult["cpu"]) =>
  `replica${cpu.replicas.length === 1 ? "" : "s"} ${cores(cpu.replicas.reduce((a, b) => a + b, 0))}` +
  `${cpu.replicas.length > 1 ? ` (${cpu.replicas.map(cores).join(" + ")})` : ""}, PostgreSQL ${cores(cpu.postgres)}, clients ${cores(cpu.clients)}`;

function printRun(run: Run, endpoints: Endpoint[]): void {
  const { samples, seconds, errors, cpu } = run.result;
  const row = (name: string, of: typeof samples) => {
    const f = figures(of, seconds);
    return [name, String(f.requests), f.perSecond.toFixed(0), ms(f.p50), ms(f.p95), ms(f.p99), ms(f.max), String(f.errors)];
  };
  const rows = endpoints.map((e) =>
    row(
      e.name,
      samples.filter((s) => s.endpoint === e.name),
    ),
  );
  rows.push(row("overall", samples));
  console.log(`\n${label(run.setup)}, ${CLIENTS} clients ${mode(run.pollMs)}, ${seconds.toFixed(1)} s (latency in ms, to the last byte)`);
  console.log(`CPU: ${pct(cpu.busy)} of ${cpu.cores} cores busy; in cores: ${cpuUse(cpu)}, the Hardhat node and the rest the remainder\n`);
  console.log(formatTable(["endpoint", "requests", "req/s", "p50", "p95", "p99", "max", "errors"], rows));
  if (errors.size > 0) {
    console.log("\nErrors:");
    for (const [what, count] of errors) console.log(`  ${count} x ${what}`);
  }
}

/** The summary and the goals; false when one is missed. */
function printSummary(runs: Run[]): boolean {
  const all = runs.map((r) => ({ run: r, f: figures(r.result.samples, r.result.seconds) }));
  console.log("\nSummary\n");
  console.log(
    formatTable(
      ["setup", "mode", "req/s", "p50", "p95", "p99", "errors", "CPU busy", "cores used by"],
      all.map(({ run, f }) => [
        label(run.setup),
        mode(run.pollMs),
        f.perSecond.toFixed(0),
        ms(f.p50),
        ms(f.p95),
        ms(f.p99),
        String(f.errors),
        pct(run.result.cpu.busy),
        cpuUse(run.result.cpu),
      ]),
    ),
  );
  let met = true;
  const errors = all.reduce((sum, { f }) => sum + f.errors, 0);
  console.log(`\ngoal: zero errors: ${errors} errors: ${errors === 0 ? "met" : "MISSED"}`);
  met &&= errors === 0;
  for (const { run, f } of all.filter(({ run }) => run.setup.replicas === 1 && run.pollMs === 1000)) {
    const ok = f.p99 < TARGET_P99_MS;
    console.log(
      `goal: ${CLIENTS} clients polling every second at p99 under ${TARGET_P99_MS} ms on one replica (${label(run.setup)}): p99 ${ms(f.p99)} ms: ${ok ? "met" : "MISSED"}`,
    );
    met &&= ok;
  }
  const capacity = (replicas: number) =>
    all.find(({ run }) => run.setup.database === "postgres" && run.setup.replicas === replicas && run.pollMs === 0);
  const one = capacity(1);
  const three = capacity(3);
  if (one && three) {
    const ratio = three.f.perSecond / one.f.perSecond;
    const ok = ratio > 1;
    console.log(
      `goal: more capacity with 3 replicas than with 1 on PostgreSQL: ${three.f.perSecond.toFixed(0)} / ${one.f.perSecond.toFixed(0)} req/s = ${ratio.toFixed(2)}x: ${ok ? "met" : "MISSED"}`,
    );
    met &&= ok;
    if (ratio < TARGET_RATIO) {
      const [c1, c3] = [one.run.result.cpu, three.run.result.cpu];
      const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
      // CPU milliseconds the replicas spent per request: what a request costs, whatever the count.
      const perRequest = (c: RunResult["cpu"], perSecond: number) => ((sum(c.replicas) * 1000) / perSecond).toFixed(2);
      const limit =
        c1.replicas[0] > 0.85
          ? `its one event loop was the limit (a Node process runs its JavaScript on one core), with the machine ${pct(c1.busy)} busy`
          : `the machine was the limit (${pct(c1.busy)} busy)`;
      console.log(
        `\nWhy ${ratio.toFixed(2)}x and not ${TARGET_RATIO}x: this machine has ${c1.cores} cores for everything. At capacity the one replica used ` +
          `${cores(c1.replicas[0])} cores: ${limit} (PostgreSQL ${cores(c1.postgres)}, the ${CLIENTS} clients ${cores(c1.clients)}, the Hardhat node the rest). ` +
          `Three replicas could only add what was left: together they got ${cores(sum(c3.replicas))} cores, with the machine ${pct(c3.busy)} busy ` +
          `(PostgreSQL ${cores(c3.postgres)}, clients ${cores(c3.clients)}). A request cost the replicas ${perRequest(c1, one.f.perSecond)} ms of CPU with one ` +
          `and ${perRequest(c3, three.f.perSecond)} ms with three, so capacity follows the cores the replicas get: where each replica has a core of its own ` +
          `and the clients and PostgreSQL run elsewhere, three replicas serve about three times what one does, until PostgreSQL is the limit.`,
      );
    }
  }
  return met;
}

async function main() {
  const setups = setupsToRun();
  console.log("Starting a Hardhat node (deployed and seeded) and the Auth emulator...");
  const stack = await startStack();
  (globalThis as { usdxStack?: Stack }).usdxStack = stack; // emailUser and the server processes use this stack
  let postgres: PostgresServer | null = null;
  const miner = mineTransfers(stack);
  const runs: Run[] = [];
  try {
    if (setups.some((s) => s.database === "postgres")) {
      console.log("Starting a PostgreSQL server...");
      postgres = await startPostgres();
    }
    for (const [n, setup] of setups.entries()) {
      console.log(`\n== ${label(setup)}: starting, signing up ${USERS} users with a batch job of ${RECIPIENTS_PER_JOB} recipients each...`);
      const servers = await startReplicas(setup, postgres, n);
      try {
        const replicas = servers.replicas.map((r) => ({ port: Number(new URL(r.url).port), pid: r.pid }));
        const endpoints = await dashboardEndpoints(servers.replicas[0].url);
        await warmUp(
          replicas.map((r) => r.port),
          endpoints,
        );
        for (const pollMs of MODES) {
          const run = { setup, pollMs, result: await runLoad(replicas, endpoints, CLIENTS, pollMs, SECONDS) };
          runs.push(run);
          printRun(run, endpoints);
        }
      } finally {
        await servers.stop();
      }
    }
    const mined = await miner.stop();
    console.log(`\n${mined} transfers mined during the runs.`);
    if (!printSummary(runs)) process.exitCode = 1;
  } finally {
    await miner.stop().catch(() => 0);
    postgres?.stop();
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
