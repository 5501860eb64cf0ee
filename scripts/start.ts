/**
 * `npm start`: the whole product on the local chain, in one command. A Hardhat node on 127.0.0.1,
 * USDX and BatchPayments deployed, the chain seeded, the Firebase Auth emulator and the API server.
 * The dashboard joins this list with its issue. Ctrl-C stops everything it started.
 * `npm start -- --fork <rpc-url>` (or FORK_URL, FORK_BLOCK): the node forks that chain, and the
 * stack runs on its live USDX when the deployments know it there, else on a replica deployed onto the fork.
 * `npm start -- --scenario <file>`: the chain starts in that scenario's state (scenarios/README.md)
 * instead of the default seed; a wrong file is refused before anything starts.
 * Every port and the log directory can be moved through the environment (scripts/lib/startSettings.ts),
 * so the fork's browser test runs this very command beside a developer's own.
 *
 * Kept to what needs the processes it starts (under ~400 lines): decisions a test can check
 * without them live in scripts/lib/ (forkOptions, fork, startSettings), and how each process is
 * started, waited for and stopped, which the tests share, in scripts/lib/stack/.
 */
import "dotenv/config";
import type { ChildProcess } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { DEFAULT_SERVER_PORT, LOCAL_CHAIN, LOCAL_RPC_HOST, envPort, localRpcPort, localRpcUrl } from "@common/networks";
import { manifestPath, readManifest } from "@common/manifestFile";
import type { ForkInfo } from "@common/manifest";
import { SEEDED_ACCOUNTS, seededAccount, seededAddresses } from "@common/seedAccounts";
import { JsonRpcProvider } from "ethers";
import { loadScenario, ScenarioFileError } from "../server/src/services/scenarios/load";
import type { Scenario } from "../server/src/services/scenarios/schema";
import { parseStartOptions, shownRpcUrl } from "./lib/forkOptions";
import { authEmulatorSettings, shownPath, startLogDir } from "./lib/startSettings";
import {
  FIREBASE_PROJECT,
  deploy,
  emulatorAnswers,
  nodeAnswers,
  runHardhat,
  runHardhatScript,
  serverHealthy,
  startApiServer,
  startAuthEmulator,
  startHardhatNode,
} from "./lib/stack/parts";
import {
  type Output,
  QUIET_ENV,
  ROOT as root,
  type StartedProcess,
  bin,
  portInUse,
  signalGroup,
  startProcess,
  waitFor,
} from "./lib/stack/processes";

const logDir = startLogDir(root);
const logOf = (log: string) => shownPath(root, path.join(logDir, log));
const env = { ...process.env, ...QUIET_ENV };
const started: ChildProcess[] = [];
const t0 = Date.now();
let stopping = false;

function elapsed(): string {
  return `${((Date.now() - t0) / 1000).toFixed(1)} s`;
}

/**
 * Starts a long-running service with `start` (in its own process group), its output in the log
 * directory's <log>. Ctrl-C stops it; if it stops by itself, everything stops.
 */
function service(name: string, log: string, start: (output: Output) => StartedProcess): ChildProcess {
  const { child } = start({ file: path.join(logDir, log) });
  started.push(child);
  child.once("exit", (code, signal) => {
    if (stopping) return;
    console.error(`\n${name} stopped (${signal ?? `exit code ${code}`}); see ${logOf(log)}. Stopping everything.`);
    stopAll();
    process.exit(1);
  });
  return child;
}

/** A Hardhat task, its output shown; Ctrl-C stops it too. */
const hardhatTask = { env, output: "inherit" as const, onStart: (child: ChildProcess) => started.push(child) };

/** Waits for a service; when it is not ready in time, says where its log is. */
const ready = (what: string, check: () => Promise<boolean>, timeoutMs: number) =>
  waitFor(what, check, timeoutMs, { hint: `see its log in ${shownPath(root, logDir)}/.` });

function stopAll(): void {
  for (const child of started) signalGroup(child, "SIGTERM");
}

/**
 * Applies a scenario file (after deploy, or on an adopted fork) and prints its report. A file's
 * Firebase test user needs the API server: the chain's part is applied before the server starts
 * (so it starts knowing the file's Safes), and the user's once it answers (`apiUrl`).
 */
async function applyScenarioFile(scenario: Scenario, rpcUrl: string, apiUrl?: string): Promise<void> {
  // Loaded only now: the engine needs the bindings the compile just wrote.
  const { applyScenario } = await import("../server/src/services/scenarios/apply");
  const { userPartThrough } = await import("../server/src/services/scenarios/user");
  const provider = new JsonRpcProvider(rpcUrl, LOCAL_CHAIN.chainId, { staticNetwork: true, pollingInterval: 250 });
  const user = apiUrl
    ? { userPart: userPartThrough({ url: apiUrl }) }
    : { userPartNote: "the Firebase test user's part is applied once the API server is up" };
  try {
    const result = await applyScenario(scenario, { provider, log: console.log, ...user });
    // The printout once: with the second apply when the file has a user.
    if (!scenario.user || apiUrl) console.log(`\n${result.report.join("\n")}\n`);
  } finally {
    provider.destroy();
  }
}

async function main(): Promise<void> {
  const { fork: forkOptions, scenario: scenarioFile } = parseStartOptions(process.argv.slice(2));
  // Checked before anything starts: a wrong file is named with its line and field.
  const scenario = scenarioFile ? loadScenario(scenarioFile) : null;
  const rpcPort = localRpcPort();
  const rpcUrl = localRpcUrl();
  const seed = async () => {
    if (scenario) await applyScenarioFile(scenario, rpcUrl);
    else await runHardhatScript("Seeding", "scripts/seed.ts", hardhatTask);
  };
  const API_PORT = envPort("SERVER_PORT", DEFAULT_SERVER_PORT);
  const DASHBOARD_PORT = envPort("DASHBOARD_PORT", 5173);
  const DASHBOARD_URL = `http://127.0.0.1:${DASHBOARD_PORT}`;
  mkdirSync(logDir, { recursive: true });
  const authEmulator = authEmulatorSettings(root, logDir);
  const ports = [rpcPort, authEmulator.port, authEmulator.hub, authEmulator.logging, API_PORT, DASHBOARD_PORT];
  const busy = (await Promise.all(ports.map(async (p) => ((await portInUse(LOCAL_RPC_HOST, p)) ? p : null)))).filter((p) => p !== null);
  if (busy.length > 0) {
    throw new Error(`Port ${busy.join(", ")} on ${LOCAL_RPC_HOST} is already in use (an earlier npm start?). Stop it first.`);
  }

  const forkFlags = forkOptions
    ? ["--fork", forkOptions.url, ...(forkOptions.block === undefined ? [] : ["--fork-block-number", String(forkOptions.block)])]
    : [];
  const forking = forkOptions
    ? ` forking ${shownRpcUrl(forkOptions.url)}${forkOptions.block === undefined ? "" : ` at block ${forkOptions.block}`}`
    : "";
  console.log(`Starting the Hardhat node${forking} and the Firebase Auth emulator, compiling the contracts...`);
  service("The Hardhat node", "hardhat-node.log", (output) =>
    startHardhatNode({ host: LOCAL_RPC_HOST, port: rpcPort, flags: forkFlags, env, output }),
  );
  service("The Auth emulator", "auth-emulator.log", (output) =>
    startAuthEmulator({ configArgs: authEmulator.configArgs, cwd: authEmulator.cwd, env, output }),
  );

  await Promise.all([
    runHardhat("Compiling the contracts", ["compile", "--quiet"], hardhatTask),
    ready("The Hardhat node", nodeAnswers(rpcUrl), 60_000),
  ]);
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
      if (scenario) await applyScenarioFile(scenario, rpcUrl);
    } else {
      console.log(`Deploying a replica onto the fork of ${fork.name}: ${prepared.reason}.`);
      await deploy(hardhatTask);
      await seed();
      recordFork(fork);
    }
  } else {
    await deploy(hardhatTask);
    await seed();
  }
  const manifest = readManifest("localhost");

  const emulatorHost = `${authEmulator.host}:${authEmulator.port}`;
  await ready("The Auth emulator", emulatorAnswers(emulatorHost), 90_000);
  const apiUrl = `http://127.0.0.1:${API_PORT}`;
  const apiEnv = {
    ...env,
    NETWORK: "localhost",
    RPC_URL: rpcUrl,
    // The node answers WebSocket on its HTTP port: its pushed heads wake the indexer and the batch watcher.
    RPC_WS_URL: rpcUrl.replace(/^http/, "ws"),
    FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
    FIREBASE_PROJECT_ID: FIREBASE_PROJECT,
    SERVER_PORT: String(API_PORT),
    // The seeded admin signs in to the dashboard as an admin (its wallet gets the admin claim).
    // On an adopted fork the owner is the live token's: the seeded admin signs in as an admin too.
    ADMIN_WALLETS:
      process.env.ADMIN_WALLETS ||
      [...new Set([manifest.owner, seededAddresses()[SEEDED_ACCOUNTS.indexOf(seededAccount("admin"))]])].join(","),
    // SIWE messages are bound to the dashboard's origin.
    DASHBOARD_ORIGIN: process.env.DASHBOARD_ORIGIN || `${DASHBOARD_URL},http://localhost:${DASHBOARD_PORT}`,
    // The dashboard here is Vite's, live; an old `npm run build` served on the API's port would only mislead.
    DASHBOARD_DIST: "off",
  };
  service("The API server", "api.log", (output) => startApiServer({ env: apiEnv, output }));
  const dashboardEnv = { ...env, DASHBOARD_PORT: String(DASHBOARD_PORT), SERVER_PORT: String(API_PORT) };
  service("The dashboard", "dashboard.log", (output) =>
    startProcess(bin("vite"), ["--config", "frontend/vite.config.mts"], { env: dashboardEnv, output }),
  );
  await ready("The API server", serverHealthy(apiUrl), 60_000);
  if (scenario?.user) {
    console.log("Applying the scenario's Firebase test user through the API server...");
    await applyScenarioFile(scenario, rpcUrl, apiUrl);
  }
  await ready("The dashboard", async () => (await fetch(`${DASHBOARD_URL}/api/config`)).ok, 60_000);

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
  // A wrong scenario file, as the scenario CLI says it.
  process.exit(error instanceof ScenarioFileError ? 2 : 1);
});
