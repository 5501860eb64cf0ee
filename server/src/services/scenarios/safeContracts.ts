import { Contract, ContractFactory, getAddress, type Signer } from "ethers";
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
  const singleton = new Contract(contracts.singleton, SafeArtifact.abi);
  const initializer = singleton.interface.encodeFunctionData("setup", [
    owners,
    threshold,
    "0x0000000000000000000000000000000000000000",
    "0x",
    contracts.fallbackHandler,
    "0x0000000000000000000000000000000000000000",
    0,
    "0x0000000000000000000000000000000000000000",
  ]);
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

/** A Safe's owners and threshold, read from the chain. */
export async function readSafe(runner: Signer | { call: unknown }, safe: string): Promise<{ owners: string[]; threshold: number }> {
  const contract = new Contract(safe, SAFE_INTERFACE, runner as never);
  const [owners, threshold] = await Promise.all([contract.getOwners() as Promise<string[]>, contract.getThreshold() as Promise<bigint>]);
  return { owners: owners.map((o) => getAddress(o)), threshold: Number(threshold) };
}
