/**
 * `npm start`: the whole product on the local chain, in one command. For now: a Hardhat node on
 * 127.0.0.1, USDX and BatchPayments deployed, the chain seeded. Later: the auth emulator, the API
 * server and the dashboard join the same list of services. Ctrl-C stops everything it started.
 */
import { ChildProcess, spawn } from "node:child_process";
import { createWriteStream, mkdirSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { LOCAL_CHAIN, LOCAL_RPC_HOST, localRpcPort, localRpcUrl } from "../common/networks";

const root = path.resolve(__dirname, "..");
const hardhatBin = path.join(root, "node_modules", ".bin", "hardhat");
const logDir = path.join(root, ".local");
const env = { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: "true" };
const started: ChildProcess[] = [];
const t0 = Date.now();

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

/** Runs a command to completion with its output shown; rejects with `what` on failure. */
function run(what: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(hardhatBin, args, { cwd: root, env, stdio: "inherit" });
    started.push(child);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${what} failed (exit code ${code}).`))));
  });
}

async function waitForRpc(url: string, node: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (node.exitCode !== null) throw new Error(`The Hardhat node exited (code ${node.exitCode}); see .local/hardhat-node.log.`);
    try {
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`The Hardhat node did not answer at ${url} within ${timeoutMs / 1000} s.`);
}

function stopAll(): void {
  for (const child of started) if (child.exitCode === null) child.kill("SIGTERM");
}

async function main(): Promise<void> {
  const port = localRpcPort();
  const url = localRpcUrl();
  if (await portInUse(port)) {
    throw new Error(`Port ${port} on ${LOCAL_RPC_HOST} is already in use (another node?). Stop it, or set LOCAL_RPC_PORT.`);
  }
  mkdirSync(logDir, { recursive: true });
  const nodeLog = createWriteStream(path.join(logDir, "hardhat-node.log"));

  console.log(`Starting the Hardhat node on ${url} and compiling the contracts...`);
  const node = spawn(hardhatBin, ["node", "--hostname", LOCAL_RPC_HOST, "--port", String(port)], { cwd: root, env });
  started.push(node);
  node.stdout?.pipe(nodeLog);
  node.stderr?.pipe(nodeLog);
  node.once("exit", (code, signal) => {
    if (!stopping) {
      console.error(`\nThe Hardhat node stopped (${signal ?? `exit code ${code}`}); see .local/hardhat-node.log. Stopping.`);
      stopAll();
      process.exit(1);
    }
  });

  await Promise.all([run("Compiling the contracts", ["compile", "--quiet"]), waitForRpc(url, node, 60_000)]);
  await run("Deploying", ["run", "--network", "localhost", "scripts/deploy.ts"]);
  await run("Seeding", ["run", "--network", "localhost", "scripts/seed.ts"]);

  console.log(`
Ready in ${elapsed()}.
  Hardhat node   ${url} (chain ${LOCAL_CHAIN.chainId}); its log is .local/hardhat-node.log
  manifest       deployments/localhost.json
  operate        npx hardhat usdx status --network localhost   (and mint, burn, block, pause, ...)
Press Ctrl-C to stop.`);
}

let stopping = false;
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
