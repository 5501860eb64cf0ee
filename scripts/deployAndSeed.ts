import { deployUSDX } from "./deploy";
import { runMain } from "./lib/network";
import { seedLocalChain } from "./seed";

/**
 * scripts/deploy.ts then scripts/seed.ts in one Hardhat process (`hardhat run --network localhost
 * scripts/deployAndSeed.ts`): what `npm start` and every test suite's stack do at its start, for one
 * start of Hardhat (its config, plugins and TypeScript, a few seconds of CPU) instead of two.
 */
runMain(async () => {
  const hre = (await import("hardhat")).default;
  await deployUSDX(hre, { log: console.log });
  const { report } = await seedLocalChain(hre, { log: console.log });
  console.log(`\n${report.join("\n")}`);
});
