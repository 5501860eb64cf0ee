import { Contract, JsonRpcProvider, getAddress, zeroPadValue, type JsonRpcApiProvider } from "ethers";
import { USDX__factory, type USDX } from "@bindings";
import type { DeploymentManifest, SafeContracts } from "@common/manifest";
import { LOCAL_CHAIN, describeChain } from "@common/networks";
import { ROLE_NAMES, ROLES, roleNameOfHash, type RoleName } from "@common/roles";
import { SAFE_INTERFACE } from "@common/safe";

/*
 * What the planner reads from the chain before it plans: the chain id (local only), who holds each
 * role (from the RoleGranted and RoleRevoked logs since the deployment, confirmed with hasRole),
 * the named accounts' shares and blocklist entries, the scenario's Safes, whether a history is made.
 */

/** Refuses any node but the local chain or a fork of it (a fork keeps chain 31337), before anything is sent. */
export async function assertLocalChain(provider: JsonRpcApiProvider): Promise<number> {
  const chainId = Number(await provider.send("eth_chainId", []));
  if (chainId !== LOCAL_CHAIN.chainId) {
    throw new Error(
      `This node is ${describeChain(chainId)}, not the local chain (${LOCAL_CHAIN.chainId}) or a fork of it: a scenario sends as any account it names through the node, so it runs only there. Nothing was sent.`,
    );
  }
  return chainId;
}

/** Each role's holders now: every address a RoleGranted log names, kept where hasRole still says so. */
export async function readRoleHolders(usdx: USDX, manifest: DeploymentManifest): Promise<Record<RoleName, string[]>> {
  const granted = usdx.interface.getEvent("RoleGranted").topicHash;
  const logs = await usdx.runner!.provider!.getLogs({ address: manifest.proxy, fromBlock: manifest.deploymentBlock, topics: [granted] });
  const candidates = new Map<RoleName, Set<string>>(ROLE_NAMES.map((r) => [r, new Set<string>()]));
  for (const log of logs) {
    const role = roleNameOfHash(log.topics[1]);
    if (role) candidates.get(role)!.add(getAddress(`0x${log.topics[2].slice(26)}`));
  }
  const holders = {} as Record<RoleName, string[]>;
  await Promise.all(
    ROLE_NAMES.map(async (role) => {
      const list = [...candidates.get(role)!];
      const held = await Promise.all(list.map((a) => usdx.hasRole(ROLES[role], a)));
      holders[role] = list.filter((_, i) => held[i]);
    }),
  );
  return holders;
}

export interface Holding {
  shares: bigint;
  blocked: boolean;
}

/** Shares and blocklist entry of each address. */
export async function readHoldings(usdx: USDX, addresses: readonly string[]): Promise<Map<string, Holding>> {
  const unique = [...new Set(addresses)];
  const rows = await Promise.all(unique.map(async (a) => ({ shares: await usdx.sharesOf(a), blocked: await usdx.isBlocked(a) })));
  return new Map(unique.map((a, i) => [a, rows[i]]));
}

/** eth_calls per JSON-RPC batch when reading a crowd: one HTTP request each. */
const READS_PER_BATCH = 1000;

/**
 * Reads many holdings: in JSON-RPC batches of a thousand calls where the provider speaks JSON-RPC
 * over HTTP (a third faster than one call each, for 10,000 holders), else a few hundred at a time.
 */
export async function readBalances(
  usdx: USDX,
  addresses: readonly string[],
  read: "balanceOf" | "sharesOf" = "balanceOf",
): Promise<bigint[]> {
  const provider = usdx.runner!.provider;
  const out: bigint[] = [];
  if (!(provider instanceof JsonRpcProvider)) {
    for (let i = 0; i < addresses.length; i += 500) out.push(...(await Promise.all(addresses.slice(i, i + 500).map((a) => usdx[read](a)))));
    return out;
  }
  const to = await usdx.getAddress();
  for (let i = 0; i < addresses.length; i += READS_PER_BATCH) {
    const payloads = addresses.slice(i, i + READS_PER_BATCH).map((a, id) => ({
      jsonrpc: "2.0" as const,
      id,
      method: "eth_call",
      params: [
        {
          to,
          data:
            read === "sharesOf" ? usdx.interface.encodeFunctionData("sharesOf", [a]) : usdx.interface.encodeFunctionData("balanceOf", [a]),
        },
        "latest",
      ],
    }));
    const answers = new Map((await provider._send(payloads)).map((r) => [r.id, r]));
    for (const { id } of payloads) {
      const answer = answers.get(id);
      if (!answer || !("result" in answer)) {
        throw new Error(`The node did not answer ${read} of ${addresses[i + id]}: ${JSON.stringify(answer ?? null)}.`);
      }
      out.push(BigInt(answer.result));
    }
  }
  return out;
}

/** The Safe contracts the manifest names, when they are on this chain (a new chain has none yet). */
export async function usableSafeContracts(provider: JsonRpcApiProvider, manifest: DeploymentManifest): Promise<SafeContracts | null> {
  const contracts = manifest.safeContracts;
  if (!contracts) return null;
  const codes = await Promise.all(Object.values(contracts).map((a) => provider.getCode(a)));
  return codes.every((c) => c !== "0x") ? contracts : null;
}

/**
 * The manifest's Safe of this name, when it is there as the scenario states it: code at its
 * address, the same owners (in any order) and threshold. Null when one must be created.
 */
export async function existingSafe(
  provider: JsonRpcApiProvider,
  manifest: DeploymentManifest,
  name: string,
  owners: readonly string[],
  threshold: number,
): Promise<string | null> {
  const named = manifest.safes?.find((s) => s.name === name);
  if (!named || (await provider.getCode(named.address)) === "0x") return null;
  try {
    const safe = new Contract(named.address, SAFE_INTERFACE, provider);
    const [onChain, onChainThreshold] = await Promise.all([safe.getOwners() as Promise<string[]>, safe.getThreshold() as Promise<bigint>]);
    const same = onChain.length === owners.length && onChain.every((o) => owners.includes(getAddress(o)));
    return same && Number(onChainThreshold) === threshold ? named.address : null;
  } catch {
    return null;
  }
}

export interface TransferRecord {
  from: string;
  to: string;
  value: bigint;
}

/** Whether the chain's Transfer logs already hold each of these transfers (from, to, value), each log counted once. */
export async function transfersMade(usdx: USDX, manifest: DeploymentManifest, transfers: readonly TransferRecord[]): Promise<boolean> {
  if (transfers.length === 0) return true;
  const senders = [...new Set(transfers.map((t) => zeroPadValue(t.from, 32)))];
  const topic = usdx.interface.getEvent("Transfer").topicHash;
  const logs = await usdx.runner!.provider!.getLogs({
    address: manifest.proxy,
    fromBlock: manifest.deploymentBlock,
    topics: [topic, senders],
  });
  const seen = new Map<string, number>();
  const keyOf = (from: string, to: string, value: bigint) => `${getAddress(from)} ${getAddress(to)} ${value}`;
  for (const log of logs) {
    const { args } = usdx.interface.parseLog(log)!;
    const key = keyOf(args.from, args.to, args.value);
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  for (const t of transfers) {
    const key = keyOf(t.from, t.to, t.value);
    const left = seen.get(key) ?? 0;
    if (left === 0) return false;
    seen.set(key, left - 1);
  }
  return true;
}

export function tokenAt(manifest: DeploymentManifest, provider: JsonRpcApiProvider): USDX {
  return USDX__factory.connect(manifest.proxy, provider);
}
