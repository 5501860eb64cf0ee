/**
 * The parts of the local stack, each started one way for `npm start` and for the tests: the Hardhat
 * node, the Firebase Auth emulator, the contracts deployed and seeded onto the node, and the API
 * server; each with the check that says it is ready. Where they listen and where their output goes
 * is the caller's: `npm start` uses fixed ports and log files, the tests free ports and no logs.
 */
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { bin, type Output, ROOT, rpc, runProcess, type StartedProcess, startProcess } from "./processes";

/** The Auth emulator's project: a demo- project, which the emulator serves without any credentials. */
export const FIREBASE_PROJECT = "demo-usdx";

/** `hardhat node` on host:port; `config` goes before the task (--config ...), `flags` after it (--fork ...). */
export function startHardhatNode(options: {
  host: string;
  port: number;
  flags?: string[];
  config?: string[];
  env: NodeJS.ProcessEnv;
  output: Output;
}): StartedProcess {
  const { host, port, flags = [], config = [], env, output } = options;
  return startProcess(bin("hardhat"), [...config, "node", "--hostname", host, "--port", String(port), ...flags], { env, output });
}

/** Ready: the node answers eth_chainId. */
export const nodeAnswers = (url: string) => () => rpc(url, "eth_chainId").then(() => true);

/** The Firebase Auth emulator; `configArgs` (`--config <file>`) when its ports are not firebase.json's, `cwd` where it leaves its debug log. */
export function startAuthEmulator(options: { configArgs: string[]; cwd: string; env: NodeJS.ProcessEnv; output: Output }): StartedProcess {
  const { configArgs, cwd, env, output } = options;
  // Its request schemas compiled on first use, not all at start (lazyAuthSchemas.cjs says why).
  const preload = `--require ${JSON.stringify(path.join(__dirname, "lazyAuthSchemas.cjs"))}`;
  return startProcess(bin("firebase"), ["emulators:start", "--only", "auth", "--project", FIREBASE_PROJECT, ...configArgs], {
    cwd,
    env: { ...env, NODE_OPTIONS: [env.NODE_OPTIONS, preload].filter(Boolean).join(" ") },
    output,
  });
}

/** Ready: the emulator at host:port answers. */
export const emulatorAnswers = (host: string) => () => fetch(`http://${host}/`).then((r) => r.ok);

type RunOptions = { env: NodeJS.ProcessEnv; output: "inherit" | "capture"; onStart?: (child: ChildProcess) => void };

/**
 * `command` run to completion (`npm start` shows its output, the tests keep it for the error);
 * rejects with `what` (and `shown`, the command as a person would type it, with the output kept)
 * when it fails. `onStart` gets the process, to stop it on Ctrl-C.
 */
async function runToEnd(what: string, command: string, args: string[], shown: string, { env, output, onStart }: RunOptions): Promise<void> {
  const { child, finished } = runProcess(command, args, { env, output });
  onStart?.(child);
  const { code, output: text } = await finished;
  if (code === 0) return;
  throw new Error(output === "inherit" ? `${what} failed (exit code ${code}).` : `${what} (${shown}) failed:\n${text}`);
}

/** A Hardhat task run to completion (runToEnd). */
export function runHardhat(what: string, args: string[], options: RunOptions): Promise<void> {
  return runToEnd(what, bin("hardhat"), args, `hardhat ${args.join(" ")}`, options);
}

/**
 * A script under scripts/ run to completion against the node `env` points the localhost network at
 * (LOCAL_RPC_PORT), in the process `hardhat run --network localhost` would start for it: Node with
 * ts-node and Hardhat's register, HARDHAT_NETWORK set. Without `hardhat run` itself, which loads
 * Hardhat and this project's config (about 2 s of CPU) and checks the compile only to start that
 * same process, which loads them again: `npm start` deploys and seeds, and each test stack deploys
 * and seeds. The contracts must be compiled already: npm start and npm test compile them first.
 */
export function runHardhatScript(what: string, script: string, options: RunOptions): Promise<void> {
  const args = ["--require", "ts-node/register/transpile-only", "--require", require.resolve("hardhat/register"), script];
  return runToEnd(what, process.execPath, args, script, { ...options, env: { ...options.env, HARDHAT_NETWORK: "localhost" } });
}

/**
 * USDX and BatchPayments deployed to the node `env` points the localhost network at
 * (LOCAL_RPC_PORT), the manifest written (DEPLOYMENTS_DIR), and the chain seeded
 * (scenarios/default.yaml).
 */
export function deployAndSeed(options: RunOptions): Promise<void> {
  return runHardhatScript("Deploying and seeding", "scripts/deployAndSeed.ts", options);
}

/** USDX and BatchPayments deployed, unseeded: `npm start -- --scenario` applies its own file next. */
export function deploy(options: RunOptions): Promise<void> {
  return runHardhatScript("Deploying", "scripts/deploy.ts", options);
}

/**
 * The API server's own entry point (server/src/index.ts) in a process of its own, its TypeScript
 * loaded by tsx (esbuild: it loads the server in about a third of ts-node's time, which the tests
 * that start and kill server processes pay again and again); its settings are `env`'s (NETWORK,
 * RPC_URL, SERVER_PORT, ...).
 */
export function startApiServer(options: { env: NodeJS.ProcessEnv; output: Output; group?: boolean }): StartedProcess {
  return startProcess(process.execPath, ["--import", "tsx", path.join(ROOT, "server", "src", "index.ts")], options);
}

/** Ready: /api/health answers 200 (the database opened, the chain answers, the indexer stored a checkpoint). */
export const serverHealthy = (url: string) => () => fetch(`${url}/api/health`).then((r) => r.status === 200);
