import { getAddress, isAddress } from "ethers";

/**
 * deployments/<network>.json: the one record of where USDX lives. The scripts, the server and
 * the dashboard read addresses only from here (ABIs come from the generated bindings).
 */
export interface DeploymentManifest {
  network: string;
  chainId: number;
  /** The USDX proxy: the token's address for every read and write. */
  proxy: string;
  /** The implementation behind the proxy when this manifest was written. */
  implementation: string;
  /** The first DEFAULT_ADMIN_ROLE holder. */
  owner: string;
  /** The BatchPayments contract bound to the proxy. */
  batchPayments: string;
  /** The block of the proxy's creation: where an event indexer starts. */
  deploymentBlock: number;
  /** That block's hash: a manifest whose hash the chain no longer has belongs to another chain run. */
  deploymentBlockHash: string;
  deployedAt: string;
  /** Present when this chain is a local fork of another: the chain it forks and the block it forked at. */
  fork?: ForkInfo;
  /** Safe's contracts here, when the seed deployed them (a local chain); on Sepolia the canonical deployment is used. */
  safeContracts?: SafeContracts;
  /** Safes this deployment names ('Operations Safe'): the dashboard shows the name beside the address. */
  safes?: NamedSafe[];
}

/** Safe v1.4.1's contracts on one chain: what creates a Safe, and what batches calls for one. */
export interface SafeContracts {
  singleton: string;
  proxyFactory: string;
  fallbackHandler: string;
  multiSendCallOnly: string;
}

export interface NamedSafe {
  name: string;
  address: string;
}

/** What a local fork forks: the dashboard's badge reads 'Sepolia fork @ 7,012,345' from it. */
export interface ForkInfo {
  chainId: number;
  /** The forked chain's name as people know it ('Sepolia'). */
  name: string;
  /** The upstream block the fork starts from. */
  block: number;
}

const ADDRESS_FIELDS = ["proxy", "implementation", "owner", "batchPayments"] as const;

/** Checks a parsed manifest field by field; throws naming the first wrong field. */
export function validateManifest(value: unknown, source: string): DeploymentManifest {
  if (typeof value !== "object" || value === null) throw new Error(`${source}: not a JSON object`);
  const m = value as Record<string, unknown>;
  if (typeof m.network !== "string" || m.network === "") throw new Error(`${source}: 'network' must be a name`);
  if (!Number.isInteger(m.chainId) || (m.chainId as number) <= 0) {
    throw new Error(`${source}: 'chainId' must be a positive integer`);
  }
  for (const field of ADDRESS_FIELDS) {
    if (typeof m[field] !== "string" || !isAddress(m[field])) {
      throw new Error(`${source}: '${field}' must be an address`);
    }
  }
  if (!Number.isInteger(m.deploymentBlock) || (m.deploymentBlock as number) < 0) {
    throw new Error(`${source}: 'deploymentBlock' must be a block number`);
  }
  if (typeof m.deploymentBlockHash !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(m.deploymentBlockHash)) {
    throw new Error(`${source}: 'deploymentBlockHash' must be a 32-byte hex hash`);
  }
  if (typeof m.deployedAt !== "string" || Number.isNaN(Date.parse(m.deployedAt))) {
    throw new Error(`${source}: 'deployedAt' must be an ISO date`);
  }
  const fork = m.fork === undefined ? undefined : validateForkInfo(m.fork, source);
  const safeContracts = m.safeContracts === undefined ? undefined : validateSafeContracts(m.safeContracts, source);
  const safes = m.safes === undefined ? undefined : validateSafes(m.safes, source);
  return {
    network: m.network,
    chainId: m.chainId as number,
    proxy: getAddress(m.proxy as string),
    implementation: getAddress(m.implementation as string),
    owner: getAddress(m.owner as string),
    batchPayments: getAddress(m.batchPayments as string),
    deploymentBlock: m.deploymentBlock as number,
    deploymentBlockHash: m.deploymentBlockHash,
    deployedAt: m.deployedAt,
    ...(fork ? { fork } : {}),
    ...(safeContracts ? { safeContracts } : {}),
    ...(safes ? { safes } : {}),
  };
}

const SAFE_CONTRACT_FIELDS = ["singleton", "proxyFactory", "fallbackHandler", "multiSendCallOnly"] as const;

function validateSafeContracts(value: unknown, source: string): SafeContracts {
  if (typeof value !== "object" || value === null) throw new Error(`${source}: 'safeContracts' must be an object`);
  const c = value as Record<string, unknown>;
  for (const field of SAFE_CONTRACT_FIELDS) {
    if (typeof c[field] !== "string" || !isAddress(c[field])) throw new Error(`${source}: 'safeContracts.${field}' must be an address`);
  }
  return Object.fromEntries(SAFE_CONTRACT_FIELDS.map((f) => [f, getAddress(c[f] as string)])) as unknown as SafeContracts;
}

function validateSafes(value: unknown, source: string): NamedSafe[] {
  if (!Array.isArray(value)) throw new Error(`${source}: 'safes' must be a list`);
  return value.map((entry, i) => {
    const e = (typeof entry === "object" && entry !== null ? entry : {}) as Record<string, unknown>;
    if (typeof e.name !== "string" || e.name.trim() === "" || e.name.length > 64)
      throw new Error(`${source}: 'safes[${i}].name' must be a name of 1 to 64 characters`);
    if (typeof e.address !== "string" || !isAddress(e.address)) throw new Error(`${source}: 'safes[${i}].address' must be an address`);
    return { name: e.name.trim(), address: getAddress(e.address) };
  });
}

function validateForkInfo(value: unknown, source: string): ForkInfo {
  if (typeof value !== "object" || value === null) throw new Error(`${source}: 'fork' must be an object`);
  const f = value as Record<string, unknown>;
  if (!Number.isInteger(f.chainId) || (f.chainId as number) <= 0) throw new Error(`${source}: 'fork.chainId' must be a positive integer`);
  if (typeof f.name !== "string" || f.name === "") throw new Error(`${source}: 'fork.name' must be a name`);
  if (!Number.isInteger(f.block) || (f.block as number) < 0) throw new Error(`${source}: 'fork.block' must be a block number`);
  return { chainId: f.chainId as number, name: f.name, block: f.block as number };
}
