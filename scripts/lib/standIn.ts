/**
 * A stand-in for Sepolia, offline: a Hardhat node reporting chain id 11155111 on which the project's
 * own `npm run deploy:sepolia` deploys USDX, and Hardhat nodes that fork it. Shared by the tests of
 * the fork and of adopt (test/), the fork's browser test (e2e/network/fork.e2e.ts) and the
 * Sepolia-shaped rehearsal (rehearsal.ts, a command too: hence scripts/lib). It runs under plain
 * mocha and ts-node: nothing here may import `hardhat`.
 */
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { HDNodeWallet } from "ethers";
import type { DeploymentManifest } from "@common/manifest";
import { readManifest } from "@common/manifestFile";
import { SEPOLIA, chainIdHex } from "@common/networks";
import { LOCAL_DEV_MNEMONIC, localAccountPath } from "@common/seedAccounts";
import { startHardhatNode } from "./stack/parts";
import { QUIET, ROOT, bin, freePort, rpc, runProcess, stopProcess } from "./stack/processes";

export { QUIET, ROOT };
export const HARDHAT = bin("hardhat");
export const STAND_IN_CONFIG = path.join(ROOT, "test", "fixtures", "sepolia-chain-id.hardhat.config.js");
/** The deployer: the mnemonic's account 0, which the stand-in node also signs for. */
export const DEPLOYER = HDNodeWallet.fromPhrase(LOCAL_DEV_MNEMONIC, undefined, localAccountPath(0));
// An owner outside the node's twenty accounts: only impersonation can act for it on a fork.
export const OWNER = HDNodeWallet.fromPhrase(LOCAL_DEV_MNEMONIC, undefined, localAccountPath(40)).address;

export interface RunningNode {
  url: string;
  child: ChildProcess;
  /** Stops the node's whole process group. */
  stop(): Promise<void>;
}

/** A Hardhat node on a free port, in its own process group: `config` before the task, `flags` after it. */
export async function startNode(config: string[], flags: string[] = []): Promise<RunningNode> {
  const port = await freePort();
  const { child } = startHardhatNode({ host: "127.0.0.1", port, config, flags, env: { ...process.env, ...QUIET }, output: "ignore" });
  return { url: `http://127.0.0.1:${port}`, child, stop: () => stopProcess(child) };
}

/** Waits until the node at `url` answers with `chainId`; fails at once if `child` exits. */
export async function waitForChain(url: string, chainId: number, child?: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while ((await rpc<string>(url, "eth_chainId").catch(() => null)) !== chainIdHex(chainId)) {
    if (child && child.exitCode !== null) throw new Error(`The node for chain ${chainId} at ${url} exited (code ${child.exitCode}).`);
    if (Date.now() > deadline) throw new Error(`No node with chain ${chainId} at ${url}.`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The stand-in Sepolia, answering. */
export async function startStandIn(): Promise<RunningNode> {
  const node = await startNode(["--config", STAND_IN_CONFIG]);
  await waitForChain(node.url, SEPOLIA.chainId, node.child);
  return node;
}

/** Runs a command in the repo to completion; its output, stdout and stderr together. */
export function run(command: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return runProcess(command, args, { output: "capture", cwd: ROOT, env: { ...process.env, ...QUIET, ...env } }).finished;
}

/**
 * `npm run deploy:sepolia` onto the stand-in at `url`, as an operator runs it: the deployer's key,
 * `owner` as USDX_OWNER, the manifest into `deploymentsDir`. Returns the manifest it wrote.
 */
export async function deployToStandIn(url: string, deploymentsDir: string, owner: string = OWNER): Promise<DeploymentManifest> {
  const deploy = await run("npm", ["run", "deploy:sepolia"], {
    SEPOLIA_RPC_URL: url,
    DEPLOYER_PRIVATE_KEY: DEPLOYER.privateKey,
    DEPLOYMENTS_DIR: deploymentsDir,
    USDX_OWNER: owner,
  });
  if (deploy.code !== 0) throw new Error(`npm run deploy:sepolia failed:\n${deploy.output}`);
  return readManifest(SEPOLIA.network, { DEPLOYMENTS_DIR: deploymentsDir });
}
