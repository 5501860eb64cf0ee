import type { HardhatRuntimeEnvironment } from "hardhat/types";
import { BrowserProvider, type Eip1193Provider } from "ethers";
import { applyScenario } from "../server/src/services/scenarios/apply";
import { DEFAULT_SCENARIO, loadScenario } from "../server/src/services/scenarios/load";
import type { AccountRow, SafeRow } from "../server/src/services/scenarios/report";
import { assertNetworkReady, runMain } from "./lib/network";

/**
 * Seeds a freshly deployed local chain: applies scenarios/default.yaml through the scenario engine
 * (server/src/services/scenarios). One account per role, funded holders, transfers so history is
 * not empty, one blocked holder, a multiplier above 1.0, and the Operations Safe (Safe v1.4.1, 2 of
 * 3 owners) holding MINTER, ORACLE and PAUSE beside their keys. On a chain already in that state it
 * sends nothing and reports the accounts and the Safe.
 */
export async function seedLocalChain(
  hre: HardhatRuntimeEnvironment,
  options: { log?: (line: string) => void } = {},
): Promise<{ alreadySeeded: boolean; accounts: AccountRow[]; safes: SafeRow[]; report: string[] }> {
  await assertNetworkReady(hre);
  const scenario = loadScenario(DEFAULT_SCENARIO);
  // The network's own EIP-1193 provider: the in-process Hardhat network in tests, the node otherwise.
  const provider = new BrowserProvider(hre.network.provider as Eip1193Provider, undefined, { staticNetwork: true, cacheTimeout: -1 });
  try {
    const result = await applyScenario(scenario, { provider, network: hre.network.name, log: options.log });
    return { alreadySeeded: result.steps.length === 0, accounts: result.accounts, safes: result.safes, report: result.report };
  } finally {
    provider.destroy();
  }
}

if (require.main === module) {
  runMain(async () => {
    const hre = (await import("hardhat")).default;
    const { report } = await seedLocalChain(hre, { log: console.log });
    console.log(`\n${report.join("\n")}`);
  });
}
