/**
 * Waiting until a mined transaction is final: `needed` blocks on top of the block that holds it,
 * the depth at which the server's index takes a block (INDEXER_CONFIRMATIONS, served in
 * /api/config). The receipt is read again at each step, so a transaction that a reorganisation
 * moves to another block is counted from there, and one it drops goes back to 'not mined'.
 */

/** What the wait needs from a provider (ethers' providers have both). */
export interface ConfirmationReader {
  getBlockNumber(): Promise<number>;
  getTransactionReceipt(hash: string): Promise<{ blockNumber: number; status: number | null } | null>;
}

export interface ConfirmationProgress {
  /** null while no block holds the transaction. */
  block: number | null;
  seen: number;
  needed: number;
}

/** Sepolia mines every 12 s: a look every 2 s shows each new block soon enough. */
export const CONFIRMATION_POLL_MS = 2000;

export class RevertedError extends Error {
  constructor() {
    super("The transaction was mined but reverted.");
  }
}

export async function awaitConfirmations(
  reader: ConfirmationReader,
  hash: string,
  needed: number,
  onProgress: (progress: ConfirmationProgress) => void,
  pollMs = CONFIRMATION_POLL_MS,
): Promise<void> {
  let last = "";
  for (;;) {
    const [receipt, head] = await Promise.all([reader.getTransactionReceipt(hash), reader.getBlockNumber()]);
    if (receipt && receipt.status !== 1) throw new RevertedError();
    const progress: ConfirmationProgress = receipt
      ? { block: receipt.blockNumber, seen: Math.min(needed, Math.max(0, head - receipt.blockNumber)), needed }
      : { block: null, seen: 0, needed };
    const key = `${progress.block}:${progress.seen}`;
    if (key !== last) {
      last = key;
      onProgress(progress);
    }
    if (progress.block !== null && progress.seen >= needed) return;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
