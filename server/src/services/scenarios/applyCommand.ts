import { JsonRpcProvider } from "ethers";
import { localApiUrl, localRpcUrl } from "@common/networks";
import { applyScenario, type ApplyOptions } from "./apply";
import { loadScenario } from "./load";
import { httpNode } from "./snapshotCommand";
import { userPartThrough } from "./user";

/**
 * `npm run scenario -- apply <file> [--dry-run] [--rpc-url <url>] [--api-url <url>]`: the CLI's
 * apply (scripts/scenario.ts dispatches here). A file's Firebase test user is made through the API
 * server: the one --api-url names (which must answer), else npm start's when it answers; when none
 * does, the chain's part is applied and the plan says why the user's is not.
 */

export const USAGE =
  "usage: npm run scenario -- apply <file> [--dry-run] [--rpc-url <url>] [--api-url <url>] | list | snapshot <name> | restore <name> | snapshots";

/** A wrong command line: exit code 2, nothing sent. */
export class UsageError extends Error {}

interface ApplyArgs {
  file: string;
  dryRun: boolean;
  rpcUrl: string;
  /** Given with --api-url; else npm start's address is tried. */
  apiUrl?: string;
}

export function parseApplyArgs(rest: string[], env: NodeJS.ProcessEnv = process.env): ApplyArgs {
  let file: string | undefined;
  let dryRun = false;
  let rpcUrl = localRpcUrl(env);
  let apiUrl: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    const [flag, inline] = rest[i].split(/=(.*)/s, 2);
    if (flag === "--dry-run") dryRun = true;
    else if (flag === "--rpc-url") rpcUrl = inline ?? rest[++i] ?? "";
    else if (flag === "--api-url") apiUrl = inline ?? rest[++i] ?? "";
    else if (flag.startsWith("--")) throw new UsageError(`Unknown option '${rest[i]}' (${USAGE}).`);
    else if (file === undefined) file = rest[i];
    else throw new UsageError(`One scenario file at a time (${USAGE}).`);
  }
  if (!file) throw new UsageError(`Which scenario? ${USAGE}`);
  if (!rpcUrl) throw new UsageError(`--rpc-url needs a URL (${USAGE}).`);
  if (apiUrl === "") throw new UsageError(`--api-url needs a URL (${USAGE}).`);
  return { file, dryRun, rpcUrl, apiUrl };
}

/** Applies (or with --dry-run plans) the file; each line goes to `log`. Throws a wrong file (ScenarioFileError), a wrong command line (UsageError) and a refusal. */
export async function applyCommand(
  rest: string[],
  log: (line: string) => void,
  options: { env?: NodeJS.ProcessEnv; network?: string } = {},
): Promise<void> {
  const env = options.env ?? process.env;
  const args = parseApplyArgs(rest, env);
  const scenario = loadScenario(args.file);
  // Asked first with a plain request: an ethers provider retries a node that does not answer forever.
  const chainId = await httpNode(args.rpcUrl)
    .send("eth_chainId", [])
    .catch(() => {
      throw new Error(`No node answers at ${args.rpcUrl}. Start one with \`npm start\` (or \`npx hardhat node\`), or pass --rpc-url.`);
    });
  const provider = new JsonRpcProvider(args.rpcUrl, Number(chainId), { staticNetwork: true, pollingInterval: 250 });
  try {
    const user = scenario.user ? await userPartAt(args.apiUrl, env) : {};
    const result = await applyScenario(scenario, { provider, dryRun: args.dryRun, log, env, network: options.network, ...user });
    log("");
    for (const line of result.report) log(line);
  } finally {
    provider.destroy();
  }
}

/** The user part through the API server --api-url names, or npm start's when it answers; else none, and the plan's note says why. */
async function userPartAt(apiUrl: string | undefined, env: NodeJS.ProcessEnv): Promise<Pick<ApplyOptions, "userPart" | "userPartNote">> {
  const url = (apiUrl ?? localApiUrl(env)).replace(/\/+$/, "");
  if (apiUrl === undefined && !(await answers(`${url}/api/config`))) {
    return {
      userPartNote: `the Firebase test user's part needs the API server, and none answers at ${url} (start the stack with npm start, or pass --api-url): not applied`,
    };
  }
  return { userPart: userPartThrough({ url }) };
}

/** Whether anything answers there (what it says, the user part reads and judges). */
async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(3000) });
    return true;
  } catch {
    return false;
  }
}
