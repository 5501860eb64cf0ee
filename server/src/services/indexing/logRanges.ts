import { getLogsRetryHelper } from "@ponder/utils";
import { toBeHex } from "ethers";
import { RpcError } from "../../chain/rpcTransport";

/**
 * Hosted providers refuse an eth_getLogs over too many blocks or with too many results, each in its
 * own words (Alchemy: "this block range should work: [0x.., 0x..]"; Infura: "query returned more
 * than 10000 results. Try with this block range [..]" or "range N exceeds limit of 10000";
 * QuickNode: "limited to a 10,000 range"; Ankr, Chainstack, Cloudflare, BlockPI, Blast, publicnode
 * and more: docs/architecture/chain.md lists them). @ponder/utils keeps that catalogue up to date; this
 * turns its answer into the span the indexer asks for next.
 */
export interface RangeAdvice {
  /** Blocks to ask for next (at least 1). */
  span: number;
  /** True when the provider named a size, false when we only halved. */
  stated: boolean;
  /**
   * 'range': a limit on blocks, the same everywhere (worth keeping as a cap); 'results': a limit on
   * what one answer holds, so the refusal was about that stretch's density and says nothing of the next.
   */
  limit: "range" | "results";
}

/** Words about how much an answer holds rather than how many blocks it spans. */
const RESULTS_LIMIT = /result|response size|response too large|logs matched/i;

/** How to split a refused eth_getLogs over [from, to]; null when the error is not a range or size refusal. */
export function rangeAdvice(error: unknown, from: number, to: number): RangeAdvice | null {
  if (!(error instanceof RpcError) || error.method !== "eth_getLogs") return null;
  const advice = getLogsRetryHelper({
    params: [{ fromBlock: toBeHex(from) as `0x${string}`, toBlock: toBeHex(to) as `0x${string}` }],
    // The helper reads the JSON-RPC error's code and words (it matches on their JSON text).
    error: { code: error.rpcCode, message: error.rpcMessage, details: error.rpcMessage, data: error.data } as never,
  });
  const requested = to - from + 1;
  // Infura's live range refusal ("range 1000000 exceeds limit of 10000"), which its docs and the
  // catalogue do not list yet.
  const infura = /range \d+ exceeds limit of ([\d,]+)/.exec(error.rpcMessage);
  if (infura) return { span: Math.max(1, Math.min(Number(infura[1].replace(/,/g, "")), requested - 1 || 1)), stated: true, limit: "range" };
  const limit = RESULTS_LIMIT.test(error.rpcMessage) ? "results" : "range";
  if (advice.shouldRetry) {
    const first = advice.ranges[0];
    const span = Number(BigInt(first.toBlock) - BigInt(first.fromBlock)) + 1;
    return { span: Math.max(1, Math.min(span, requested - 1 || 1)), stated: advice.isSuggestedRange, limit };
  }
  // Words the catalogue does not know yet, but plainly about size: halve.
  if (/range|too many|too large|exceed|limit|results|response size/i.test(error.rpcMessage) && requested > 1) {
    return { span: Math.max(1, Math.floor(requested / 2)), stated: false, limit };
  }
  return null;
}
