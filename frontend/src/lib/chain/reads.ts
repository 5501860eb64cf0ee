import { decodeFunctionResult, encodeFunctionData, type Abi, type Hex } from "viem";
import type { RoleName } from "@common/roles";
import type { AppConfig } from "@/lib/config";
import type { Eip1193Provider } from "@/lib/wallet/store";

/**
 * The chain reads every page makes (the Dashboard's cards, the roles that show Admin Functions, the
 * blocklist's statuses), without ethers: eth_call through the read URL (Custom RPC URL, else the
 * configured one) as one JSON-RPC batch, or through the wallet. Encoded and decoded with viem's
 * two functions against the few ABI entries below, so a first Dashboard downloads about 12 KB for
 * its reads instead of ethers and the generated bindings (about 60 KB gzipped); those load with
 * the first write (lib/chain/contracts.ts). reads.test.ts checks each entry against the bindings.
 */

/** USDX's view functions the reads call, as the contract's ABI declares them. */
export const USDX_READS = [
  view("name", [], "string"),
  view("symbol", [], "string"),
  view("decimals", [], "uint8"),
  view("totalSupply", [], "uint256"),
  view("totalShares", [], "uint256"),
  view("rewardMultiplier", [], "uint256"),
  view("paused", [], "bool"),
  view("balanceOf", [["account", "address"]], "uint256"),
  view("sharesOf", [["account", "address"]], "uint256"),
  view("isBlocked", [["account", "address"]], "bool"),
  view(
    "hasRole",
    [
      ["role", "bytes32"],
      ["account", "address"],
    ],
    "bool",
  ),
] as const satisfies Abi;

function view<const N extends string, const I extends readonly (readonly [string, string])[], const O extends string>(
  name: N,
  inputs: I,
  output: O,
) {
  return {
    type: "function",
    name,
    stateMutability: "view",
    inputs: inputs.map(([inputName, type]) => ({ name: inputName, type })) as { [K in keyof I]: { name: I[K][0]; type: I[K][1] } },
    outputs: [{ name: "", type: output }] as const,
  } as const;
}

type ReadName = (typeof USDX_READS)[number]["name"];

/** How many calls go in one JSON-RPC batch: ethers' default, which hosted providers accept. */
const BATCH_MAX = 100;

/** Where eth_call goes: a node's URL, or the connected wallet. */
export interface ReadSource {
  config: AppConfig;
  rpcUrl: string | null;
  wallet: Eip1193Provider | null;
}

interface Call {
  to: string;
  name: ReadName;
  args?: readonly unknown[];
}

/** One call's answer: its return data, or why the node refused it. */
type Answer = { data: Hex } | { error: Error };

interface RpcReply {
  id?: number;
  result?: unknown;
  error?: { message?: string };
}

/** A JSON-RPC answer's error, as the sentence the node gave. */
function rpcError(reply: RpcReply): Error {
  return new Error(
    reply.error?.message ? `The RPC node refused the read: ${reply.error.message}` : "The RPC node gave no answer to the read.",
  );
}

async function postBatch(url: string, calls: { to: string; data: Hex }[]): Promise<Answer[]> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(calls.map((c, id) => ({ jsonrpc: "2.0", id, method: "eth_call", params: [c, "latest"] }))),
    });
  } catch {
    throw new Error(`The RPC node at ${url} could not be reached.`);
  }
  const text = await response.text();
  let replies: unknown;
  try {
    replies = JSON.parse(text);
  } catch {
    throw new Error(`The RPC node at ${url} answered ${response.status} without JSON.`);
  }
  // A node that refuses the whole batch (a rate limit, a plan without batches) answers one error.
  if (!Array.isArray(replies)) throw rpcError(replies as RpcReply);
  const byId = new Map((replies as RpcReply[]).map((r) => [r.id, r]));
  return calls.map((_, id) => {
    const reply = byId.get(id);
    return typeof reply?.result === "string" ? { data: reply.result as Hex } : { error: rpcError(reply ?? {}) };
  });
}

async function send(source: ReadSource, calls: { to: string; data: Hex }[]): Promise<Answer[]> {
  const { rpcUrl, wallet } = source;
  if (rpcUrl) {
    const answers: Answer[] = [];
    for (let i = 0; i < calls.length; i += BATCH_MAX) answers.push(...(await postBatch(rpcUrl, calls.slice(i, i + BATCH_MAX))));
    return answers;
  }
  if (wallet) {
    // The wallet reads on whichever chain it is on: refuse another than the token's, as ethers did.
    const walletChain = Number(await wallet.request({ method: "eth_chainId" }));
    if (walletChain !== source.config.chainId) {
      throw new Error(
        `The wallet is on chain ${walletChain}, and USDX is on chain ${source.config.chainId}: switch networks in the wallet.`,
      );
    }
    return Promise.all(
      calls.map((c) =>
        wallet.request({ method: "eth_call", params: [c, "latest"] }).then(
          (data): Answer => ({ data: data as Hex }),
          (error: unknown): Answer => ({ error: error instanceof Error ? error : new Error(String(error)) }),
        ),
      ),
    );
  }
  throw new Error("No way to read the chain: connect a wallet, or set a Custom RPC URL in Settings.");
}

/** Each call's decoded value, or its error. */
async function readEach(source: ReadSource, calls: Call[]): Promise<({ value: unknown } | { error: Error })[]> {
  const encoded = calls.map((c) => ({
    to: c.to,
    data: encodeFunctionData({ abi: USDX_READS, functionName: c.name, args: c.args } as Parameters<typeof encodeFunctionData>[0]),
  }));
  const answers = await send(source, encoded);
  return answers.map((answer, i) => {
    if ("error" in answer) return answer;
    // No code at the address answers "0x": the configured contract is not on this chain.
    if (answer.data === "0x") return { error: new Error(`There is no USDX contract at ${calls[i].to} on the chain read.`) };
    return { value: decodeFunctionResult({ abi: USDX_READS, functionName: calls[i].name, data: answer.data }) };
  });
}

/** Every call's value; the first failure is the read's error. */
async function readAll(source: ReadSource, calls: Call[]): Promise<unknown[]> {
  return (await readEach(source, calls)).map((result) => {
    if ("error" in result) throw result.error;
    return result.value;
  });
}

export interface TokenFigures {
  name: string;
  symbol: string;
  decimals: number;
  totalSupply: bigint;
  totalShares: bigint;
  rewardMultiplier: bigint;
  paused: boolean;
  /** Unix ms of the read, for the cards' 'Last updated' line. */
  readAt: number;
}

export async function readTokenFigures(source: ReadSource): Promise<TokenFigures> {
  const to = source.config.contracts.proxy;
  const names = ["name", "symbol", "decimals", "totalSupply", "totalShares", "rewardMultiplier", "paused"] as const;
  const [name, symbol, decimals, totalSupply, totalShares, rewardMultiplier, paused] = await readAll(
    source,
    names.map((n) => ({ to, name: n })),
  );
  return {
    name: name as string,
    symbol: symbol as string,
    decimals: Number(decimals),
    totalSupply: totalSupply as bigint,
    totalShares: totalShares as bigint,
    rewardMultiplier: rewardMultiplier as bigint,
    paused: paused as boolean,
    readAt: Date.now(),
  };
}

export interface AccountFigures {
  balance: bigint;
  shares: bigint;
  blocked: boolean;
  readAt: number;
}

export async function readAccountFigures(source: ReadSource, address: string): Promise<AccountFigures> {
  const to = source.config.contracts.proxy;
  const [balance, shares, blocked] = await readAll(source, [
    { to, name: "balanceOf", args: [address] },
    { to, name: "sharesOf", args: [address] },
    { to, name: "isBlocked", args: [address] },
  ]);
  return { balance: balance as bigint, shares: shares as bigint, blocked: blocked as boolean, readAt: Date.now() };
}

export type RoleFlags = Record<RoleName, boolean>;

/** PRODUCT.md section 6: the UI asks the contract (hasRole); a failed check counts as false. */
export async function readRoleFlags(source: ReadSource, address: string): Promise<RoleFlags> {
  // The role hashes are computed as their module loads: with the first role read (a wallet connected), not with the page.
  const { ROLE_NAMES, ROLES } = await import("@common/roles");
  const to = source.config.contracts.proxy;
  const held = await readEach(
    source,
    ROLE_NAMES.map((name) => ({ to, name: "hasRole", args: [ROLES[name], address] })),
  ).catch(() => ROLE_NAMES.map(() => ({ error: new Error("unread") })));
  return Object.fromEntries(ROLE_NAMES.map((name, i) => [name, "value" in held[i] && held[i].value === true])) as RoleFlags;
}

/** Whether each address is blocked now (the blocklist page's status column). */
export async function readBlocked(source: ReadSource, addresses: string[]): Promise<Record<string, boolean>> {
  const to = source.config.contracts.proxy;
  const flags = await readAll(
    source,
    addresses.map((a) => ({ to, name: "isBlocked", args: [a] })),
  );
  return Object.fromEntries(addresses.map((a, i) => [a, flags[i] as boolean]));
}
