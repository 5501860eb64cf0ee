import type { HardhatRuntimeEnvironment } from "hardhat/types";
import { LOCAL_CHAIN } from "@common/networks";

/**
 * Checks, before anything is sent, that the chosen network is configured and answers, and says
 * what to do when it is not. Returns the chain id. `readOnly` work (adopt) needs no deployer key.
 */
export async function assertNetworkReady(hre: HardhatRuntimeEnvironment, options: { readOnly?: boolean } = {}): Promise<number> {
  const name = hre.network.name;
  if (name === "sepolia") {
    const needed = options.readOnly ? ["SEPOLIA_RPC_URL"] : ["SEPOLIA_RPC_URL", "DEPLOYER_PRIVATE_KEY"];
    const missing = needed.filter((v) => !process.env[v]);
    if (missing.length > 0) {
      throw new Error(`Sepolia needs ${missing.join(" and ")} in the environment or .env (see .env.example).`);
    }
  }
  let chainId: number;
  try {
    chainId = Number((await hre.ethers.provider.getNetwork()).chainId);
  } catch {
    const url = "url" in hre.network.config ? hre.network.config.url : name;
    const hint = name === "localhost" ? " Start one with `npm start` (or `npx hardhat node`)." : "";
    throw new Error(`No node answers at ${url} (network '${name}').${hint}`);
  }
  const expected = hre.network.config.chainId;
  if (expected !== undefined && expected !== chainId) {
    throw new Error(`Network '${name}' should be chain ${expected}, but the node there is chain ${chainId}.`);
  }
  return chainId;
}

/** Blocks per eth_getLogs query by default: providers cap the range, commonly at 10,000. */
export const LOG_CHUNK = 10_000;

/** The local chain (the in-process Hardhat network or a Hardhat node). */
export function isLocalChain(chainId: number): boolean {
  return chainId === LOCAL_CHAIN.chainId;
}

/** Runs a script's main, printing only the message of an expected failure, and sets the exit code. */
export function runMain(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    console.error(`\n${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
}
