import { existsSync } from "node:fs";
import path from "node:path";
import { ZeroAddress, dataSlice, getAddress, getCreateAddress, id, toBeHex } from "ethers";
import type { Provider, Signer } from "ethers";
import { USDX__factory } from "@bindings";
import { parseAddress } from "@common/addresses";
import { DeploymentManifest, validateManifest } from "@common/manifest";
import { manifestPath, readManifest, writeManifest } from "@common/manifestFile";
import { ROLES } from "@common/roles";
import { MULTIPLIER_BASE } from "@common/token";
import { BatchPaymentsDeployment, batchPaymentsProblem, deployBatchPayments } from "./batchPayments";
import { isLocalChain } from "./network";
import { formatFacts } from "@common/textTable";

/*
 * `npx hardhat usdx adopt`: the manifest of a USDX proxy someone else deployed, read from the chain
 * alone. Every field scripts/deploy.ts writes has a source on the chain: the implementation slot,
 * the admin role's events, the first block with the proxy's code, and the deployer's next contract.
 * A token with no BatchPayments of ours gets one with --deploy-batch-payments, sent by the network's
 * deployer key after every check has passed.
 */

/** ERC-1967's implementation slot: keccak256("eip1967.proxy.implementation") - 1. */
export const IMPLEMENTATION_SLOT = toBeHex(BigInt(id("eip1967.proxy.implementation")) - 1n, 32);

/** How many of the deployer's contracts after the proxy may be its BatchPayments (deploy sends it next). */
export const BATCH_PAYMENTS_SEARCH = 10;

export interface AdoptOptions {
  /** The manifest's network name (deployments/<network>.json). */
  network: string;
  /** --proxy as typed. */
  proxy: string;
  /**
   * --batch-payments as typed; without it, the manifest's own (when it describes this proxy and
   * the contract is bound to it), else the deployer's next contracts are searched.
   */
  batchPayments?: string;
  /** --deploy-batch-payments: deploy a BatchPayments for the proxy from this account instead. */
  deployer?: Signer;
  /**
   * Replace a manifest that describes another proxy; with `deployer`, also deploy although the
   * manifest or the proxy's deployer already has a BatchPayments bound to the proxy.
   */
  force?: boolean;
  /** Blocks per eth_getLogs query (providers cap the range). */
  logChunk: number;
  env?: NodeJS.ProcessEnv;
  /** Progress while deploying: the address is told as soon as the receipt is in. */
  log?: (line: string) => void;
}

export interface Adoption {
  manifest: DeploymentManifest;
  file: string;
  /** Every current DEFAULT_ADMIN_ROLE holder, longest-standing first; the first is the owner. */
  admins: string[];
  /** BatchPayments given (and checked), kept from the manifest, found among the deployer's contracts, or deployed now. */
  batchPaymentsSource: "given" | "kept" | "found" | "deployed";
  /** With --deploy-batch-payments: the new contract, and the account that sent it. */
  deployment?: BatchPaymentsDeployment & { from: string };
  /** The proxy of the manifest this one replaced under --force, if it was another. */
  replaced: string | null;
}

/**
 * Reads everything a manifest holds about `options.proxy` from the chain (with `deployer`, deploys
 * its BatchPayments once every check has passed), then writes it.
 */
export async function adoptUSDX(provider: Provider, options: AdoptOptions): Promise<Adoption> {
  const { network, logChunk, deployer, force = false, env = process.env, log = () => undefined } = options;
  const proxy = parseOption("--proxy", options.proxy);
  const givenBatch = options.batchPayments === undefined ? undefined : parseOption("--batch-payments", options.batchPayments);
  if (deployer && givenBatch !== undefined) {
    throw new Error("Pass --batch-payments (a BatchPayments that exists) or --deploy-batch-payments (a new one), not both.");
  }

  const chainId = Number((await provider.getNetwork()).chainId);
  if (deployer && isLocalChain(chainId)) {
    throw new Error(
      `--deploy-batch-payments is for a public network: on the local chain (${network}), \`npm start\` and \`npm run deploy:localhost\` deploy BatchPayments together with USDX.`,
    );
  }
  const latest = await provider.getBlockNumber();
  const implementation = await checkUSDXProxy(provider, network, proxy);
  const replaced = checkOverwrite(network, proxy, force, env);
  const listed = await listedBatchPayments(provider, network, proxy, env);
  if (deployer && listed && !force) {
    throw new Error(
      `${shownPath(network, env)} already has BatchPayments ${listed}, bound to ${proxy}: drop --deploy-batch-payments to keep it, or add --force to deploy another.`,
    );
  }
  const deploymentBlock = await findDeploymentBlock(provider, proxy, latest);
  const block = await provider.getBlock(deploymentBlock, true);
  if (!block?.hash) throw new Error(`The node returned no block ${deploymentBlock}, where ${proxy} was created: try again.`);
  const admins = await currentAdmins(provider, proxy, deploymentBlock, latest, logChunk);
  const search = () => findBatchPayments(provider, proxy, block.prefetchedTransactions, latest);

  let batchPayments: string;
  let source: Adoption["batchPaymentsSource"];
  let deployment: Adoption["deployment"];
  if (givenBatch !== undefined) {
    const problem = await batchPaymentsProblem(provider, givenBatch, proxy);
    if (problem) throw new Error(`--batch-payments ${givenBatch} ${problem}: pass the BatchPayments deployed for ${proxy}.`);
    [batchPayments, source] = [givenBatch, "given"];
  } else if (deployer) {
    const found = force ? null : await search();
    if (found) {
      throw new Error(
        `${proxy}'s deployer already created BatchPayments ${found}, bound to it: drop --deploy-batch-payments to adopt that one, or add --force to deploy another.`,
      );
    }
    const from = await deployer.getAddress();
    log(`Deploying BatchPayments for ${proxy} from ${from} on ${network}...`);
    deployment = { ...(await deployBatchPayments(deployer, proxy)), from };
    log(
      `BatchPayments for ${proxy} is deployed at ${deployment.address} (transaction ${deployment.transaction}, block ${deployment.block}).`,
    );
    [batchPayments, source] = [deployment.address, "deployed"];
  } else if (listed) {
    [batchPayments, source] = [listed, "kept"];
  } else {
    const found = await search();
    if (!found) {
      throw new Error(
        `Found no BatchPayments bound to ${proxy} among the next ${BATCH_PAYMENTS_SEARCH} contracts its deployer created: pass --batch-payments <address> of the one deployed for it, or --deploy-batch-payments to deploy one.`,
      );
    }
    [batchPayments, source] = [found, "found"];
  }

  const manifest = validateManifest(
    {
      network,
      chainId,
      proxy,
      implementation,
      // A token whose admins all renounced has no owner; the zero address says so.
      owner: admins[0] ?? ZeroAddress,
      batchPayments,
      deploymentBlock,
      deploymentBlockHash: block.hash,
      // The proxy's block time: the chain does not know when deploy.ts wrote its manifest.
      deployedAt: new Date(block.timestamp * 1000).toISOString(),
    } satisfies DeploymentManifest,
    "the adopted manifest",
  );
  const file = writeManifest(manifest, env);
  return { manifest, file, admins, batchPaymentsSource: source, deployment, replaced };
}

function parseOption(flag: string, input: string): string {
  try {
    return parseAddress(input);
  } catch (error) {
    throw new Error(`${flag} ${(error as Error).message}.`, { cause: error });
  }
}

const shownPath = (network: string, env: NodeJS.ProcessEnv) => path.relative(process.cwd(), manifestPath(network, env));

/** The BatchPayments in the network's manifest when that manifest describes `proxy` and the contract is bound to it. */
async function listedBatchPayments(provider: Provider, network: string, proxy: string, env: NodeJS.ProcessEnv): Promise<string | null> {
  let existing: DeploymentManifest;
  try {
    existing = readManifest(network, env);
  } catch {
    return null;
  }
  if (existing.proxy !== proxy) return null;
  return (await batchPaymentsProblem(provider, existing.batchPayments, proxy)) === null ? existing.batchPayments : null;
}

/** Refuses to replace a manifest of another proxy, or an unreadable one, without --force; returns that proxy. */
function checkOverwrite(network: string, proxy: string, force: boolean, env: NodeJS.ProcessEnv): string | null {
  const file = manifestPath(network, env);
  if (!existsSync(file)) return null;
  const shown = shownPath(network, env);
  let existing: DeploymentManifest;
  try {
    existing = readManifest(network, env);
  } catch {
    if (force) return null;
    throw new Error(`${shown} exists but is not a valid manifest: pass --force to replace it.`);
  }
  if (existing.proxy === proxy) return null;
  if (force) return existing.proxy;
  throw new Error(`${shown} already describes the USDX proxy ${existing.proxy}: pass --force to replace it with ${proxy}.`);
}

/** Returns the implementation behind `proxy`, or says why `proxy` is not a USDX proxy. */
async function checkUSDXProxy(provider: Provider, network: string, proxy: string): Promise<string> {
  if ((await provider.getCode(proxy)) === "0x") {
    throw new Error(`${proxy} has no code on ${network} (it is an account, not a contract): pass the address of the USDX proxy.`);
  }
  const implementation = getAddress(dataSlice(await provider.getStorage(proxy, IMPLEMENTATION_SLOT), 12));
  if (implementation === ZeroAddress) {
    throw new Error(
      `${proxy} is a contract but not an ERC-1967 proxy (its implementation slot is empty): pass the address of the USDX proxy, not of its implementation or of BatchPayments.`,
    );
  }
  const usdx = USDX__factory.connect(proxy, provider);
  // USDX's own reads: another token answers symbol, but not totalShares or rewardMultiplier.
  const answers = await Promise.all([usdx.rewardMultiplier(), usdx.totalShares(), usdx.symbol()]).catch(() => null);
  if (!answers || answers[0] < MULTIPLIER_BASE) {
    throw new Error(
      `${proxy} is an ERC-1967 proxy, but its implementation ${implementation} is not USDX (it does not answer rewardMultiplier, totalShares and symbol): pass the address of a USDX proxy.`,
    );
  }
  return implementation;
}

/** The first block where `proxy` has code: code never disappears (Cancun), so a binary search finds it. */
async function findDeploymentBlock(provider: Provider, proxy: string, latest: number): Promise<number> {
  let [low, high] = [0, latest];
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    let code: string;
    try {
      code = await provider.getCode(proxy, middle);
    } catch (error) {
      const reason = (error as { shortMessage?: string }).shortMessage ?? (error as Error).message;
      throw new Error(
        `The node could not read ${proxy}'s code at block ${middle} (${reason}): adopt needs an RPC URL that serves past state (an archive node).`,
        { cause: error },
      );
    }
    if (code === "0x") low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * DEFAULT_ADMIN_ROLE's holders, folded from its RoleGranted and RoleRevoked events in chain order
 * (the longest-standing first), then confirmed with hasRole.
 */
async function currentAdmins(provider: Provider, proxy: string, fromBlock: number, toBlock: number, logChunk: number): Promise<string[]> {
  const usdx = USDX__factory.connect(proxy, provider);
  const events: { blockNumber: number; index: number; account: string; grant: boolean }[] = [];
  for (let from = fromBlock; from <= toBlock; from += logChunk) {
    const to = Math.min(from + logChunk - 1, toBlock);
    const [granted, revoked] = await Promise.all([
      usdx.queryFilter(usdx.filters.RoleGranted(ROLES.DEFAULT_ADMIN_ROLE), from, to),
      usdx.queryFilter(usdx.filters.RoleRevoked(ROLES.DEFAULT_ADMIN_ROLE), from, to),
    ]);
    for (const [logs, grant] of [
      [granted, true],
      [revoked, false],
    ] as const) {
      for (const log of logs) events.push({ blockNumber: log.blockNumber, index: log.index, account: getAddress(log.args.account), grant });
    }
  }
  events.sort((a, b) => a.blockNumber - b.blockNumber || a.index - b.index);
  const holders = new Set<string>();
  for (const { account, grant } of events) {
    if (grant) holders.add(account);
    else holders.delete(account);
  }
  const ordered = [...holders];
  const confirmed = await Promise.all(ordered.map((account) => usdx.hasRole(ROLES.DEFAULT_ADMIN_ROLE, account)));
  return ordered.filter((_, i) => confirmed[i]);
}

/**
 * deploy.ts creates BatchPayments right after the proxy from the same account, so it sits at one
 * of that account's next CREATE addresses. A proxy made by a factory contract has no such account.
 */
async function findBatchPayments(
  provider: Provider,
  proxy: string,
  blockTransactions: readonly { to: string | null; from: string; nonce: number }[],
  latest: number,
): Promise<string | null> {
  const creation = blockTransactions.find((tx) => tx.to === null && getCreateAddress(tx) === proxy);
  if (!creation) return null;
  const sent = await provider.getTransactionCount(creation.from, latest);
  const nonces = [];
  for (let nonce = creation.nonce + 1; nonce < Math.min(sent, creation.nonce + 1 + BATCH_PAYMENTS_SEARCH); nonce++) nonces.push(nonce);
  const candidates = nonces.map((nonce) => getCreateAddress({ from: creation.from, nonce }));
  const problems = await Promise.all(candidates.map((candidate) => batchPaymentsProblem(provider, candidate, proxy)));
  return candidates.find((_, i) => problems[i] === null) ?? null;
}

/** What adopt found, as the other tasks print their facts. */
export function formatAdoption(a: Adoption): string {
  const m = a.manifest;
  const admins = a.admins.length === 0 ? "none (every admin renounced or was revoked)" : a.admins.join(", ");
  const how = {
    given: "checked: bound to the proxy",
    kept: "kept from the manifest: bound to the proxy",
    found: "found: the deployer's, bound to the proxy",
    deployed: `deployed now from ${a.deployment?.from}, bound to the proxy`,
  }[a.batchPaymentsSource];
  return formatFacts([
    ["network", `${m.network} (chain ${m.chainId})`],
    ["USDX proxy", m.proxy],
    ["implementation", m.implementation],
    ["owner", m.owner],
    ["DEFAULT_ADMIN_ROLE", admins],
    ["BatchPayments", `${m.batchPayments} (${how})`],
    ["deployment block", String(m.deploymentBlock)],
    ["block hash", m.deploymentBlockHash],
    ["deployed at", m.deployedAt],
  ]);
}
