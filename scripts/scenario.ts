/**
 * `npm run scenario -- apply <file> [--dry-run] [--rpc-url <url>] [--api-url <url>]`: puts the
 * local chain (or a fork of it) in the state a scenario file names, sending only the transactions
 * needed, and makes its Firebase test user through the API server (applyCommand.ts).
 * `npm run scenario -- list`: the shipped scenarios, each with what a tester checks with it.
 * `npm run scenario -- snapshot <name>`, `restore <name>`, `snapshots`: the node's named snapshots
 * (snapshotCommand.ts). All in server/src/services/scenarios.
 * Exit codes: 0 done, 1 refused or failed, 2 a wrong file or command line (nothing sent).
 */
import "dotenv/config";
import { USAGE, UsageError, applyCommand } from "../server/src/services/scenarios/applyCommand";
import { listScenarios, ScenarioFileError } from "../server/src/services/scenarios/load";
import { SNAPSHOT_COMMANDS, snapshotCommand } from "../server/src/services/scenarios/snapshotCommand";

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
  await applyCommand(rest, console.log);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const wrongInput = error instanceof ScenarioFileError || error instanceof UsageError;
  console.error(`${wrongInput ? "" : "\n"}${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = wrongInput ? 2 : 1;
});
