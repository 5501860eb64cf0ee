/**
 * Settings' Custom RPC URL checks. The spec only asks for a non-empty value; we also want an
 * http(s) URL (reads use ethers' JsonRpcProvider) that really serves the configured chain, so a
 * typo or a mainnet URL cannot silently point every balance on the dashboard at the wrong chain.
 */

/** How long the node may take to answer eth_chainId before we give up. */
export const RPC_PROBE_TIMEOUT_MS = 5000;

export interface Problem {
  title: string;
  description: string;
}

export type RpcUrlCheck = { ok: true; value: string } | { ok: false; problem: Problem };

const invalid = (description: string): RpcUrlCheck => ({ ok: false, problem: { title: "Invalid RPC URL", description } });

/** PRODUCT.md section 5: non-empty ('Please enter a valid RPC URL'); ours: also an http(s) URL. */
export function checkRpcUrl(input: string): RpcUrlCheck {
  const text = input.trim();
  if (text === "") return invalid("Please enter a valid RPC URL");
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return invalid("Please enter a valid RPC URL starting with http:// or https://");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return invalid("Please enter a valid RPC URL starting with http:// or https://");
  return { ok: true, value: text };
}

/**
 * Asks the node at `url` which chain it serves (eth_chainId). Resolves when it is `expectedChainId`;
 * otherwise throws an Error whose message is one sentence saying what is wrong.
 */
export async function probeRpcChain(
  url: string,
  expectedChainId: number,
  fetcher: typeof fetch = fetch,
  timeoutMs = RPC_PROBE_TIMEOUT_MS,
): Promise<void> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let body: { result?: unknown; error?: { message?: unknown } } | null;
  try {
    let res: Response;
    try {
      res = await fetcher(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
        signal: controller.signal,
      });
    } catch {
      if (controller.signal.aborted) throw new Error(`That RPC did not answer within ${timeoutMs / 1000} seconds.`);
      // A browser reports a refused connection, a bad host and a CORS refusal the same way.
      throw new Error(
        "Could not reach that RPC URL: check the address, that the node is running, and that it accepts requests from this page (CORS).",
      );
    }
    if (!res.ok) throw new Error(`That RPC answered HTTP ${res.status} instead of a JSON-RPC reply.`);
    try {
      body = (await res.json()) as typeof body;
    } catch {
      if (controller.signal.aborted) throw new Error(`That RPC did not answer within ${timeoutMs / 1000} seconds.`);
      throw new Error("That URL does not answer like an Ethereum JSON-RPC node: its reply is not JSON.");
    }
  } finally {
    clearTimeout(timer);
  }
  if (body?.error) {
    const reason = typeof body.error.message === "string" && body.error.message !== "" ? body.error.message : "no reason given";
    throw new Error(`That RPC refused to say which chain it serves (${reason}).`);
  }
  const result = body?.result;
  if (typeof result !== "string" || !/^0x[0-9a-fA-F]+$/.test(result)) {
    throw new Error("That URL does not answer like an Ethereum JSON-RPC node: its reply has no chain id.");
  }
  const chainId = Number(BigInt(result));
  if (chainId !== expectedChainId) throw new Error(`That RPC answers chain ${chainId}; this dashboard runs on chain ${expectedChainId}.`);
}
