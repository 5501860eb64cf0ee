/**
 * The real parts the server runs against, started for the tests on free loopback ports: a Hardhat
 * node (deployed and seeded like `npm start`'s) and the Firebase Auth emulator. Nothing is mocked.
 */
import { ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

const ROOT = path.resolve(__dirname, "..", "..");
const BIN = path.join(ROOT, "node_modules", ".bin");
export const FIREBASE_PROJECT = "demo-usdx";

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

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs: number, child?: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode}`);
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what} did not become ready within ${timeoutMs / 1000} s`);
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = "";
    const child = spawn(path.join(BIN, command), args, { cwd: ROOT, env: { ...process.env, ...env } });
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} failed:\n${output}`))));
  });
}

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

export interface Stack {
  rpcUrl: string;
  rpcPort: number;
  deploymentsDir: string;
  emulatorHost: string;
  stop(): Promise<void>;
}

/** Stops a process started `detached` (its own group) with everything it started; SIGKILL after 5 s. */
export function kill(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.pid === undefined) return resolve();
    child.once("exit", () => resolve());
    try {
      process.kill(-child.pid, "SIGTERM"); // the whole group: the emulator starts children of its own
    } catch {
      child.kill("SIGTERM");
    }
    setTimeout(() => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        /* already gone */
      }
    }, 5000).unref();
  });
}

const QUIET_ENV = { HARDHAT_DISABLE_TELEMETRY_PROMPT: "true", CI: "true", NO_UPDATE_NOTIFIER: "1" };

export interface AuthEmulator {
  /** host:port, as FIREBASE_AUTH_EMULATOR_HOST wants it. */
  host: string;
  /** Resolves once the emulator answers. */
  ready: Promise<void>;
  stop(): Promise<void>;
}

/** The Firebase Auth emulator on free loopback ports, its config in `dir`. */
export async function startAuthEmulator(dir: string): Promise<AuthEmulator> {
  const [authPort, hubPort, loggingPort] = [await freePort(), await freePort(), await freePort()];
  writeFileSync(
    path.join(dir, "firebase.json"),
    JSON.stringify({
      emulators: {
        auth: { host: "127.0.0.1", port: authPort },
        hub: { host: "127.0.0.1", port: hubPort },
        logging: { host: "127.0.0.1", port: loggingPort },
        ui: { enabled: false },
        singleProjectMode: true,
      },
    }),
  );
  const emulator = spawn(
    path.join(BIN, "firebase"),
    ["emulators:start", "--only", "auth", "--project", FIREBASE_PROJECT, "--config", path.join(dir, "firebase.json")],
    { cwd: dir, env: { ...process.env, ...QUIET_ENV }, detached: true, stdio: "ignore" },
  );
  const host = `127.0.0.1:${authPort}`;
  const ready = waitFor(() => fetch(`http://${host}/`).then((r) => r.ok), "Firebase Auth emulator", 90_000, emulator);
  ready.catch(() => undefined); // awaited by the caller; never an unhandled rejection meanwhile
  return { host, ready, stop: () => kill(emulator) };
}

export async function startStack(): Promise<Stack> {
  const dir = mkdtempSync(path.join(tmpdir(), "usdx-server-test-"));
  const deploymentsDir = path.join(dir, "deployments");
  const rpcPort = await freePort();
  const rpcUrl = `http://127.0.0.1:${rpcPort}`;

  const node = spawn(path.join(BIN, "hardhat"), ["node", "--hostname", "127.0.0.1", "--port", String(rpcPort)], {
    cwd: ROOT,
    env: { ...process.env, ...QUIET_ENV },
    detached: true,
    stdio: "ignore",
  });
  const emulator = await startAuthEmulator(dir);

  await waitFor(() => rpc(rpcUrl, "eth_chainId").then(() => true), "Hardhat node", 60_000, node);
  const local = { ...QUIET_ENV, LOCAL_RPC_PORT: String(rpcPort), DEPLOYMENTS_DIR: deploymentsDir };
  await run("hardhat", ["run", "--network", "localhost", "scripts/deploy.ts"], local);
  await run("hardhat", ["run", "--network", "localhost", "scripts/seed.ts"], local);
  await emulator.ready;

  return {
    rpcUrl,
    rpcPort,
    deploymentsDir,
    emulatorHost: emulator.host,
    async stop() {
      await Promise.all([kill(node), emulator.stop()]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
