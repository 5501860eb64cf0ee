import { readdirSync } from "node:fs";
import path from "node:path";
import { Contract, JsonRpcProvider, JsonRpcSigner, ZeroAddress, dataSlice, getAddress, parseEther, toQuantity } from "ethers";
import { USDX__factory } from "@bindings";
import { exactTokenAmount, parseTokenAmount } from "@common/amounts";
import type { DeploymentManifest, ForkInfo } from "@common/manifest";
import { deploymentsDir, readManifest, writeManifest } from "@common/manifestFile";
import { LOCAL_CHAIN, chainById } from "@common/networks";
import { ROLES } from "@common/roles";
import { SAFE_INTERFACE } from "@common/safe";
import { SEEDED_ACCOUNTS, SEEDED_SAFE, seededAccount, seededAddresses } from "@common/seedAccounts";
import { IMPLEMENTATION_SLOT } from "./adopt";

/*
 * `npm start -- --fork <rpc-url>`: a Hardhat node forking another chain. When the deployments hold
 * a manifest for that chain whose proxy has code at the fork block, the stack runs on that live
 * USDX: its admin is impersonated on the fork to hand the seeded accounts their roles and balances,
 * and each Safe the manifest names is impersonated to make the seeded Safe owners its owners.
 * Nothing of this reaches the upstream: impersonation and balances are the fork node's own.
 */

/** ETH for the impersonated admin: enough for a few dozen grants. */
export const FORK_ADMIN_ETH = parseEther("10");
/** ETH for each seeded account: what Hardhat gives its own accounts. */
export const FORK_ACCOUNT_ETH = parseEther("10000");

export interface PrepareForkOptions {
  /** The Hardhat node that forks the upstream. */
  rpcUrl: string;
  /** The forked chain's RPC URL (asked only for its chain id). */
  upstreamUrl: string;
  /** Where to look for the upstream's manifest and write the fork's; deployments/ or DEPLOYMENTS_DIR by default. */
  deploymentsDir?: string;
  log?: (line: string) => void;
}

export type ForkPreparation =
  /** The live USDX, adopted: localhost.json describes it, the seeded accounts hold their roles. */
  | { kind: "adopted"; fork: ForkInfo; manifest: DeploymentManifest; file: string }
  /** No live USDX to adopt: the caller deploys the replica and seeds it, then calls recordFork. */
  | { kind: "replica"; fork: ForkInfo; reason: string };

interface HardhatMetadata {
  forkedNetwork?: { chainId: number; forkBlockNumber: number; forkBlockHash: string };
}

export async function prepareFork(options: PrepareForkOptions): Promise<ForkPreparation> {
  const log = options.log ?? (() => undefined);
  const env = options.deploymentsDir ? { ...process.env, DEPLOYMENTS_DIR: options.deploymentsDir } : process.env;
  const fork = new JsonRpcProvider(options.rpcUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
  const upstream = new JsonRpcProvider(options.upstreamUrl, undefined, { staticNetwork: true });
  try {
    const upstreamChainId = Number(await upstream.send("eth_chainId", []));
    const metadata = (await fork.send("hardhat_metadata", [])) as HardhatMetadata;
    if (!metadata.forkedNetwork) throw new Error(`The node at ${options.rpcUrl} is not a fork (hardhat_metadata names no forked network).`);
    const forkInfo: ForkInfo = {
      chainId: upstreamChainId,
      name: chainById(upstreamChainId)?.label ?? `chain ${upstreamChainId}`,
      block: metadata.forkedNetwork.forkBlockNumber,
    };

    const live = findManifest(upstreamChainId, env);
    if (!live)
      return { kind: "replica", fork: forkInfo, reason: `no manifest in the deployments for ${forkInfo.name} (chain ${upstreamChainId})` };
    if ((await fork.getCode(live.proxy)) === "0x") {
      return {
        kind: "replica",
        fork: forkInfo,
        reason: `the ${live.network} manifest's proxy ${live.proxy} has no code at block ${forkInfo.block}`,
      };
    }
    if (live.deploymentBlock > forkInfo.block) {
      return { kind: "replica", fork: forkInfo, reason: `the ${live.network} manifest's deployment is after block ${forkInfo.block}` };
    }

    log(`Adopting the live USDX at ${live.proxy} (${live.network} manifest) on the fork of ${forkInfo.name} at block ${forkInfo.block}:`);
    await seedLiveToken(fork, live, log);
    const implementation = getAddress(dataSlice(await fork.getStorage(live.proxy, IMPLEMENTATION_SLOT), 12));
    const manifest: DeploymentManifest = {
      ...live,
      network: LOCAL_CHAIN.network,
      // The fork's own id: a wallet must never take it for the real network and sign there.
      chainId: LOCAL_CHAIN.chainId,
      // The proxy may have been upgraded since the manifest was written: the fork knows.
      implementation: implementation === ZeroAddress ? live.implementation : implementation,
      fork: forkInfo,
    };
    const file = writeManifest(manifest, env);
    return { kind: "adopted", fork: forkInfo, manifest, file };
  } finally {
    fork.destroy();
    upstream.destroy();
  }
}

/** Adds the fork's description to the replica's localhost.json, once deploy has written it. */
export function recordFork(fork: ForkInfo, deploymentsDirectory?: string): DeploymentManifest {
  const env = deploymentsDirectory ? { ...process.env, DEPLOYMENTS_DIR: deploymentsDirectory } : process.env;
  const manifest = { ...readManifest(LOCAL_CHAIN.network, env), fork };
  writeManifest(manifest, env);
  return manifest;
}

/** The first readable manifest in the deployments for `chainId`, its own network's file first. */
function findManifest(chainId: number, env: NodeJS.ProcessEnv): DeploymentManifest | null {
  const known = chainById(chainId)?.network;
  let names: string[];
  try {
    names = readdirSync(deploymentsDir(env))
      .filter((f) => f.endsWith(".json"))
      .map((f) => path.basename(f, ".json"));
  } catch {
    return null;
  }
  names.sort((a, b) => Number(b === known) - Number(a === known));
  for (const name of names) {
    try {
      const manifest = readManifest(name, env);
      if (manifest.chainId === chainId) return manifest;
    } catch {
      // An unreadable manifest is not this chain's; the others may be.
    }
  }
  return null;
}

/**
 * The seed of scripts/seed.ts, on a token someone else owns: the admin, impersonated, grants the
 * seeded accounts their roles; the seeded minter tops up the holders; the blocklister blocks.
 * Each step is skipped where the chain already has it, so a second run changes nothing.
 */
export async function seedLiveToken(fork: JsonRpcProvider, live: DeploymentManifest, log: (line: string) => void): Promise<void> {
  const usdx = USDX__factory.connect(live.proxy, fork);
  if (!(await usdx.hasRole(ROLES.DEFAULT_ADMIN_ROLE, live.owner))) {
    throw new Error(
      `The manifest's owner ${live.owner} no longer holds DEFAULT_ADMIN_ROLE on the fork: nobody to grant the seeded accounts their roles.`,
    );
  }
  const addresses = seededAddresses();
  const addressOf = (name: string) => addresses[seededAccount(name).index];
  const send = async (label: string, tx: Promise<{ wait: () => Promise<unknown> }>) => {
    await (await tx).wait();
    log(`  ${label}`);
  };

  for (const address of addresses) await fork.send("hardhat_setBalance", [address, toQuantity(FORK_ACCOUNT_ETH)]);
  log(`  ${FORK_ACCOUNT_ETH / 10n ** 18n} ETH to each seeded account`);

  await fork.send("hardhat_impersonateAccount", [live.owner]);
  try {
    await fork.send("hardhat_setBalance", [live.owner, toQuantity(FORK_ADMIN_ETH)]);
    // Not fork.getSigner: ethers asks eth_accounts, which does not list impersonated accounts.
    const asAdmin = usdx.connect(new JsonRpcSigner(fork, live.owner));
    for (const account of SEEDED_ACCOUNTS) {
      for (const role of account.roles) {
        if (await usdx.hasRole(ROLES[role], addresses[account.index])) continue;
        await send(
          `grant ${role} to ${account.name} (as the admin ${live.owner})`,
          asAdmin.grantRole(ROLES[role], addresses[account.index]),
        );
      }
    }
  } finally {
    await fork.send("hardhat_stopImpersonatingAccount", [live.owner]);
  }

  if (await usdx.paused()) {
    log(`  USDX is paused at the fork block: the seeded holders get no test balances (the pauser can unpause it).`);
  } else {
    const asMinter = usdx.connect(await fork.getSigner(addressOf("minter")));
    for (const account of SEEDED_ACCOUNTS.filter((a) => a.funds)) {
      const address = addresses[account.index];
      const wanted = parseTokenAmount(account.funds!);
      const held = await usdx.balanceOf(address);
      if (held >= wanted || (await usdx.isBlocked(address))) continue;
      await send(`mint ${exactTokenAmount(wanted - held)} USDX to ${account.name}`, asMinter.mint(address, wanted - held));
    }
  }
  for (const named of live.safes ?? []) await adoptSafe(fork, named, log);
  const asBlocklister = usdx.connect(await fork.getSigner(addressOf("blocklister")));
  for (const account of SEEDED_ACCOUNTS.filter((a) => a.blocked)) {
    if (await usdx.isBlocked(addresses[account.index])) continue;
    await send(`block ${account.name}`, asBlocklister.blockAccount(addresses[account.index]));
  }
}

/**
 * A Safe that holds roles upstream, made the seeded owners' on the fork: the Safe itself is
 * impersonated (its owner functions are `authorized`: callable by the Safe only) to add the
 * seeded Safe owners, keeping its threshold, lowered only when they could not reach it. The
 * upstream's owners stay owners; a second run changes nothing.
 */
export async function adoptSafe(
  fork: JsonRpcProvider,
  named: { name: string; address: string },
  log: (line: string) => void,
): Promise<void> {
  const read = new Contract(named.address, SAFE_INTERFACE, fork);
  let owners: string[];
  let threshold: bigint;
  try {
    [owners, threshold] = await Promise.all([read.getOwners() as Promise<string[]>, read.getThreshold() as Promise<bigint>]);
  } catch {
    log(`  ${named.name} (${named.address}) is not a Safe at the fork block: its owners are left alone.`);
    return;
  }
  const addresses = seededAddresses();
  const seeded = SEEDED_SAFE.owners.map((name) => addresses[seededAccount(name).index]);
  const missing = seeded.filter((a) => !owners.some((o) => getAddress(o) === a));
  const reachable = BigInt(seeded.length);
  if (missing.length === 0 && threshold <= reachable) return;
  await fork.send("hardhat_impersonateAccount", [named.address]);
  try {
    await fork.send("hardhat_setBalance", [named.address, toQuantity(FORK_ADMIN_ETH)]);
    const asSafe = read.connect(new JsonRpcSigner(fork, named.address)) as Contract;
    for (const owner of missing) {
      await (await asSafe.getFunction("addOwnerWithThreshold")(owner, threshold)).wait();
      log(`  make ${SEEDED_SAFE.owners[seeded.indexOf(owner)]} an owner of ${named.name} (as the Safe ${named.address})`);
    }
    if (threshold > reachable) {
      await (await asSafe.getFunction("changeThreshold")(reachable)).wait();
      log(`  lower ${named.name}'s threshold from ${threshold} to ${reachable}, so the seeded owners can reach it`);
    }
  } finally {
    await fork.send("hardhat_stopImpersonatingAccount", [named.address]);
  }
}
