import { toQuantity } from "ethers";
import type { BatchCalls, RpcAnswer, RpcCall } from "../../chain/batchCalls";
import type { Logger } from "../../lib/logger";
import { parseRawLog, type ParsedLog, type RawLog } from "./decoder";
import type { StoredBlock } from "./indexWrites";
import { rangeAdvice } from "./logRanges";

/** How long a range size a provider named caps the indexer's eth_getLogs span. */
const SPAN_CEILING_MS = 10 * 60_000;

/**
 * Blocks asked for in one eth_getLogs: batchBlocks at first, less after a provider refused a range
 * (the size it named, or half). A block-range refusal caps the span for SPAN_CEILING_MS: at the
 * size the provider named; else, since only what failed is known, just under the narrowest refused
 * range, and the span then searches between the widest range answered and that one (halfway each
 * time, until within an eighth), so a spurious refusal (a timeout) costs a few requests and a real
 * unnamed limit is found in a few refusals. Within the cap the span doubles back after each
 * answered range.
 */
export class RangeSpan {
  blocks: number;
  private ceiling: number;
  private ceilingSetAt = 0;
  /** The widest range answered, and the narrowest refused for its span without a named size, since the cap was set. */
  private good = 0;
  private bad = Infinity;

  constructor(
    private readonly batchBlocks: number,
    private readonly log: Logger,
  ) {
    this.blocks = this.ceiling = batchBlocks;
  }

  /**
   * A provider's range or result limit: the same block is asked again with fewer blocks, so nothing
   * is skipped (the checkpoint moves only when a range is stored whole). Any other refusal throws.
   */
  shrinkAfter(error: Error, from: number, to: number): void {
    const advice = rangeAdvice(error, from, to);
    if (!advice) throw error;
    if (to === from)
      throw new Error(
        `block ${from} alone has more events than the RPC provider answers at once (${error.message}); use a provider or plan with a higher eth_getLogs limit`,
        { cause: error },
      );
    // A block-range limit is the same further on: the span stays within it for a while (growing
    // back would only be refused again). A results limit was about this stretch's density: the
    // span shrinks for it and grows back after it.
    this.blocks = advice.span;
    if (advice.limit === "range") {
      const asked = to - from + 1;
      if (advice.stated) {
        this.ceiling = advice.span;
        this.bad = Infinity;
      } else {
        // Only that `asked` failed is known: a halving as the cap would ratchet down with each
        // spurious refusal (one property-test seed: 11 of them left a 1-block span).
        this.bad = Math.min(this.bad, asked);
        this.ceiling = Math.min(this.ceiling, asked - 1);
        this.blocks = Math.max(advice.span, Math.min(this.good, asked - 1));
      }
      this.ceilingSetAt = Date.now();
    }
    this.log.info({ from, to, span: this.blocks, reason: error.message }, "eth_getLogs refused: asking for fewer blocks");
  }

  /** After a range of `answered` blocks is answered: the span grows back towards its ceiling, and a ceiling lapses after a while. */
  grow(answered: number): void {
    // Plans change and words can mislead: the cap holds for a while, then the span may grow to
    // batchBlocks again.
    if (this.ceiling < this.batchBlocks && Date.now() - this.ceilingSetAt > SPAN_CEILING_MS) {
      this.ceiling = this.batchBlocks;
      this.good = 0;
      this.bad = Infinity;
    }
    // At the widest answered yet, below a refused width: halfway to it. Below it (shrunk for a
    // results limit, or a range at the target): doubling, as ever.
    const frontier = answered >= this.good;
    this.good = Math.max(this.good, answered);
    if (this.bad !== Infinity && frontier) {
      const next = this.bad - this.good > this.good / 8 ? Math.floor((this.good + this.bad) / 2) : this.good;
      this.blocks = Math.min(this.ceiling, Math.max(this.blocks, next));
    } else if (this.blocks < this.ceiling) this.blocks = Math.min(this.ceiling, this.blocks * 2);
  }
}

/** A range's logs, read; the blocks known with them, and those still to read (for their times). */
export interface RangeRead {
  from: number;
  to: number;
  logs: ParsedLog[];
  /** Blocks known already: block `to`, whose header comes with the logs, and any whose logs carry their time. */
  known: StoredBlock[];
  /** Blocks holding events whose header is still to read. */
  missing: number[];
}

export function readRange(from: number, to: number, raw: RawLog[], end: StoredBlock): RangeRead {
  const logs = raw.filter((l) => !l.removed).map(parseRawLog);
  const known: StoredBlock[] = [end];
  // A provider that sends each log's block time (newer nodes do) spares the block reads.
  for (const log of raw) {
    const time = (log as { blockTimestamp?: string }).blockTimestamp;
    const n = Number(log.blockNumber);
    if (time !== undefined && !known.some((b) => b.blockNumber === n))
      known.push({ blockNumber: n, blockHash: log.blockHash, blockTime: Number(time) });
  }
  const missing = [...new Set(logs.map((l) => l.blockNumber))].filter((n) => !known.some((b) => b.blockNumber === n));
  return { from, to, logs, known, missing };
}

export const logsCall = (address: string[], from: number, to: number): RpcCall => ({
  method: "eth_getLogs",
  params: [{ address, fromBlock: toQuantity(from), toBlock: toQuantity(to) }],
});

export const headerCall = (n: number): RpcCall => ({ method: "eth_getBlockByNumber", params: [toQuantity(n), false] });

/** Block `n` from its eth_getBlockByNumber answer; throws on a refusal, or when the chain has no such block (unless `orNull`). */
export function blockOf(answer: RpcAnswer<unknown>, n: number): StoredBlock;
export function blockOf(answer: RpcAnswer<unknown>, n: number, orNull: true): StoredBlock | null;
export function blockOf(answer: RpcAnswer<unknown>, n: number, orNull = false): StoredBlock | null {
  if (!answer.ok) throw answer.error;
  const block = answer.result as { hash?: string; timestamp?: string } | null;
  if (!block || !block.hash) {
    if (orNull) return null;
    throw new Error(`block ${n} is not available yet`);
  }
  return { blockNumber: n, blockHash: block.hash, blockTime: Number(block.timestamp) };
}

/** A block read again has another hash than before: the chain was reorganised under the step. */
export class BlockChanged extends Error {
  constructor(readonly blockNumber: number) {
    super(`block ${blockNumber} changed: the chain was reorganised`);
  }
}

/** What catchUp reads with: the batched calls, the contracts whose logs it asks for, and the adapting span. */
export interface RangeReader {
  calls: BatchCalls;
  addresses: string[];
  span: RangeSpan;
}

/**
 * Indexes blocks checkpoint+1..target and returns the new checkpoint. Each range costs one
 * request: its eth_getLogs, its end block's header (whose hash the next range and the next poll
 * check) and the block before it again (`start`, then each range's end, must still have the hash
 * it had, else BlockChanged: a rewind since that block was read fails the step). The blocks a
 * range's events are in (for their times, and to check the logs' block hashes) are read with the
 * next range's, in the same batch, so a range with events costs no request of its own; the range
 * is stored (`store`) once they are in. Ranges are stored in order, each with the checkpoint, so a
 * failure loses only what is unstored.
 */
export async function catchUp(
  reader: RangeReader,
  checkpoint: number,
  target: number,
  start: StoredBlock | null,
  store: (range: RangeRead, read: StoredBlock[]) => Promise<number>,
): Promise<number> {
  const { calls: batch, addresses, span } = reader;
  let asked = checkpoint; // the last block asked for
  let waiting: RangeRead | null = null; // a range read, waiting for its events' blocks
  let parent = start; // block `asked` as last read: the next range must continue it
  while (asked < target || waiting) {
    const from = asked + 1;
    const to = Math.min(from + span.blocks - 1, target);
    const calls: RpcCall[] = asked < target ? [logsCall(addresses, from, to), headerCall(to), headerCall(from - 1)] : [];
    const missing = waiting?.missing ?? [];
    calls.push(...missing.map(headerCall));
    const answers = await batch.many<unknown>(calls);
    if (waiting) {
      const read = missing.map((n, i) => blockOf(answers[answers.length - missing.length + i], n));
      checkpoint = await store(waiting, read);
      waiting = null;
    }
    if (asked >= target) break;
    const logsAnswer = answers[0];
    if (!logsAnswer.ok) {
      span.shrinkAfter(logsAnswer.error, from, to);
      continue;
    }
    if (parent && blockOf(answers[2], from - 1).blockHash !== parent.blockHash) throw new BlockChanged(from - 1);
    span.grow(to - from + 1);
    const end = blockOf(answers[1], to);
    const range = readRange(from, to, logsAnswer.result as RawLog[], end);
    asked = to;
    parent = end;
    if (range.missing.length === 0) checkpoint = await store(range, []);
    else waiting = range;
  }
  return checkpoint;
}
