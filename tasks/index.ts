// Operator and tester tasks: `npx hardhat usdx <task> --network <network>`. See tasks/usdx.ts.
import "./usdx";
