import type { LogsJudge } from "./providerProxy";

/**
 * A provider that refuses eth_getLogs at random, the same way every time for one seed (test tooling
 * for the property test of ranges that adapt, logRanges.property.test.ts). Per seed it draws:
 * - a block-range limit (or none), enforced on every request, refused in one provider's words;
 * - a results limit (or none, and never below the densest block's count, since a block cannot be
 *   split), enforced on the node's answer;
 * - how often an over-cautious provider refuses any range over one block anyway (an answer too
 *   large for that stretch, naming a smaller range or nothing).
 * Words come from the shapes logRanges.ts recognises, with or without a named range or limit.
 */

/** mulberry32: a small seeded generator, enough to make a pattern reproducible from its seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const hex = (n: number) => `0x${n.toString(16)}`;

type Refusal = { code: number; message: string };

export interface RandomPattern {
  seed: number;
  rangeLimit: number | null;
  resultsLimit: number | null;
  /** Chance that any range over one block is refused anyway. */
  flaky: number;
}

export class RandomRefusals implements LogsJudge {
  readonly pattern: RandomPattern;
  /** Refusals given, by kind (for the test's report). */
  readonly refused = { range: 0, results: 0, flaky: 0 };
  private readonly random: () => number;

  /** `densest`: the most logs one block of the chain holds (the least results limit a provider may have). */
  constructor(seed: number, densest: number, maxRange = 200, minRange = 5) {
    this.random = prng(seed);
    const r = this.random;
    this.pattern = {
      seed,
      // Free plans go as low as 5 blocks (QuickNode) and 10 (Alchemy).
      rangeLimit: r() < 0.7 ? minRange + Math.floor(r() * (maxRange - minRange + 1)) : null,
      resultsLimit: r() < 0.6 ? densest + Math.floor(r() * densest * 3) : null,
      flaky: r() < 0.5 ? r() * 0.1 : 0,
    };
  }

  private int(least: number, most: number): number {
    return least + Math.floor(this.random() * (most - least + 1));
  }

  private pick<T>(options: T[]): T {
    return options[Math.floor(this.random() * options.length)];
  }

  /** A refusal of a range over `limit` blocks, in one provider's words. */
  private rangeWords(from: number, limit: number): Refusal {
    return this.pick<() => Refusal>([
      () => ({
        code: -32600,
        message: `You can make eth_getLogs requests with up to a ${limit} block range. Based on your parameters, this block range should work: [${hex(from)}, ${hex(from + limit - 1)}]`,
      }),
      () => ({ code: -32602, message: `range ${limit + 1 + this.int(0, 1000)} exceeds limit of ${limit}` }),
      () => ({ code: -32614, message: `eth_getLogs is limited to a ${limit.toLocaleString("en-US")} range` }),
      () => ({ code: -32614, message: `eth_getLogs and eth_newFilter are limited to a ${limit} blocks range` }),
      () => ({ code: -32602, message: `eth_getLogs is limited to ${limit} block range` }),
      () => ({ code: -32000, message: `Max range: ${limit}` }),
      () => ({ code: -32602, message: `exceed maximum block range: ${limit}` }),
      // Named nothing: the server can only halve.
      () => ({ code: -32000, message: "Block range limit exceeded." }),
      () => ({ code: -32000, message: "Query timeout exceeded. Consider reducing your block range." }),
    ])();
  }

  /** A refusal of an answer too large, naming [from, fits] or nothing. */
  private resultsWords(from: number, fits: number, limit: number): Refusal {
    return this.pick<() => Refusal>([
      () => ({
        code: -32005,
        message: `query returned more than ${limit} results. Try with this block range [${hex(from)}, ${hex(fits)}].`,
      }),
      () => ({
        code: -32602,
        message: `Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on the response size, or you can request any block range with a cap of 10K logs in the response. Based on your parameters and the response size limit, this block range should work: [${hex(from)}, ${hex(fits)}]`,
      }),
      () => ({ code: -32005, message: `query returned more than ${limit} results` }),
      () => ({ code: -32000, message: "query exceeds max results" }),
      () => ({ code: -32000, message: "backend response too large" }),
    ])();
  }

  before(from: number, to: number): Refusal | null {
    const span = to - from + 1;
    const { rangeLimit, flaky } = this.pattern;
    if (rangeLimit !== null && span > rangeLimit) {
      this.refused.range++;
      return this.rangeWords(from, rangeLimit);
    }
    if (span > 1 && this.random() < flaky) {
      this.refused.flaky++;
      // An answer too large or too slow for this stretch: a results refusal naming a smaller range or
      // nothing, or a timeout in a block range's words (naming nothing). The timeout caps the span
      // just under what it refused, not at its halving: when halvings were ceilings, a few such
      // refusals left the indexer at one block a step (correct, but a thousand requests slower).
      if (this.random() < 0.5) return { code: -32000, message: "Query timeout exceeded. Consider reducing your block range." };
      const smaller = this.int(1, span - 1);
      return this.resultsWords(from, from + smaller - 1, smaller);
    }
    return null;
  }

  after(from: number, _to: number, blocks: number[]): Refusal | null {
    const { resultsLimit } = this.pattern;
    if (resultsLimit === null || blocks.length <= resultsLimit) return null;
    this.refused.results++;
    // A range that fits: up to the block before the one holding the limit-th log (as Infura names it).
    const fits = Math.max(from, blocks[resultsLimit] - 1);
    return this.resultsWords(from, fits, resultsLimit);
  }
}
