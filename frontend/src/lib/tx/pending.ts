import { create } from "zustand";
import type { HistoryType } from "@common/events";

/**
 * Transfers, mints and burns this browser has sent that the server's history does not show yet.
 * On Sepolia the index takes a block only once it is confirmations-deep (about a minute), so
 * without these a person's own transfer would vanish from Recent Transactions until then. The
 * list shows them first, as 'Pending' (spec: history entries are confirmed or pending, pending
 * first), and drops each once the history has its hash.
 */
export interface PendingEntry {
  hash: string;
  type: HistoryType;
  from: string;
  to: string;
  /** The amount sent, in base units. */
  amountRaw: string;
  /** When the wallet sent it (ms): shown as the entry's time until a block has one. */
  sentAt: number;
}

/** An entry the index has not shown after this long was dropped or replaced: stop showing it. */
export const PENDING_ENTRY_TTL_MS = 30 * 60_000;

interface PendingStore {
  entries: PendingEntry[];
  add(entry: PendingEntry): void;
  remove(hashes: readonly string[]): void;
}

export const usePendingEntries = create<PendingStore>((set) => ({
  entries: [],
  add: (entry) => set((s) => ({ entries: [entry, ...s.entries.filter((e) => e.hash !== entry.hash)] })),
  remove: (hashes) => {
    const gone = new Set(hashes.map((h) => h.toLowerCase()));
    set((s) =>
      s.entries.some((e) => gone.has(e.hash.toLowerCase())) ? { entries: s.entries.filter((e) => !gone.has(e.hash.toLowerCase())) } : s,
    );
  },
}));

/** `address`'s entries still waiting for the history, newest first. */
export function pendingFor(entries: readonly PendingEntry[], address: string, now: number): PendingEntry[] {
  const me = address.toLowerCase();
  return entries.filter((e) => (e.from.toLowerCase() === me || e.to.toLowerCase() === me) && now - e.sentAt < PENDING_ENTRY_TTL_MS);
}
