import { localRpcUrl } from "@common/networks";
import { HttpError } from "../../lib/errors";
import { KEPT_ACROSS_RESTORE, type NodeRpc, type SnapshotOptions, listSnapshots, restoreSnapshot, takeSnapshot } from "./snapshots";

/**
 * `npm run scenario -- snapshot <name>`, `restore <name>` and `snapshots`: the CLI's snapshot
 * commands (scripts/scenario.ts dispatches here). Each line goes to `log`; the answer is the exit
 * code: 0 done, 2 refused with a sentence (a bad name, no such snapshot, one the node no longer
 * has, another chain, no node), nothing sent. Anything else throws.
 */

export const SNAPSHOT_USAGE = [
  "Snapshots of the local node, to return to:",
  "  npm run scenario -- snapshot <name>   keep the chain's state now as <name> (letters, digits, - and _)",
  "  npm run scenario -- restore <name>    return the chain to <name>; it can be returned to again",
  "  npm run scenario -- snapshots         list the snapshots kept",
];

/** The commands snapshotCommand handles, for the CLI's dispatch. */
export const SNAPSHOT_COMMANDS = ["snapshot", "restore", "snapshots"] as const;

const when = (iso: string) => iso.replace("T", " ").replace(/\.\d+Z$/, " UTC");

/** The node's JSON-RPC over HTTP; a node that does not answer is a sentence, not a stack. */
export function httpNode(url: string): NodeRpc {
  let id = 0;
  return {
    async send(method, params) {
      let res: Response;
      try {
        res = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }),
        });
      } catch (error) {
        throw new HttpError(
          503,
          `No node answers at ${url} (${(error as Error).message}): start the local stack with npm start, or set LOCAL_RPC_PORT.`,
        );
      }
      const body = (await res.json()) as { result?: unknown; error?: { message: string } };
      if (body.error) throw new Error(`${method}: ${body.error.message}`);
      return body.result;
    },
  };
}

export async function snapshotCommand(
  argv: string[],
  log: (line: string) => void,
  options: SnapshotOptions & { node?: NodeRpc } = {},
): Promise<number> {
  const [command, name, ...extra] = argv;
  const needsName = command === "snapshot" || command === "restore";
  if (!(SNAPSHOT_COMMANDS as readonly string[]).includes(command) || (needsName && !name) || extra.length > 0 || (!needsName && name)) {
    for (const line of SNAPSHOT_USAGE) log(line);
    return 2;
  }
  const node = options.node ?? httpNode(localRpcUrl(options.env));
  try {
    if (command === "snapshot") {
      const taken = await takeSnapshot(node, name, options);
      log(`Snapshot '${taken.name}' taken at block ${taken.blockNumber}. Return to it with: npm run scenario -- restore ${taken.name}`);
    } else if (command === "restore") {
      const restored = await restoreSnapshot(node, name, ({ done, total, label }) => log(`  ${done}/${total} ${label}`), options);
      const { snapshot } = restored;
      log(
        `Restored '${snapshot.name}': the chain is back at block ${snapshot.blockNumber}, as it was at ${when(snapshot.takenAt)}; the empty block ${restored.head} follows it.`,
      );
      if (restored.discarded.length > 0)
        log(`Snapshots taken after it are gone (the node discards them on a restore): ${restored.discarded.join(", ")}.`);
      log(KEPT_ACROSS_RESTORE);
    } else {
      const kept = await listSnapshots(node, options);
      if (kept.length === 0) log("No snapshots yet. Take one with: npm run scenario -- snapshot <name>");
      for (const s of kept) log(`${s.name.padEnd(40)} block ${String(s.blockNumber).padEnd(8)} taken ${when(s.takenAt)}`);
    }
    return 0;
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    log(error.message);
    return 2;
  }
}
