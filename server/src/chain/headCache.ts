/**
 * Chain reads that requests ask for (a wallet's balance), shared by every caller: an answer is kept
 * while the chain's head, as the server's loops last read it, has not moved, and for at most
 * HEAD_CACHE_MAX_MS; requests that arrive while a read is under way share it. So a flood of
 * requests costs the RPC provider at most one read per key and new head, never one per request,
 * and no request of ours asks the node for its head (the indexer's poll already does).
 *
 * The head is named by its hash as well as its number: after a reorganisation, or a restored
 * snapshot on the local chain, the head comes back at a number it had before, and an answer kept
 * under the number alone would be the abandoned branch's.
 */

/** PRODUCT.md section 9: server data is cached for at most 5 minutes (also while the head is not read, or stands still). */
export const HEAD_CACHE_MAX_MS = 5 * 60 * 1000;
/** A read that failed is answered to every caller this long, so a node that fails is not asked once a request. */
export const FAILED_READ_MS = 1000;
/** Keys kept at most; past it, what is stale goes, then everything (a new head makes every entry stale anyway). */
const MAX_ENTRIES = 10_000;

/** The head an answer was read at: its number and hash ("12:0xab..."), null before the loops' first read. */
export type HeadId = string | null;

interface Entry {
  head: HeadId;
  at: number;
  failed: boolean;
  value: Promise<unknown>;
}

export class HeadCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    /** The chain's head as the loops last read it (null before the first read). */
    private readonly head: () => HeadId,
    private readonly now: () => number = Date.now,
  ) {}

  /** `read()`'s answer for `key` at the current head: cached, shared while under way, or read now. */
  read<T>(key: string, read: () => Promise<T>): Promise<T> {
    const head = this.head();
    const now = this.now();
    const hit = this.entries.get(key);
    if (hit && this.fresh(hit, head, now)) return hit.value as Promise<T>;
    if (this.entries.size >= MAX_ENTRIES) this.sweep(head, now);
    const entry: Entry = { head, at: now, failed: false, value: read() };
    this.entries.set(key, entry);
    entry.value.catch(() => {
      entry.failed = true;
      entry.at = this.now();
    });
    return entry.value as Promise<T>;
  }

  /** Drops `key`'s answer: for a change this server made itself (a mint it sent), seen before the next head. */
  forget(key: string): void {
    this.entries.delete(key);
  }

  private fresh(entry: Entry, head: HeadId, now: number): boolean {
    return entry.head === head && now - entry.at < (entry.failed ? FAILED_READ_MS : HEAD_CACHE_MAX_MS);
  }

  private sweep(head: HeadId, now: number): void {
    for (const [key, entry] of this.entries) if (!this.fresh(entry, head, now)) this.entries.delete(key);
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
  }
}
