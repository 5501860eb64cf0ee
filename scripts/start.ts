/**
 * `npm start`: the whole product on the local chain, in one command. A Hardhat node on 127.0.0.1,
 * USDX and BatchPayments deployed, the chain seeded, the Firebase Auth emulator and the API server.
 * The dashboard joins this list with its issue. Ctrl-C stops everything it started.
 * `npm start -- --fork <rpc-url>` (or FORK_URL, FORK_BLOCK): the node forks that chain, and the
 * stack runs on its live USDX when the deployments know it there, else on a replica deployed onto the fork.
 * Every port and the log directory can be moved through the environment (scripts/lib/startSettings.ts),
 * so the fork's browser test runs this very command beside a developer's own.
 *
 * Kept to what needs the processes it starts (under ~400 lines): decisions a test can check
 * without them live in scripts/lib/ (forkOptions, fork, startSettings).
 */
import "dotenv/config";
import { ChildProcess, spawn } from "node:child_process";
import { createWriteStream, mkdirSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { LOCAL_CHAIN, LOCAL_RPC_HOST, envPort, localRpcPort, localRpcUrl } from "@common/networks";
import { manifestPath, readManifest } from "@common/manifestFile";
import type { ForkInfo } from "@common/manifest";
import { SEEDED_ACCOUNTS, seededAccount, seededAddresses } from "@common/seedAccounts";
import { parseForkOptions, shownRpcUrl } from "./lib/forkOptions";
import { authEmulatorSettings, shownPath, startLogDir } from "./lib/startSettings";

const root = path.resolve(__dirname, "..");
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);
const logDir = startLogDir(root);
const logOf = (log: string) => shownPath(root, path.join(logDir, log));
const env = { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: "true", CI: "true", NO_UPDATE_NOTIFIER: "1" };
const started: ChildProcess[] = [];
const t0 = Date.now();
let stopping = false;

const FIREBASE_PROJECT = "demo-usdx";

function elapsed(): string {
  return `${((Date.now() - t0) / 1000).toFixed(1)} s`;
}

function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: LOCAL_RPC_HOST, port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** Starts a long-running service in its own process group, its output in the log directory's <log>. */
function service(name: string, command: string, args: string[], log: string, extraEnv: NodeJS.ProcessEnv = {}, cwd = root): ChildProcess {
  const out = createWriteStream(path.join(logDir, log));
  const child = spawn(command, args, { cwd, env: { ...env, ...extraEnv }, detached: true });
  started.push(child);
  child.stdout?.pipe(out);
  child.stderr?.pipe(out);
  child.once("exit", (code, signal) => {
    if (stopping) return;
    console.error(`\n${name} stopped (${signal ?? `exit code ${code}`}); see ${logOf(log)}. Stopping everything.`);
    stopAll();
    process.exit(1);
  });
  return child;
}

/** Runs a command to completion with its output shown; rejects with `what` on failure. */
function run(what: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin("hardhat"), args, { cwd: root, env, stdio: "inherit" });
    started.push(child);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${what} failed (exit code ${code}).`))));
  });
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what} did not become ready within ${timeoutMs / 1000} s; see its log in ${shownPath(root, logDir)}/.`);
}

const rpcAnswers = (url: string) => async () =>
  (
    await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
    })
  ).ok;

async function deployAndSeed(): Promise<void> {
  await run("Deploying", ["run", "--network", "localhost", "scripts/deploy.ts"]);
  await run("Seeding", ["run", "--network", "localhost", "scripts/seed.ts"]);
}

function stopAll(): void {
  for (const child of started) {
    if (child.exitCode !== null || child.pid === undefined) continue;
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      child.kill("SIGTERM");
    }
  }
}

async function main(): Promise<void> {
  const forkOptions = parseForkOptions(process.argv.slice(2));
  const rpcPort = localRpcPort();
  const rpcUrl = localRpcUrl();
  const API_PORT = envPort("SERVER_PORT", 3001);
  const DASHBOARD_PORT = envPort("DASHBOARD_PORT", 5173);
  const DASHBOARD_URL = `http://127.0.0.1:${DASHBOARD_PORT}`;
  mkdirSync(logDir, { recursive: true });
  const authEmulator = authEmulatorSettings(root, logDir);
  const ports = [rpcPort, authEmulator.port, authEmulator.hub, authEmulator.logging, API_PORT, DASHBOARD_PORT];
  const busy = (await Promise.all(ports.map(async (p) => ((await portInUse(p)) ? p : null)))).filter((p) => p !== null);
  if (busy.length > 0) {
    throw new Error(`Port ${busy.join(", ")} on ${LOCAL_RPC_HOST} is already in use (an earlier npm start?). Stop it first.`);
  }

  const forkFlags = forkOptions
    ? ["--fork", forkOptions.url, ...(forkOptions.block === undefined ? [] : ["--fork-block-number", String(forkOptions.block)])]
    : [];
  const forking = forkOptions ? ` forking ${shownRpcUrl(forkOptions.url)}${forkOptions.block === undefined ? "" : ` at block ${forkOptions.block}`}` : "";
  console.log(`Starting the Hardhat node${forking} and the Firebase Auth emulator, compiling the contracts...`);
  service("The Hardhat node", bin("hardhat"), ["node", "--hostname", LOCAL_RPC_HOST, "--port", String(rpcPort), ...forkFlags], "hardhat-node.log");
  service("The Auth emulator", bin("firebase"), ["emulators:start", "--only", "auth", "--project", FIREBASE_PROJECT, ...authEmulator.configArgs], "auth-emulator.log", {}, authEmulator.cwd);

  await Promise.all([run("Compiling the contracts", ["compile", "--quiet"]), waitFor("The Hardhat node", rpcAnswers(rpcUrl), 60_000)]);
  let fork: ForkInfo | null = null;
  let adopted = false;
  if (forkOptions) {
    // Loaded only now: it needs the bindings the compile just wrote.
    const { prepareFork, recordFork } = await import("./lib/fork");
    const prepared = await prepareFork({ rpcUrl, upstreamUrl: forkOptions.url, log: console.log });
    fork = prepared.fork;
    if (prepared.kind === "adopted") {
      adopted = true;
      console.log(`Adopted the live USDX at ${prepared.manifest.proxy} on the fork of ${fork.name} at block ${fork.block}.`);
    } else {
      console.log(`Deploying a replica onto the fork of ${fork.name}: ${prepared.reason}.`);
      await deployAndSeed();
      recordFork(fork);
    }
  } else {
    await deployAndSeed();
  }
  const manifest = readManifest("localhost");

  const emulatorHost = `${authEmulator.host}:${authEmulator.port}`;
  await waitFor("The Auth emulator", async () => (await fetch(`http://${emulatorHost}/`)).ok, 90_000);
  const apiUrl = `http://127.0.0.1:${API_PORT}`;
  service("The API server", process.execPath, [bin("ts-node"), "--transpile-only", "server/src/index.ts"], "api.log", {
    NETWORK: "localhost",
    RPC_URL: rpcUrl,
    FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
    FIREBASE_PROJECT_ID: FIREBASE_PROJECT,
    SERVER_PORT: String(API_PORT),
    // The seeded admin signs in to the dashboard as an admin (its wallet gets the admin claim).
    // On an adopted fork the owner is the live token's: the seeded admin signs in as an admin too.
    ADMIN_WALLETS: process.env.ADMIN_WALLETS || [...new Set([manifest.owner, seededAddresses()[SEEDED_ACCOUNTS.indexOf(seededAccount("admin"))]])].join(","),
    // SIWE messages are bound to the dashboard's origin.
    DASHBOARD_ORIGIN: process.env.DASHBOARD_ORIGIN || `${DASHBOARD_URL},http://localhost:${DASHBOARD_PORT}`,
    // The dashboard here is Vite's, live; an old `npm run build` served on the API's port would only mislead.
    DASHBOARD_DIST: "off",
  });
  service("The dashboard", bin("vite"), ["--config", "frontend/vite.config.mts"], "dashboard.log", {
    DASHBOARD_PORT: String(DASHBOARD_PORT),
    SERVER_PORT: String(API_PORT),
  });
  await waitFor("The API server", async () => (await fetch(`${apiUrl}/api/health`)).status === 200, 60_000);
  await waitFor("The dashboard", async () => (await fetch(`${DASHBOARD_URL}/api/config`)).ok, 60_000);

  console.log(`
Ready in ${elapsed()}. Open the dashboard: ${DASHBOARD_URL}
  (sign up with any email and password; connect the Development wallet to act as a seeded account)
  Dashboard           ${DASHBOARD_URL}   log: ${logOf("dashboard.log")}
  Hardhat node        ${rpcUrl} (chain ${LOCAL_CHAIN.chainId}${fork ? `, a fork of ${fork.name} at block ${fork.block}` : ""})          log: ${logOf("hardhat-node.log")}
  Auth emulator       http://${emulatorHost} (project ${FIREBASE_PROJECT})   log: ${logOf("auth-emulator.log")}
  API server          ${apiUrl}/api  (health: ${apiUrl}/api/health)   log: ${logOf("api.log")}
  manifest            ${shownPath(root, manifestPath(LOCAL_CHAIN.network))}${fork ? ` (${adopted ? "the live USDX" : "a replica"} at ${manifest.proxy})` : ""}
  operate the token   npx hardhat usdx status --network localhost   (and mint, burn, block, pause, ...)
Press Ctrl-C to stop.`);
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    stopping = true;
    console.log("\nStopping...");
    stopAll();
    process.exit(0);
  });
}

main().catch((error: unknown) => {
  stopping = true;
  console.error(`\n${error instanceof Error ? error.message : String(error)}`);
  stopAll();
  process.exit(1);
});
