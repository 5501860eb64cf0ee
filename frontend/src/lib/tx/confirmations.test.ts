import { describe, expect, it } from "vitest";
import { awaitConfirmations, RevertedError, type ConfirmationProgress, type ConfirmationReader } from "./confirmations";

/** A chain scripted look by look: each look answers the next head and receipt. */
function chain(looks: { head: number; receipt: { blockNumber: number; status: number } | null }[]): ConfirmationReader {
  let i = 0;
  const at = () => looks[Math.min(i, looks.length - 1)];
  return {
    getBlockNumber: async () => at().head,
    getTransactionReceipt: async () => {
      const answer = at().receipt;
      queueMicrotask(() => i++); // both reads of one look see the same step
      return answer;
    },
  };
}

async function progressOf(reader: ConfirmationReader, needed: number): Promise<ConfirmationProgress[]> {
  const seen: ConfirmationProgress[] = [];
  await awaitConfirmations(reader, "0xabc", needed, (p) => seen.push(p), 0);
  return seen;
}

describe("awaitConfirmations", () => {
  it("counts the blocks on top of the transaction's block up to those needed, each change once", async () => {
    const mined = { blockNumber: 10, status: 1 };
    const seen = await progressOf(
      chain([
        { head: 10, receipt: mined },
        { head: 10, receipt: mined },
        { head: 12, receipt: mined },
        { head: 20, receipt: mined },
      ]),
      5,
    );
    expect(seen).toEqual([
      { block: 10, seen: 0, needed: 5 },
      { block: 10, seen: 2, needed: 5 },
      { block: 10, seen: 5, needed: 5 },
    ]);
  });

  it("counts again from the new block when a reorganisation moves the transaction, and waits while none holds it", async () => {
    const moved = await progressOf(
      chain([
        { head: 11, receipt: { blockNumber: 10, status: 1 } },
        { head: 12, receipt: null },
        { head: 13, receipt: { blockNumber: 12, status: 1 } },
        { head: 14, receipt: { blockNumber: 12, status: 1 } },
      ]),
      2,
    );
    expect(moved).toEqual([
      { block: 10, seen: 1, needed: 2 },
      { block: null, seen: 0, needed: 2 },
      { block: 12, seen: 1, needed: 2 },
      { block: 12, seen: 2, needed: 2 },
    ]);
  });

  it("fails when the block that now holds it says it reverted", async () => {
    await expect(progressOf(chain([{ head: 12, receipt: { blockNumber: 11, status: 0 } }]), 3)).rejects.toBeInstanceOf(RevertedError);
  });
});
