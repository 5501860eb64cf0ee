/**
 * Fails when `hardhat coverage` reports less than the floor for the contracts' lines or branches.
 * Reads coverage/coverage-summary.json (the json-summary reporter in .solcover.js).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const FLOOR = 95;
const file = path.resolve(__dirname, "..", "coverage", "coverage-summary.json");

if (!existsSync(file)) {
  console.error("No coverage/coverage-summary.json: run `hardhat coverage` first.");
  process.exit(1);
}
const total = JSON.parse(readFileSync(file, "utf8")).total as Record<string, { pct: number }>;
const failures = (["lines", "branches"] as const).filter((k) => total[k].pct < FLOOR);
console.log(
  `Contract coverage: lines ${total.lines.pct}%, branches ${total.branches.pct}%, statements ${total.statements.pct}%, functions ${total.functions.pct}% (floor ${FLOOR}% of lines and branches)`,
);
if (failures.length > 0) {
  console.error(`Below the floor: ${failures.join(" and ")}.`);
  process.exit(1);
}
