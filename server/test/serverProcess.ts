import type { ChildProcess } from "node:child_process";
import { serverHealthy, startApiServer } from "../../scripts/lib/stack/parts";
import { waitFor } from "../../scripts/lib/stack/processes";
import { DASHBOARD_ORIGIN, stack, testPostgres } from "./helpers";
import { FIREBASE_PROJECT, freePort } from "./stack";

/**
 * The API server's own entry point (server/src/index.ts) in a child process, so a test can SIGKILL
 * or SIGTERM it: on the PGlite directory `dataDir`, or in the PostgreSQL pass on the database that
 * stands in for it. Resolves once /api/health answers 200 (the database opened, the chain answers,
 * the indexer stored a checkpoint), or with `healthy: false` at once, for a server that should
 * refuse to start. faults.test.ts, leader.test.ts and database.test.ts start servers this way; it
 * starts as `npm start` starts it (scripts/lib/stack/parts.ts), in the test's process group, so a
 * signal a test sends reaches the server alone.
 */
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

export async function startServerProcess(
  dataDir: string,
  env: Record<string, string> = {},
  { healthy = true } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const s = stack();
  const { child, output } = startApiServer({
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
    output: "capture",
    group: false,
  });
  running.add(child);
  // "close", not "exit": by then its output has all arrived, so output() holds its last words.
  const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  if (healthy) {
    try {
      // 60 s: a server process compiles its TypeScript as it starts, which took over 30 s while
      // both of CI's lanes (and their own chains and browsers) shared the 2 cores.
      await waitFor("the server process", serverHealthy(url), 60_000, { child, intervalMs: 100 });
    } catch (error) {
      child.kill("SIGKILL");
      throw new Error(`${(error as Error).message}:\n${output()}`, { cause: error });
    }
  }
  return {
    url,
    pid: child.pid!,
    exited,
    output,
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
