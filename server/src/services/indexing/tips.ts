import type { RpcAnswer, RpcCall } from "../../chain/batchCalls";
import type { Chain } from "../../chain/client";
import type { ChainHeader } from "../../chain/heads";
import { headerCall } from "./ranges";

/** The chain's newest block as a poll reads it (`eth_getBlockByNumber("latest")`), or as it was pushed. */
export type Tip = ChainHeader;

export const tipCall: RpcCall = { method: "eth_getBlockByNumber", params: ["latest", false] };

/** The header from an eth_getBlockByNumber answer (the tip, or block `n`); throws the node's refusal, or when the answer is no block. */
export function tipOf(answer: RpcAnswer<unknown>, n: number | "latest" = "latest"): Tip {
  if (!answer.ok) throw answer.error;
  const block = answer.result as { number?: string; hash?: string; parentHash?: string; timestamp?: string } | null;
  if (!block?.hash || !block.number || !block.parentHash)
    throw new Error(n === "latest" ? "the RPC node answered no latest block" : `block ${n} is not available yet`);
  return { blockNumber: Number(block.number), blockHash: block.hash, parentHash: block.parentHash, blockTime: Number(block.timestamp) };
}

/**
 * The tips the polls have read, newest first, kept while they are within `keep` blocks of the
 * newest. A block's hash commits to every block before it, so where each kept tip's parentHash is
 * the hash of the tip one below it, the older ones are ancestors of the newest: the chain is the
 * one those headers describe, with no read of its own. That is what lets a poll that sees one new
 * confirmed block read only its logs (EventIndexer.sync): the block's header was read when it was
 * the tip, and its link to the checkpoint is its parentHash.
 */
export class TipRing {
  private readonly tips = new Map<number, Tip>();
  private newest: Tip | null = null;

  constructor(private readonly keep: number) {}

  /** Notes the tip read now. A lower or equal number (a shorter chain, a reorganisation) drops the tips above it. */
  add(tip: Tip): void {
    for (const n of this.tips.keys()) if (n >= tip.blockNumber || n < tip.blockNumber - this.keep) this.tips.delete(n);
    this.tips.set(tip.blockNumber, tip);
    this.newest = tip;
  }

  /** Notes a block below the newest tip, read by number: it fills a gap the polls left (a poll that missed a block, the first polls). */
  fill(header: Tip): void {
    if (this.newest && header.blockNumber < this.newest.blockNumber && header.blockNumber >= this.newest.blockNumber - this.keep)
      this.tips.set(header.blockNumber, header);
  }

  /** The blocks from `from` to below the newest tip that are not kept, or whose hash is not the parentHash of the one above. */
  unlinked(from: number): number[] {
    const numbers: number[] = [];
    if (!this.newest) return numbers;
    for (let n = from; n < this.newest.blockNumber; n++) {
      const block = this.tips.get(n);
      const above = this.tips.get(n + 1);
      if (!block || (above && above.parentHash !== block.blockHash)) numbers.push(n);
    }
    return numbers;
  }

  /** Block `n` as an ancestor of the newest tip, each tip down to it linked to the one below by hash; null where a link is missing or broken. */
  linked(n: number): Tip | null {
    let at = this.newest;
    while (at && at.blockNumber > n) {
      const below = this.tips.get(at.blockNumber - 1);
      at = below && below.blockHash === at.parentHash ? below : null;
    }
    return at?.blockNumber === n ? at : null;
  }

  clear(): void {
    this.tips.clear();
    this.newest = null;
  }
}

/**
 * The tips the indexer follows the chain by: read once a poll (one call), or pushed over WebSocket
 * (none), kept in a ring, and filled in where a poll missed one.
 */
export class ChainTips {
  private readonly ring: TipRing;
  /** The newest head pushed since the last step began, whole: that step's tip, with no read. */
  private pushed: Tip | null = null;

  constructor(
    private readonly chain: Chain,
    private readonly confirmations: number,
  ) {
    // The confirmed block and every tip above it, and one to spare.
    this.ring = new TipRing(confirmations + 2);
  }

  /** The chain's tip, read now (`eth_getBlockByNumber("latest")`), and kept. */
  async read(): Promise<Tip> {
    const [answer] = await this.chain.calls.many([tipCall]);
    const tip = tipOf(answer);
    this.ring.add(tip);
    return tip;
  }

  /** A head pushed over WebSocket: kept, and the next step's tip. */
  push(header: Tip): void {
    this.ring.add(header);
    this.pushed = header;
  }

  /** The head pushed since the last call, or null. */
  takePushed(): Tip | null {
    const tip = this.pushed;
    this.pushed = null;
    return tip;
  }

  /** Block `n` as an ancestor of the newest tip, linked hash by hash (TipRing.linked). */
  linked(n: number): Tip | null {
    return this.ring.linked(n);
  }

  /**
   * After a general step: the headers between the checkpoint and the tip that the polls have not
   * read, or that do not link, read in one request, so the next poll that finds one new confirmed
   * block can step along the tips. None while the polls keep up; one after a poll that missed a
   * block; all of them (confirmations - 1 at most) at the first step, or after a reorganisation.
   */
  async fill(tip: Tip, checkpoint: number): Promise<void> {
    const from = Math.max(checkpoint + 1, tip.blockNumber - this.confirmations);
    if (from >= tip.blockNumber || this.ring.linked(from)) return;
    const read = async (numbers: number[]) => {
      const answers = await this.chain.calls.many(numbers.map(headerCall));
      answers.forEach((answer, i) => answer.ok && answer.result && this.ring.fill(tipOf(answer, numbers[i])));
    };
    await read(this.ring.unlinked(from));
    // Headers kept from another fork: read them all again.
    if (!this.ring.linked(from)) await read(Array.from({ length: tip.blockNumber - from }, (_, i) => from + i));
  }
}
