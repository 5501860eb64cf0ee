import { expect } from "chai";
import { ZeroHash, getCreate2Address, keccak256 } from "ethers";
import MultiSendCallOnlyArtifact from "@safe-global/safe-contracts/build/artifacts/contracts/libraries/MultiSendCallOnly.sol/MultiSendCallOnly.json";
import { CANONICAL_MULTISEND_CALL_ONLY, multiSendCallOnlyOf } from "../common/safeDeployments";
import { SEPOLIA } from "../common/networks";

/**
 * Safe deploys its contracts on every public chain through its singleton factory (CREATE2, salt 0),
 * so a canonical address follows from the published bytecode alone: checked here against the npm
 * package's artifact (the bytecode the seed deploys locally), with no network.
 */
const SAFE_SINGLETON_FACTORY = "0x914d7Fec6aaC8cd542e72Bca78B30650d45643d7";

describe("Safe's canonical deployments", () => {
  it("Sepolia's MultiSendCallOnly is the CREATE2 address of v1.4.1's published bytecode", () => {
    const derived = getCreate2Address(SAFE_SINGLETON_FACTORY, ZeroHash, keccak256(MultiSendCallOnlyArtifact.bytecode));
    expect(CANONICAL_MULTISEND_CALL_ONLY[SEPOLIA.chainId]).to.equal(derived);
  });

  it("a manifest's own MultiSendCallOnly comes first; an unknown chain has none", () => {
    const local = "0x0000000000000000000000000000000000000001";
    expect(
      multiSendCallOnlyOf({
        chainId: 31337,
        safeContracts: { singleton: local, proxyFactory: local, fallbackHandler: local, multiSendCallOnly: local },
      }),
    ).to.equal(local);
    expect(multiSendCallOnlyOf({ chainId: SEPOLIA.chainId })).to.equal(CANONICAL_MULTISEND_CALL_ONLY[SEPOLIA.chainId]);
    expect(multiSendCallOnlyOf({ chainId: 31337 })).to.equal(null);
  });
});
