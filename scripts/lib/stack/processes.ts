/**
 * Starting, waiting for and stopping the processes of the local stack: one way for `npm start`
 * (scripts/start.ts), the server tests (server/test/stack.ts, serverProcess.ts) and the stand-in
 * Sepolia (scripts/lib/standIn.ts). What each part is (the node, the Auth emulator, the API
 * server) is in parts.ts; this file knows processes only. It imports nothing of the project, so a
 * test runner loads it without hardhat or the server.
 */
import { ChildProcess, spawn, type StdioOptions } from "node:child_process";
import { createWriteStream } from "node:fs";
import net from "node:net";
import path from "node:path";

export const ROOT = path.resolve(__dirname, "..", "..", "..");
/** A tool the project installs (hardhat, firebase, vite, ...). */
export const bin = (name: string) => path.join(ROOT, "node_modules", ".bin", name);
/**
 * What every tool the project starts runs with: no Hardhat telemetry question, no npm update notice.
 * The one place these are set (hardhat.config.ts applies it to every `hardhat` run).
 */
export const QUIET = { HARDHAT_DISABLE_TELEMETRY_PROMPT: "true", NO_UPDATE_NOTIFIER: "1" } as const;
/** The same, and no interactive output either: the local stack's processes run unattended. */
export const QUIET_ENV = { ...QUIET, CI: "true" };

/**
 * Where a long-running process's output goes: nowhere, into memory (`output()`), or appended to a
 * log file as it comes (`npm start`'s logs).
 */
export type Output = "ignore" | "capture" | { file: string };

export interface StartedProcess {
  child: ChildProcess;
  /** Its stdout and stderr so far, with output "capture"; else empty. */
  output(): string;
}

export interface StartOptions {
  output: Output;
  cwd?: string;
  /** The whole environment (not added to process.env). */
  env?: NodeJS.ProcessEnv;
  /**
   * In a process group of its own (the default), so that stopping it stops what it started too
   * (the emulator starts Java, npm a shell): stopProcess signals the group. A server a test kills
   * with one signal runs in the test's group instead.
   */
  group?: boolean;
}

/** Starts a long-running process; see StartOptions. */
export function startProcess(
  command: string,
  args: string[],
  { output, cwd = ROOT, env = process.env, group = true }: StartOptions,
): StartedProcess {
  const stdio: StdioOptions = output === "ignore" ? "ignore" : output === "capture" ? ["ignore", "pipe", "pipe"] : "pipe";
  const child = spawn(command, args, { cwd, env, detached: group, stdio });
  let captured = "";
  if (output === "capture") {
    child.stdout!.on("data", (d) => (captured += d));
    child.stderr!.on("data", (d) => (captured += d));
  } else if (output !== "ignore") {
    const log = createWriteStream(output.file);
    child.stdout!.pipe(log);
    child.stderr!.pipe(log);
  }
  return { child, output: () => captured };
}

/**
 * Runs a command to completion: its output shown as it comes ("inherit") or collected ("capture").
 * `finished` resolves with the exit code (null after a signal) and the collected output; the child
 * is there at once, for a caller that must stop it on Ctrl-C.
 */
export function runProcess(
  command: string,
  args: string[],
  { output, cwd = ROOT, env = process.env }: { output: "inherit" | "capture"; cwd?: string; env?: NodeJS.ProcessEnv },
): { child: ChildProcess; finished: Promise<{ code: number | null; output: string }> } {
  const child = spawn(command, args, { cwd, env, stdio: output === "inherit" ? "inherit" : "pipe" });
  let captured = "";
  child.stdout?.on("data", (d) => (captured += d));
  child.stderr?.on("data", (d) => (captured += d));
  const finished = new Promise<{ code: number | null; output: string }>((resolve) =>
    child.once("exit", (code) => resolve({ code, output: captured })),
  );
  return { child, finished };
}

/** Whether it has exited: with a code, or killed by a signal (then exitCode stays null). */
const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/**
 * Sends `signal` to the process's group (a process started with `group`), or to the process alone
 * when it has none. Returns at once: `npm start` signals everything it started, then exits.
 */
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (exited(child) || child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}

/** Stops a process and its group: SIGTERM, SIGKILL after 5 s; resolves once the process has exited. */
export function stopProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (exited(child) || child.pid === undefined) return resolve();
    child.once("exit", () => resolve());
    signalGroup(child, "SIGTERM");
    setTimeout(() => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        /* already gone */
      }
    }, 5000).unref();
  });
}

export interface WaitOptions {
  /** Fail at once, not at the deadline, when this process exits meanwhile. */
  child?: ChildProcess;
  /** Added to the timeout's sentence: where to look (`npm start`: its log directory). */
  hint?: string;
  intervalMs?: number;
}

/** Polls `check` until it answers true; a check that throws counts as not yet. */
export async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs: number,
  { child, hint, intervalMs = 200 }: WaitOptions = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && exited(child)) throw new Error(`${what} exited with ${child.signalCode ?? `code ${child.exitCode}`}`);
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`${what} did not become ready within ${timeoutMs / 1000} s${hint ? `; ${hint}` : ""}`);
}

/** A loopback port nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Whether something accepts connections on host:port. */
export function portInUse(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** One JSON-RPC call; an error answer throws with its message. */
export async function rpc<T = unknown>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}
