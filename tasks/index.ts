// Operator and tester tasks: `npx hardhat usdx <task>` (tasks/usdx.ts), and `usdx adopt` (tasks/adopt.ts).
import "./usdx";
import "./adopt";
