import { getLogsRetryHelper } from "@ponder/utils";
import { toBeHex } from "ethers";
import { RpcError } from "../../chain/rpcTransport";

/**
 * Hosted providers refuse an eth_getLogs over too many blocks or with too many results, each in its
 * own words. This turns a refusal into the span the indexer asks for next:
 * - where the refusal names a range that works ("[0x.., 0x..]"), that range's length;
 * - where it names a limit on blocks, that limit;
 * - else half of what was asked.
 * The words below were copied from the providers' answers (the source of each is noted beside it);
 * @ponder/utils' getLogsRetryHelper, which keeps a longer catalogue up to date, answers for words
 * not listed here.
 */
export interface RangeAdvice {
  /** Blocks to ask for next (at least 1, and fewer than were refused). */
  span: number;
  /** True when the provider named a size, false when we only halved. */
  stated: boolean;
  /**
   * 'range': a limit on blocks, the same everywhere (worth keeping as a cap); 'results': a limit on
   * what one answer holds, so the refusal was about that stretch's density and says nothing of the next.
   */
  limit: "range" | "results";
}

/**
 * Words about how much an answer holds rather than how many blocks it spans: Infura and geth "query
 * returned more than 10000 results"; Alchemy "Log response size exceeded"; Arbitrum "logs matched by
 * query exceeds limit of 10000"; llamarpc and Ankr "query exceeds max results"; Optimism "backend
 * response too large"; 1rpc "response size should not greater than N bytes".
 */
const RESULTS_LIMIT = /result|response size|response too large|logs matched/i;

/** A range the refusal names: "[0x1be4213, 0x1be4406]". */
const NAMED_RANGE = /\[\s*0x([0-9a-f]+)\s*,\s*0x([0-9a-f]+)\s*\]/i;

const count = (text: string) => Number(text.replace(/[,._]/g, ""));

/**
 * Refusals that name a block limit, and the number of blocks one eth_getLogs may then span. A limit
 * is read as a number of blocks (from..to inclusive): where a provider means to minus from, asking
 * for that many blocks is one fewer than it would take, never one more.
 */
const NAMED_LIMITS: { pattern: RegExp; blocks: (m: RegExpExecArray) => number }[] = [
  // Infura's live range refusal, code -32602: "range 1000000 exceeds limit of 10000" (INFURA/infura#237;
  // its docs still describe only the results limit).
  { pattern: /range \d+ exceeds limit of ([\d,]+)/i, blocks: (m) => count(m[1]) },
  // Tenderly, -32602 with the words in data.payload: "range 9009594 is bigger than range limit 2000"
  // (bobanetwork/boba_legacy#827).
  { pattern: /range \d+ is bigger than range limit ([\d,]+)/i, blocks: (m) => count(m[1]) },
  // QuickNode, code -32614 inside an HTTP 413: "eth_getLogs is limited to a 10,000 range"
  // (OffchainLabs/arbitrum-sdk#609); also "eth_getLogs and eth_newFilter are limited to a 10000
  // blocks range". 1rpc and Blast use the same words (the @ponder/utils catalogue).
  { pattern: /limited to a ([\d,.]+)(?: blocks?)? range/i, blocks: (m) => count(m[1]) },
  // BlockPI: "eth_getLogs is limited to 1024 block range" (the @ponder/utils catalogue).
  { pattern: /limited to ([\d,.]+) blocks?/i, blocks: (m) => count(m[1]) },
  // Cloudflare's gateway: "... Max range: 800" (the @ponder/utils catalogue).
  { pattern: /max range: ([\d,.]+)/i, blocks: (m) => count(m[1]) },
  // publicnode "maximum block range: 50000"; reth and Hyperliquid "query exceeds max block range
  // 5000" (paradigmxyz/reth#8558); Morph "block range is larger than max block range, block range =
  // 5120, max block range = 5000" (enviodev/hyperindex#605); Tron "exceed max block range: 5000".
  { pattern: /max(?:imum)? block range(?:\s*[=:]\s*|\s+)([\d,.]+)/i, blocks: (m) => count(m[1]) },
  // Avalanche: "requested too many blocks from 0 to 20000, maximum is set to 2048".
  { pattern: /maximum is set to ([\d,.]+)/i, blocks: (m) => count(m[1]) },
  // thirdweb: "Maximum allowed number of requested blocks is 1000".
  { pattern: /maximum allowed number of requested blocks is ([\d,.]+)/i, blocks: (m) => count(m[1]) },
  // Blast (paid): "exceeds the range allowed for your plan (20000 > 10000)".
  { pattern: /range allowed for your plan \(\d+ > (\d+)\)/i, blocks: (m) => count(m[1]) },
  // Coinbase (Base): "please limit the query to at most 1000 blocks".
  { pattern: /at most ([\d,.]+) blocks/i, blocks: (m) => count(m[1]) },
  // Moonbeam (Frontier): "block range is too wide (maximum 1024)" (moonbeam-foundation/moonbeam#3250).
  { pattern: /too wide \(maximum ([\d,.]+)\)/i, blocks: (m) => count(m[1]) },
  // Alchemy's older words and Aurora: "You can make eth_getLogs requests with up to a 500 block
  // range" (when no range is named after them).
  { pattern: /up to a ([\d,.]+) block range/i, blocks: (m) => count(m[1]) },
  // Ankr (TAC): "maximum [from, to] blocks distance: 10000" (ponder-sh/ponder#1940).
  { pattern: /blocks distance: ([\d,.]+)/i, blocks: (m) => count(m[1]) },
  // dRPC: "ranges over 10000 blocks are not supported on freetier".
  { pattern: /ranges over ([\d,.]+) blocks/i, blocks: (m) => count(m[1]) },
  // Merkle: "eth_getLogs range is too large, max is 1k blocks".
  { pattern: /max is ([\d.]+)k blocks/i, blocks: (m) => Math.round(Number(m[1]) * 1000) },
  // Swell, Somnia, Harmony (the @ponder/utils catalogue).
  { pattern: /block range greater than ([\d,.]+) max/i, blocks: (m) => count(m[1]) },
  { pattern: /block range exceeds ([\d,.]+)/i, blocks: (m) => count(m[1]) },
  { pattern: /query must be smaller than size ([\d,.]+)/i, blocks: (m) => count(m[1]) },
];

/**
 * Refusals whose words name no number, but whose provider's limit is known: Ankr, code -32600
 * "block range is too wide" (3,000 blocks on its public plan); Chainstack "Block range limit
 * exceeded." (100 blocks on its free plan, 10,000 on paid ones: the @ponder/utils catalogue, and
 * Chainstack's "Understanding eth_getLogs limitations").
 */
function knownLimit(message: string, code: number | undefined, requested: number): number | null {
  if (code === -32600 && /^block range is too wide$/i.test(message.trim())) return 3000;
  if (/block range limit exceeded/i.test(message)) return requested <= 10_000 ? 100 : 10_000;
  return null;
}

/**
 * Words plainly about the size of the query, naming nothing: halve. Besides the results words above:
 * Infura "query timeout exceeded" (-32005); Base and Monad "block range too large"; Optimism "Block
 * range is too large"; Candle "block range too high"; Scroll "block range is bigger than maxBlockRange";
 * eRPC "range threshold exceeded".
 */
const SIZE_WORDS = /range|too many|too large|too wide|too high|exceed|limit|results|response size|timeout|timed out/i;

/** How to split a refused eth_getLogs over [from, to]; null when the error is not a range or size refusal. */
export function rangeAdvice(error: unknown, from: number, to: number): RangeAdvice | null {
  if (!(error instanceof RpcError) || error.method !== "eth_getLogs") return null;
  const requested = to - from + 1;
  // Some providers put the detail in the error's data (Tenderly's payload, viem's Details).
  const data = typeof error.data === "string" ? error.data : error.data === undefined ? "" : JSON.stringify(error.data);
  const words = `${error.rpcMessage} ${data}`;
  const limit = RESULTS_LIMIT.test(words) ? "results" : "range";
  // Fewer blocks than were refused, and at least one (a refused single block: the indexer says so).
  const fit = (span: number) => Math.max(1, Math.min(Math.floor(span), requested - 1));

  // A range that works, named: Alchemy "this block range should work: [0x.., 0x..]" (as a block
  // limit, and after "Log response size exceeded." as a results limit), Infura and zkSync "query
  // returned more than 10000 results. Try with this block range [0x.., 0x..]."
  const named = NAMED_RANGE.exec(words);
  if (named) {
    const span = Number(BigInt(`0x${named[2]}`) - BigInt(`0x${named[1]}`)) + 1;
    if (span >= 1) return { span: fit(span), stated: true, limit };
  }
  for (const { pattern, blocks } of NAMED_LIMITS) {
    const m = pattern.exec(words);
    if (m && blocks(m) >= 1) return { span: fit(blocks(m)), stated: true, limit };
  }
  const known = knownLimit(error.rpcMessage, error.rpcCode, requested);
  if (known !== null) return { span: fit(known), stated: true, limit };

  // Words this list does not know, which the catalogue of @ponder/utils may.
  const advice = getLogsRetryHelper({
    params: [{ fromBlock: toBeHex(from) as `0x${string}`, toBlock: toBeHex(to) as `0x${string}` }],
    // The helper reads the JSON-RPC error's code and words (it matches on their JSON text).
    error: { code: error.rpcCode, message: error.rpcMessage, details: words, data: error.data } as never,
  });
  if (advice.shouldRetry) {
    const first = advice.ranges[0];
    const span = Number(BigInt(first.toBlock) - BigInt(first.fromBlock)) + 1;
    return { span: fit(span), stated: advice.isSuggestedRange, limit };
  }
  // Words nobody lists yet, but plainly about size: halve.
  if (SIZE_WORDS.test(words)) return { span: fit(requested / 2), stated: false, limit };
  return null;
}
