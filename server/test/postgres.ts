/**
 * A throwaway PostgreSQL server for the tests: its own data directory in a temporary directory, a
 * free loopback port, trust authentication, stopped and deleted afterwards. It never uses a server
 * that is already running. PostgreSQL refuses to run as root, so as root it runs as the `postgres`
 * user that Debian's package creates.
 */
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "./stack";

const INSTALL = "apt-get install -y postgresql";

/** The PostgreSQL pass: `npm run test:server:postgres` sets this, and the tests then run on a real PostgreSQL server. */
export const ON_POSTGRES = process.env.USDX_TEST_DATABASE === "postgres";

export interface PostgresServer {
  port: number;
  /** A connection URL for `database` on this server (user postgres, no password). */
  url(database: string): string;
  /** Runs SQL statements on `database` (by default `postgres`), synchronously (psql); answers its rows, one a line. */
  psql(statements: string, database?: string): string;
  /** Stops the server as an operator would (pg_ctl stop -m fast: sessions are ended, then it exits); the data stays. */
  pause(): void;
  /** Starts it again on the same port and data directory. */
  resume(): void;
  stop(): void;
}

/** The directory holding initdb, pg_ctl and psql: Debian's newest /usr/lib/postgresql/<version>/bin, else initdb's on PATH. */
export function postgresBinaries(): string {
  const debian = "/usr/lib/postgresql";
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((v) => existsSync(path.join(debian, v, "bin", "initdb")))
      .sort((a, b) => Number(b) - Number(a));
    if (versions.length) return path.join(debian, versions[0], "bin");
  }
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const initdb = path.join(dir, "initdb");
    if (dir && existsSync(initdb)) {
      const bin = path.dirname(realpathSync(initdb)); // pg_ctl sits beside the real initdb, not beside a symlink to it
      if (existsSync(path.join(bin, "pg_ctl"))) return bin;
    }
  }
  throw new Error(
    `The PostgreSQL tests need PostgreSQL's server programs (initdb, pg_ctl), found neither under /usr/lib/postgresql/*/bin nor on PATH: install them with \`${INSTALL}\` (as .ci/run does).`,
  );
}

function userIds(name: string): { uid: number; gid: number } | null {
  try {
    return {
      uid: Number(execFileSync("id", ["-u", name], { encoding: "utf8" }).trim()),
      gid: Number(execFileSync("id", ["-g", name], { encoding: "utf8" }).trim()),
    };
  } catch {
    return null;
  }
}

/** Starts the server (about 2 s) and stops it when the process exits, whatever happens to the tests. */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = postgresBinaries();
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? userIds("postgres") : null;
  if (asRoot && !owner) {
    throw new Error(`PostgreSQL refuses to run as root, and there is no \`postgres\` user to run it as: \`${INSTALL}\` creates one.`);
  }
  const dir = mkdtempSync(path.join(tmpdir(), "usdx-postgres-"));
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const data = path.join(dir, "data");
  const log = path.join(dir, "server.log");
  const port = await freePort();

  // As root, every server program runs as `postgres`; psql is only a client and connects over TCP.
  const server = (program: string, args: string[]) => {
    const command = owner ? ["runuser", ["-u", "postgres", "--", path.join(bin, program), ...args]] : [path.join(bin, program), args];
    try {
      return execFileSync(command[0] as string, command[1] as string[], { cwd: dir, encoding: "utf8", stdio: "pipe" });
    } catch (error) {
      const e = error as { stderr?: string; stdout?: string; message: string };
      throw new Error(`${program} failed: ${e.stderr || e.stdout || e.message}`, { cause: error });
    }
  };

  let running = false;
  const stop = () => {
    if (running) {
      running = false;
      try {
        server("pg_ctl", ["stop", "-D", data, "-m", "immediate", "-w"]);
      } catch {
        /* already gone */
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once("exit", stop); // a crashed or interrupted run leaves no server behind

  // A throwaway server: durability settings off, which makes CREATE DATABASE and commits cheap.
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses=127.0.0.1",
    "-c fsync=off",
    "-c synchronous_commit=off",
    "-c full_page_writes=off",
    "-c max_connections=200",
    // Not UTC (as PGlite is), so a timestamp that only works in UTC shows here: UTC+14, a day ahead most of the day.
    "-c timezone=Pacific/Kiritimati",
  ].join(" ");
  const start = () => {
    running = true; // from here a stop is attempted, in case it started but did not answer in time
    try {
      server("pg_ctl", ["start", "-D", data, "-o", options, "-l", log, "-w", "-t", "60"]);
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${existsSync(log) ? readFileSync(log, "utf8") : ""}`, { cause: error });
    }
  };

  try {
    // C.UTF-8 exists on every glibc machine, so the answers do not depend on the machine's locale.
    server("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"]);
    start();
  } catch (error) {
    stop();
    throw error;
  }

  return {
    port,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    psql(statements, database = "postgres") {
      try {
        return execFileSync(
          path.join(bin, "psql"),
          [
            "-h",
            "127.0.0.1",
            "-p",
            String(port),
            "-U",
            "postgres",
            "-d",
            database,
            "-X",
            "-q",
            "-At",
            "-v",
            "ON_ERROR_STOP=1",
            "-c",
            statements,
          ],
          {
            encoding: "utf8",
            stdio: "pipe",
          },
        );
      } catch (error) {
        throw new Error(`psql failed: ${(error as { stderr?: string }).stderr || (error as Error).message}`, { cause: error });
      }
    },
    pause() {
      if (!running) return;
      server("pg_ctl", ["stop", "-D", data, "-m", "fast", "-w"]);
      running = false;
    },
    resume() {
      if (!running) start();
    },
    stop() {
      process.removeListener("exit", stop);
      stop();
    },
  };
}

/**
 * The PostgreSQL pass (npm run test:server:postgres): one server for the whole run, and a database
 * of its own for each API server a test starts, so tests stay as isolated as on PGlite.
 */
export interface TestPostgres {
  server: PostgresServer;
  /**
   * The DATABASE_URL that stands in for PGLITE_DIR `pgliteDir`: for memory:// a new database each
   * time; for a directory the same database each time, so a test that restarts a server on its
   * directory finds its rows again.
   */
  databaseUrl(pgliteDir: string): string;
  stop(): void;
}

const TEMPLATE = "usdx_template";

export async function startTestPostgres(): Promise<TestPostgres> {
  const server = await startPostgres();
  try {
    // Migrated once here; each test's database is a copy of it (CREATE DATABASE ... TEMPLATE takes ~50 ms).
    server.psql(`create database ${TEMPLATE}`);
    const { openDatabase } = await import("../src/db/client");
    const template = await openDatabase({ kind: "postgres", url: server.url(TEMPLATE) });
    await template.close();
  } catch (error) {
    server.stop();
    throw error;
  }
  let count = 0;
  const byDirectory = new Map<string, string>();
  return {
    server,
    databaseUrl(pgliteDir) {
      const inMemory = pgliteDir.startsWith("memory://");
      let name = inMemory ? undefined : byDirectory.get(pgliteDir);
      if (!name) {
        name = `test_${++count}`;
        server.psql(`create database ${name} template ${TEMPLATE}`);
        if (!inMemory) byDirectory.set(pgliteDir, name);
      }
      return server.url(name);
    },
    stop: () => server.stop(),
  };
}
