import type { PushedHeader } from "../../chain/heads";
import type { StoredBlock } from "./indexWrites";

/** Pushed heads kept: more than any confirmations setting, so the range's end is always among them. */
const KEPT = 256;

/**
 * The recent heads the node pushed (newHeads), each linked to the one before by its parentHash. A
 * block whose chain of parents reaches the newest pushed head is on the chain as the node last
 * told it: its hash and time are known without asking, so with pushed heads a step at idle costs
 * its eth_getLogs alone. A head whose parent is not the kept one (a reorganisation), or one at or
 * below a kept number, drops what it contradicts; a gap (a lost message) leaves the blocks below
 * it unlinked, so they are read as without heads.
 */
export class HeadRing {
  private readonly heads = new Map<number, PushedHeader>();
  private newest: number | null = null;

  add(header: PushedHeader): void {
    const parent = this.heads.get(header.number - 1);
    if (parent && parent.hash !== header.parentHash) this.clear();
    // A head at or below one kept supersedes everything from its height up.
    for (const n of [...this.heads.keys()]) if (n >= header.number) this.heads.delete(n);
    this.heads.set(header.number, header);
    this.newest = header.number;
    for (const n of this.heads.keys()) if (n <= header.number - KEPT) this.heads.delete(n);
  }

  clear(): void {
    this.heads.clear();
    this.newest = null;
  }

  /** Block `n` if its parents link it to the newest pushed head, else null (read it). */
  at(n: number): StoredBlock | null {
    if (this.newest === null || n > this.newest) return null;
    for (let k = this.newest; k > n; k--) {
      const child = this.heads.get(k);
      const parent = this.heads.get(k - 1);
      if (!child || !parent || child.parentHash !== parent.hash) return null;
    }
    const block = this.heads.get(n)!;
    return { blockNumber: n, blockHash: block.hash, blockTime: block.timestamp };
  }
}
