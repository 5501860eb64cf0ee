import {
  Contract,
  ContractFactory,
  Interface,
  type Provider,
  type Signer,
  ZeroAddress,
  getAddress,
  getCreate2Address,
  keccak256,
  solidityPacked,
} from "ethers";
import SafeArtifact from "@safe-global/safe-contracts/build/artifacts/contracts/Safe.sol/Safe.json";
import SafeProxyFactoryArtifact from "@safe-global/safe-contracts/build/artifacts/contracts/proxies/SafeProxyFactory.sol/SafeProxyFactory.json";
import FallbackHandlerArtifact from "@safe-global/safe-contracts/build/artifacts/contracts/handler/CompatibilityFallbackHandler.sol/CompatibilityFallbackHandler.json";
import MultiSendCallOnlyArtifact from "@safe-global/safe-contracts/build/artifacts/contracts/libraries/MultiSendCallOnly.sol/MultiSendCallOnly.json";
import type { SafeContracts } from "@common/manifest";
import { SAFE_INTERFACE } from "@common/safe";

/**
 * Safe v1.4.1 on a local chain, from Safe's own published build (the npm package's artifacts: the
 * exact bytecode Safe deployed to every public chain; solc 0.7.6 is not needed, or downloaded).
 * On Sepolia nothing is deployed: the canonical deployment is already there.
 */

const ARTIFACTS = {
  singleton: SafeArtifact,
  proxyFactory: SafeProxyFactoryArtifact,
  fallbackHandler: FallbackHandlerArtifact,
  multiSendCallOnly: MultiSendCallOnlyArtifact,
} as const;

/** Deploys the singleton, the proxy factory, the fallback handler and MultiSendCallOnly from `deployer`. */
export async function deploySafeContracts(deployer: Signer): Promise<SafeContracts> {
  const out: Partial<SafeContracts> = {};
  for (const [name, artifact] of Object.entries(ARTIFACTS) as [keyof SafeContracts, { abi: unknown[]; bytecode: string }][]) {
    const contract = await new ContractFactory(artifact.abi as never, artifact.bytecode, deployer).deploy();
    await contract.waitForDeployment();
    out[name] = getAddress(await contract.getAddress());
  }
  return out as SafeContracts;
}

/** The setup() call a new Safe runs: its owners and threshold, the compatibility fallback handler set. */
function safeInitializer(contracts: SafeContracts, owners: readonly string[], threshold: number): string {
  return new Interface(SafeArtifact.abi).encodeFunctionData("setup", [
    owners,
    threshold,
    ZeroAddress,
    "0x",
    contracts.fallbackHandler,
    ZeroAddress,
    0,
    ZeroAddress,
  ]);
}

/**
 * Creates a Safe (a proxy of the singleton) with `owners` and `threshold`, as Safe's web app does:
 * setup() through the factory's createProxyWithNonce, the compatibility fallback handler set.
 */
export async function createSafe(
  deployer: Signer,
  contracts: SafeContracts,
  owners: readonly string[],
  threshold: number,
  saltNonce = 0n,
): Promise<string> {
  const factory = new Contract(contracts.proxyFactory, SafeProxyFactoryArtifact.abi, deployer);
  const initializer = safeInitializer(contracts, owners, threshold);
  const receipt = await (await factory.createProxyWithNonce(contracts.singleton, initializer, saltNonce)).wait();
  const created = receipt?.logs
    .map((log: { topics: string[]; data: string }) => {
      try {
        return factory.interface.parseLog(log);
      } catch {
        return null;
      }
    })
    .find((parsed: { name: string } | null) => parsed?.name === "ProxyCreation");
  if (!created) throw new Error("The Safe proxy factory did not report the new Safe (no ProxyCreation event).");
  return getAddress(created.args.proxy as string);
}

/**
 * The first salt nonce from 0 whose Safe (these owners and threshold) is not on the chain yet: the
 * factory deploys with CREATE2, so the same owners, threshold and nonce can make one Safe only.
 */
export async function freeSaltNonce(
  provider: Provider,
  contracts: SafeContracts,
  owners: readonly string[],
  threshold: number,
): Promise<bigint> {
  const factory = new Contract(contracts.proxyFactory, SafeProxyFactoryArtifact.abi, provider);
  const creationCode = (await factory.proxyCreationCode()) as string;
  const initCodeHash = keccak256(solidityPacked(["bytes", "uint256"], [creationCode, contracts.singleton]));
  const initializerHash = keccak256(safeInitializer(contracts, owners, threshold));
  for (let nonce = 0n; ; nonce++) {
    const salt = keccak256(solidityPacked(["bytes32", "uint256"], [initializerHash, nonce]));
    if ((await provider.getCode(getCreate2Address(contracts.proxyFactory, salt, initCodeHash))) === "0x") return nonce;
  }
}

/** A Safe's owners and threshold, read from the chain. */
export async function readSafe(runner: Signer | { call: unknown }, safe: string): Promise<{ owners: string[]; threshold: number }> {
  const contract = new Contract(safe, SAFE_INTERFACE, runner as never);
  const [owners, threshold] = await Promise.all([contract.getOwners() as Promise<string[]>, contract.getThreshold() as Promise<bigint>]);
  return { owners: owners.map((o) => getAddress(o)), threshold: Number(threshold) };
}
