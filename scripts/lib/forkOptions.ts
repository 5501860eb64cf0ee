/**
 * `npm start`'s command line. `--fork <rpc-url> [--fork-block <n>]`, or FORK_URL and FORK_BLOCK:
 * which chain the local node forks. `--scenario <file>`: the state the chain starts in, instead of
 * scenarios/default.yaml. Kept apart from fork.ts, which needs the compiled bindings: start reads
 * its options before it compiles.
 */
export interface ForkOptions {
  url: string;
  /** The upstream block to fork at; the node picks a recent one when absent. */
  block?: number;
}

export interface StartOptions {
  fork: ForkOptions | null;
  /** The scenario file to apply instead of the default seed, as typed; null for the default. */
  scenario: string | null;
}

const USAGE = "usage: npm start [-- [--fork <rpc-url> [--fork-block <n>]] [--scenario <file>]]";

/** The fork asked for on the command line (first) or in the environment; null for the local chain. */
export function parseForkOptions(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): ForkOptions | null {
  return parseStartOptions(argv, env).fork;
}

/** Everything `npm start` was asked for; nothing at all is the default stack, as it always was. */
export function parseStartOptions(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): StartOptions {
  let url = env.FORK_URL || undefined;
  let block = env.FORK_BLOCK || undefined;
  let scenario: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === "") throw new Error(`${flag} needs a value (${USAGE}).`);
      return v;
    };
    if (flag === "--fork") url = value();
    else if (flag === "--fork-block") block = value();
    else if (flag === "--scenario") scenario = value();
    else throw new Error(`Unknown option '${argv[i]}' (${USAGE}).`);
  }
  return { fork: forkOf(url, block), scenario };
}

function forkOf(url: string | undefined, block: string | undefined): ForkOptions | null {
  if (url === undefined) {
    if (block !== undefined) throw new Error(`FORK_BLOCK (or --fork-block) needs a chain to fork: --fork <rpc-url> or FORK_URL.`);
    return null;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`The fork's RPC URL '${url}' is not a URL (${USAGE}).`);
  }
  // Hardhat forks over HTTP only.
  if (!/^https?:$/.test(parsed.protocol)) throw new Error(`The fork's RPC URL must be http or https, not '${parsed.protocol}'.`);
  if (block === undefined) return { url };
  if (!/^\d+$/.test(block)) throw new Error(`The fork block must be a block number, not '${block}'.`);
  return { url, block: Number(block) };
}

/** The URL without its path and query, where a provider's key lives: what start prints. */
export function shownRpcUrl(url: string): string {
  return new URL(url).origin;
}
