import type { DeploymentManifest } from "./manifest";
import { SEPOLIA } from "./networks";

/**
 * Safe v1.4.1's MultiSendCallOnly, the one contract a Safe may delegatecall here (a batch chunk's
 * approve and pay in one transaction). A local chain's seed deploys its own and names it in the
 * manifest; a public chain has Safe's canonical deployment, whose address is kept here, once.
 *
 * The canonical address is where Safe's singleton factory (CREATE2, salt 0) puts the contract's
 * published bytecode; test/safeDeployments.test.ts derives it from the npm package's artifact, so a
 * wrong address here fails a test, offline.
 */
export const CANONICAL_MULTISEND_CALL_ONLY: Readonly<Record<number, string>> = {
  [SEPOLIA.chainId]: "0x9641d764fc13c8B624c04430C7356C1C7C8102e2",
};

/** The chain's MultiSendCallOnly: the manifest's (a local chain's seed) or the canonical one; null when neither is known. */
export function multiSendCallOnlyOf(manifest: Pick<DeploymentManifest, "chainId" | "safeContracts">): string | null {
  return manifest.safeContracts?.multiSendCallOnly ?? CANONICAL_MULTISEND_CALL_ONLY[manifest.chainId] ?? null;
}
