import type { AppConfig } from "@/lib/config";

/** An AppConfig for tests: the local chain as npm start serves it. */
export function testConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    network: "localhost",
    chainId: 31337,
    chainIdHex: "0x7a69",
    networkLabel: "Hardhat Local",
    fork: null,
    explorerUrl: null,
    rpcUrl: "http://127.0.0.1:8545",
    contracts: {
      proxy: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
      implementation: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
      owner: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
      batchPayments: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
      deploymentBlock: 1,
    },
    token: { decimals: 18 },
    firebase: { projectId: "demo-usdx", apiKey: "demo-key", authDomain: "demo-usdx.firebaseapp.com", emulatorUrl: "http://127.0.0.1:9099" },
    batch: { maxRows: 10000, chunkSize: 564 },
    multiplierMaxStepPercent: 1,
    confirmations: 0,
    mockBank: true,
    devAccounts: [
      {
        name: "admin",
        address: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
        roles: ["DEFAULT_ADMIN_ROLE"],
        description: "deployer and owner; grants roles",
      },
      { name: "alice", address: "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955", roles: [], description: "holder" },
    ],
    ...overrides,
  };
}
