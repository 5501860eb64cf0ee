import "dotenv/config";
import { HardhatUserConfig, subtask } from "hardhat/config";
import { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } from "hardhat/builtin-tasks/task-names";
import "@nomicfoundation/hardhat-toolbox";
import "@openzeppelin/hardhat-upgrades";
import { LOCAL_CHAIN, localRpcUrl, SEPOLIA } from "./common/networks";
import "./tasks";
import { QUIET } from "./scripts/lib/stack/processes";

// Hardhat 2 asks once per machine whether to send telemetry, on a terminal unless CI is set. Its CLI
// reads this after it has loaded this file, so every `hardhat` run (npm scripts, npx, the nodes the
// stack and the tests start) goes without the question. Set it to anything else to be asked.
process.env.HARDHAT_DISABLE_TELEMETRY_PROMPT ??= QUIET.HARDHAT_DISABLE_TELEMETRY_PROMPT;

const SOLC_VERSION = "0.8.28";

// Hardhat downloads solc from the internet; these machines have none. Use the npm `solc` package.
subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD, async (args: { solcVersion: string }) => {
  if (args.solcVersion !== SOLC_VERSION) {
    throw new Error(`Only solc ${SOLC_VERSION} is installed (npm package solc); a contract asked for ${args.solcVersion}.`);
  }
  return {
    compilerPath: require.resolve("solc/soljson.js"),
    isSolcJs: true,
    version: SOLC_VERSION,
    longVersion: "0.8.28+commit.7893614a",
  };
});

const deployerKey = process.env.DEPLOYER_PRIVATE_KEY;
/** Set by `npm run coverage` for its run of solidity-coverage. */
const COVERAGE = process.env.USDX_COVERAGE === "1";

const config: HardhatUserConfig = {
  solidity: {
    version: SOLC_VERSION,
    settings: {
      // Many runs: transfer and transferFrom run once per batch recipient; bytecode size is no issue.
      optimizer: { enabled: true, runs: 10_000 },
      // Cancun runs on the local chain and on Sepolia alike.
      evmVersion: "cancun",
    },
  },
  networks: {
    hardhat: { chainId: LOCAL_CHAIN.chainId },
    localhost: { url: localRpcUrl(), chainId: LOCAL_CHAIN.chainId },
    sepolia: {
      // Checked by scripts/deploy.ts, which says what is missing before anything is sent.
      url: process.env.SEPOLIA_RPC_URL || "http://sepolia-rpc-url-not-set.invalid",
      chainId: SEPOLIA.chainId,
      accounts: deployerKey ? [deployerKey] : [],
    },
  },
  // `npx hardhat verify --network sepolia <address>` (hardhat-verify; OpenZeppelin's upgrades plugin
  // extends it to verify a proxy together with its implementation). Etherscan's API v2: one key.
  etherscan: {
    apiKey: process.env.ETHERSCAN_API_KEY || "",
  },
  // Sourcify needs the internet at verify time too; Etherscan is where Sepolia's explorer links go.
  sourcify: { enabled: false },
  typechain: {
    outDir: "typechain-types",
    target: "ethers-v6",
    // npm run coverage leaves the bindings as the plain compile made them, since the dashboard's
    // tests read them meanwhile (scripts/test-lanes.ts). It compiles (bindings included) first.
    dontOverrideCompile: COVERAGE,
  },
  // npm run coverage compiles its instrumented contracts into a folder of their own, never over
  // artifacts/: the suites that deploy the plain contracts run beside it (scripts/test-lanes.ts).
  ...(COVERAGE ? { paths: { artifacts: ".local/coverage/artifacts", cache: ".local/coverage/cache" } } : {}),
  gasReporter: {
    enabled: process.env.REPORT_GAS === "true",
    offline: true,
  },
  mocha: {
    timeout: 120_000,
  },
};

export default config;
