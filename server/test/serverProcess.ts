import { ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { DASHBOARD_ORIGIN, stack, testPostgres } from "./helpers";
import { FIREBASE_PROJECT, freePort } from "./stack";

/**
 * The API server's own entry point (server/src/index.ts) in a child process, so a test can SIGKILL
 * or SIGTERM it: on the PGlite directory `dataDir`, or in the PostgreSQL pass on the database that
 * stands in for it. Resolves once /api/health answers 200 (the database opened, the chain answers,
 * the indexer stored a checkpoint), or with `healthy: false` at once, for a server that should
 * refuse to start. faults.test.ts, leader.test.ts and database.test.ts start servers this way.
 */
const ROOT = path.resolve(__dirname, "..", "..");
const running = new Set<ChildProcess>();

export interface ServerProcess {
  url: string;
  /** The process id (bench:load reads its CPU time). */
  pid: number;
  /** The exit code, once it exits (null after a signal). */
  exited: Promise<number | null>;
  output(): string;
  /** Sends `signal` and waits for the exit. SIGKILL: no close handlers, no flush, no finished transaction. */
  kill(signal?: "SIGKILL" | "SIGTERM"): Promise<number | null>;
}

export async function startServerProcess(dataDir: string, env: Record<string, string> = {}, { healthy = true } = {}): Promise<ServerProcess> {
  const port = await freePort();
  const s = stack();
  const child = spawn(process.execPath, ["-r", "ts-node/register/transpile-only", path.join(ROOT, "server", "src", "index.ts")], {
    cwd: ROOT,
    env: {
      ...process.env,
      NETWORK: "localhost",
      RPC_URL: s.rpcUrl,
      DEPLOYMENTS_DIR: s.deploymentsDir,
      DATABASE_URL: testPostgres()?.databaseUrl(dataDir) ?? "",
      PGLITE_DIR: dataDir,
      FIREBASE_AUTH_EMULATOR_HOST: s.emulatorHost,
      FIREBASE_PROJECT_ID: FIREBASE_PROJECT,
      SERVER_HOST: "127.0.0.1",
      SERVER_PORT: String(port),
      DASHBOARD_ORIGIN,
      DASHBOARD_DIST: "off",
      INDEXER_POLL_MS: "100",
      RATE_LIMIT_AUTH_PER_MINUTE: "1000",
      LOG_LEVEL: "warn",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  // "close", not "exit": by then its output has all arrived, so output() holds its last words.
  const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  while (healthy) {
    if (child.exitCode !== null) throw new Error(`the server process exited with code ${child.exitCode}:\n${output}`);
    const health = await fetch(`${url}/api/health`).catch(() => null);
    if (health?.status === 200) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`the server process did not become healthy within 30 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    pid: child.pid!,
    exited,
    output: () => output,
    async kill(signal = "SIGKILL") {
      child.kill(signal);
      const code = await exited;
      running.delete(child);
      return code;
    },
  };
}

/** SIGKILLs every server process still running (a test's `after`, whatever failed). */
export function killServerProcesses(): void {
  for (const child of running) child.kill("SIGKILL");
  running.clear();
}
