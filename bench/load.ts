/**
 * Load bench (`npm run bench:load`): 200 concurrent clients, each with keep-alive connections,
 * poll what the dashboard polls for LOAD_SECONDS (60 by default): a batch job's status, the token
 * figures and the first page of events. Prints requests per second, p50/p95/p99 latency per
 * endpoint and overall, and every error (a non-2xx answer or a network failure).
 * Target: zero errors and p99 under 100 ms. Loopback only; bounded in time.
 *
 * Each client asks for all three every LOAD_POLL_MS (1,000 by default: three times as often as
 * the dashboard polls a running batch), starting at a random moment of the first interval.
 * LOAD_POLL_MS=0 asks back to back with no pause: the server's capacity rather than a polling load.
 *
 * The server runs in a process of its own, as it does in production, so the clients' work in this
 * process does not sit on the server's event loop and inflate its latency. A transfer is mined every
 * LOAD_TRANSFER_MS (3,000 by default; 0 for none) so the index advances and the token figures'
 * cache turns over during the run, as it does on a live chain.
 */
import { ChildProcess, spawn } from "node:child_process";
import http from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { JsonRpcProvider, getAddress, hexlify, parseUnits, randomBytes } from "ethers";
import { USDX__factory } from "../typechain-types";
import { readManifest } from "../common/manifestFile";
import { EVENTS_DEFAULT_LIMIT } from "../common/events";
import { seededAccount } from "../common/seedAccounts";
import { formatTable } from "../scripts/lib/report";
import { emailUser } from "../server/test/helpers";
import { FIREBASE_PROJECT, freePort, startStack, Stack } from "../server/test/stack";

const SECONDS = Number(process.env.LOAD_SECONDS || 60);
const CLIENTS = Number(process.env.LOAD_CLIENTS || 200);
const TRANSFER_MS = Number(process.env.LOAD_TRANSFER_MS ?? 3000);
const POLL_MS = Number(process.env.LOAD_POLL_MS ?? 1000);
// Each client polls the job of one of these users (their own, as the dashboard does).
const USERS = 20;
const RECIPIENTS_PER_JOB = 25;
const TARGET_P99_MS = 100;

const ROOT = path.resolve(__dirname, "..");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const randomAddress = () => getAddress(hexlify(randomBytes(20)));

interface Server {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** The API server's own entry point in a child process, on a PGlite directory as `npm start` runs it. */
async function startServerProcess(stack: Stack, dataDir: string): Promise<Server> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ["-r", "ts-node/register/transpile-only", path.join(ROOT, "server", "src", "index.ts")], {
    cwd: ROOT,
    env: {
      ...process.env,
      NETWORK: "localhost",
      RPC_URL: stack.rpcUrl,
      DEPLOYMENTS_DIR: stack.deploymentsDir,
      DATABASE_URL: "",
      PGLITE_DIR: dataDir,
      FIREBASE_AUTH_EMULATOR_HOST: stack.emulatorHost,
      FIREBASE_PROJECT_ID: FIREBASE_PROJECT,
      SERVER_HOST: "127.0.0.1",
      SERVER_PORT: String(port),
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while ((await fetch(`${url}/api/health`).catch(() => null))?.status !== 200) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error("the server did not become healthy within 60 s");
    await sleep(200);
  }
  return {
    url,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

interface Sample {
  endpoint: string;
  ms: number;
  ok: boolean;
}

/** One GET on a keep-alive agent: its status (0 for a network failure) and the time to the last byte. */
function get(agent: http.Agent, port: number, urlPath: string, token: string | null): Promise<{ status: number; ms: number; error?: string }> {
  const started = process.hrtime.bigint();
  const elapsed = () => Number(process.hrtime.bigint() - started) / 1e6;
  return new Promise((resolve) => {
    const req = http.request({ agent, host: "127.0.0.1", port, path: urlPath, method: "GET", headers: token ? { authorization: `Bearer ${token}` } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const status = res.statusCode ?? 0;
        resolve({ status, ms: elapsed(), error: status >= 200 && status < 300 ? undefined : `${status} ${Buffer.concat(chunks).toString().slice(0, 200)}` });
      });
      res.on("error", (e) => resolve({ status: 0, ms: elapsed(), error: e.message }));
    });
    req.on("error", (e) => resolve({ status: 0, ms: elapsed(), error: e.message }));
    req.end();
  });
}

const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);

async function main() {
  console.log("Starting a Hardhat node (deployed and seeded) and the Auth emulator...");
  const stack = await startStack();
  (globalThis as { usdxStack?: Stack }).usdxStack = stack; // emailUser signs up through this emulator
  const dataDir = mkdtempSync(path.join(tmpdir(), "usdx-load-"));
  let server: Server | null = null;
  let mining = false;
  let miner: Promise<number> = Promise.resolve(0);
  try {
    server = await startServerProcess(stack, dataDir);
    const { url, port } = server;

    console.log(`Signing up ${USERS} users and starting a batch job of ${RECIPIENTS_PER_JOB} recipients for each...`);
    const users: { token: string; statusPath: string }[] = [];
    for (let i = 0; i < USERS; i++) {
      const { idToken } = await emailUser();
      const res = await fetch(`${url}/api/batch/execute`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${idToken}` },
        body: JSON.stringify({ recipients: Array.from({ length: RECIPIENTS_PER_JOB }, (_, j) => ({ name: `Payee ${j}`, address: randomAddress(), amount: `${j + 1}.5` })) }),
      });
      const job = (await res.json()) as { jobId?: string; error?: string };
      if (res.status !== 201 || !job.jobId) throw new Error(`POST /api/batch/execute: ${res.status} ${job.error}`);
      // The URL the Payments screen polls every 3 s (frontend/src/features/payments/api/batch.ts).
      users.push({ token: idToken, statusPath: `/api/batch/${job.jobId}?offset=0&limit=1` });
    }

    const endpoints = [
      { name: "GET /api/batch/:id (job status)", path: (c: number) => users[c % USERS].statusPath, token: (c: number) => users[c % USERS].token },
      { name: "GET /api/token", path: () => "/api/token", token: () => null },
      { name: `GET /api/events?limit=${EVENTS_DEFAULT_LIMIT}`, path: () => `/api/events?limit=${EVENTS_DEFAULT_LIMIT}`, token: () => null },
    ];

    // A live chain: a transfer every TRANSFER_MS moves the index on while the clients poll.
    if (TRANSFER_MS > 0) {
      mining = true;
      const provider = new JsonRpcProvider(stack.rpcUrl, 31337, { staticNetwork: true, cacheTimeout: -1 });
      const usdx = USDX__factory.connect(readManifest("localhost", { DEPLOYMENTS_DIR: stack.deploymentsDir }).proxy, await provider.getSigner(seededAccount("alice").index));
      const bob = await (await provider.getSigner(seededAccount("bob").index)).getAddress();
      miner = (async () => {
        let mined = 0;
        while (mining) {
          await (await usdx.transfer(bob, parseUnits("0.01", 18))).wait();
          mined++;
          await sleep(TRANSFER_MS);
        }
        provider.destroy();
        return mined;
      })();
    }

    const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
    // Warm up: connections opened, the first token read cached, the code paths compiled.
    for (let i = 0; i < 3; i++) await Promise.all(endpoints.map((e) => get(agent, port, e.path(i), e.token(i))));

    console.log(`${CLIENTS} clients polling ${endpoints.length} endpoints ${POLL_MS > 0 ? `every ${POLL_MS} ms` : "back to back (LOAD_POLL_MS=0)"} for ${SECONDS} s...`);
    const samples: Sample[] = [];
    const errors = new Map<string, number>();
    const started = Date.now();
    const end = started + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        // Clients start spread over the first interval, as browsers opened at different moments.
        if (POLL_MS > 0) await new Promise((r) => setTimeout(r, Math.random() * POLL_MS));
        // Each client starts at a different endpoint so the mix is even at every moment.
        for (let n = client; Date.now() < end; n++) {
          const endpoint = endpoints[n % endpoints.length];
          const answer = await get(agent, port, endpoint.path(client), endpoint.token(client));
          samples.push({ endpoint: endpoint.name, ms: answer.ms, ok: answer.error === undefined });
          if (answer.error !== undefined) errors.set(`${endpoint.name}: ${answer.error}`, (errors.get(`${endpoint.name}: ${answer.error}`) ?? 0) + 1);
          // After a round of every endpoint, wait for the next poll.
          if (POLL_MS > 0 && (n - client) % endpoints.length === endpoints.length - 1) {
            await new Promise((r) => setTimeout(r, Math.max(0, POLL_MS - answer.ms)));
          }
        }
      }),
    );
    const seconds = (Date.now() - started) / 1000;
    agent.destroy();
    mining = false;
    const mined = await miner;

    const row = (name: string, of: Sample[]) => {
      const ms = of.map((s) => s.ms).sort((a, b) => a - b);
      return [
        name,
        String(of.length),
        (of.length / seconds).toFixed(0),
        percentile(ms, 50).toFixed(1),
        percentile(ms, 95).toFixed(1),
        percentile(ms, 99).toFixed(1),
        ms[ms.length - 1].toFixed(1),
        String(of.filter((s) => !s.ok).length),
      ];
    };
    const rows = endpoints.map((e) => row(e.name, samples.filter((s) => s.endpoint === e.name)));
    rows.push(row("overall", samples));
    console.log(`\nLoad: ${CLIENTS} clients, keep-alive, ${seconds.toFixed(1)} s, ${mined} transfers mined meanwhile (latency in ms, to the last byte)\n`);
    console.log(formatTable(["endpoint", "requests", "req/s", "p50", "p95", "p99", "max", "errors"], rows));
    if (errors.size > 0) {
      console.log("\nErrors:");
      for (const [what, count] of errors) console.log(`  ${count} x ${what}`);
    }
    const p99 = Number(rows[rows.length - 1][5]);
    const failed = samples.filter((s) => !s.ok).length;
    const met = failed === 0 && p99 < TARGET_P99_MS;
    console.log(`\ntarget: zero errors and p99 under ${TARGET_P99_MS} ms: ${failed} errors, p99 ${p99.toFixed(1)} ms: ${met ? "met" : "MISSED"}`);
    if (!met) process.exitCode = 1;
  } finally {
    mining = false;
    await miner.catch(() => undefined);
    await server?.stop();
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
