/**
 * `npm run scenario -- apply <file> [--dry-run]`: puts the local chain (or a fork of it) in the
 * state a scenario file names, sending only the transactions needed (server/src/services/scenarios).
 * `npm run scenario -- list`: the shipped scenarios, each with what a tester checks with it.
 * `npm run scenario -- snapshot <name>`, `restore <name>`, `snapshots`: the node's named snapshots
 * (server/src/services/scenarios/snapshots.ts).
 * Exit codes: 0 done, 1 refused or failed, 2 a wrong file or command line (nothing sent).
 */
import "dotenv/config";
import { JsonRpcProvider } from "ethers";
import { localRpcUrl } from "@common/networks";
import { applyScenario } from "../server/src/services/scenarios/apply";
import { listScenarios, loadScenario, ScenarioFileError } from "../server/src/services/scenarios/load";
import { SNAPSHOT_COMMANDS, snapshotCommand } from "../server/src/services/scenarios/snapshotCommand";
import { rpc } from "./lib/stack/processes";

const USAGE = "usage: npm run scenario -- apply <file> [--dry-run] [--rpc-url <url>] | list | snapshot <name> | restore <name> | snapshots";

class UsageError extends Error {}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if ((SNAPSHOT_COMMANDS as readonly string[]).includes(command)) {
    process.exitCode = await snapshotCommand(argv, console.log);
    return;
  }
  if (command === "list") {
    for (const s of listScenarios()) console.log(`${s.file}\n  ${s.description}`);
    return;
  }
  if (command !== "apply") throw new UsageError(command ? `Unknown command '${command}' (${USAGE}).` : USAGE);
  let file: string | undefined;
  let dryRun = false;
  let rpcUrl = localRpcUrl();
  for (let i = 0; i < rest.length; i++) {
    const [flag, inline] = rest[i].split(/=(.*)/s, 2);
    if (flag === "--dry-run") dryRun = true;
    else if (flag === "--rpc-url") rpcUrl = inline ?? rest[++i] ?? "";
    else if (flag.startsWith("--")) throw new UsageError(`Unknown option '${rest[i]}' (${USAGE}).`);
    else if (file === undefined) file = rest[i];
    else throw new UsageError(`One scenario file at a time (${USAGE}).`);
  }
  if (!file) throw new UsageError(`Which scenario? ${USAGE}`);
  if (!rpcUrl) throw new UsageError(`--rpc-url needs a URL (${USAGE}).`);
  const scenario = loadScenario(file);
  // Asked first with a plain request: an ethers provider retries a node that does not answer forever.
  const chainId = await rpc<string>(rpcUrl, "eth_chainId").catch(() => {
    throw new Error(`No node answers at ${rpcUrl}. Start one with \`npm start\` (or \`npx hardhat node\`), or pass --rpc-url.`);
  });
  const provider = new JsonRpcProvider(rpcUrl, Number(chainId), { staticNetwork: true, pollingInterval: 250 });
  try {
    const result = await applyScenario(scenario, { provider, dryRun, log: console.log });
    console.log(`\n${result.report.join("\n")}`);
  } finally {
    provider.destroy();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const wrongInput = error instanceof ScenarioFileError || error instanceof UsageError;
  console.error(`${wrongInput ? "" : "\n"}${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = wrongInput ? 2 : 1;
});
