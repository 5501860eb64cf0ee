import type { PaymentsState } from "./stores/paymentsStore";

export type ChunkView = {
  index: number;
  recipients: number;
  /** Base units. */
  total: bigint;
  status: "waiting" | "sending" | "submitted" | "proposed" | "paid" | "failed";
  txHash: string | null;
  error: string | null;
};

export interface Progress {
  chunks: ChunkView[];
  chunksPaid: number;
  recipients: number;
  recipientsPaid: number;
  /** The chunk being worked on, counted from 1 ('Chunk 2 of 5'). */
  current: number;
}

/**
 * What the screen knows of each chunk: what this browser saw (the wallet's hash, the receipt)
 * merged with the server's poll (the chain as the server's watcher reads it, and its errors).
 */
export function progressOf(state: Pick<PaymentsState, "job" | "chunks" | "server" | "activeChunk">): Progress {
  const { job } = state;
  if (!job) return { chunks: [], chunksPaid: 0, recipients: 0, recipientsPaid: 0, current: 0 };
  const server = state.server?.job.jobId === job.jobId ? state.server : null;
  const chunks = job.chunks.map((plan, i): ChunkView => {
    const local = state.chunks[i] ?? { status: "waiting", txHash: null };
    const remote = server?.chunks.find((c) => c.index === plan.index);
    let status = local.status;
    if (remote?.status === "confirmed") status = "paid";
    else if (remote?.status === "failed" && local.status !== "sending" && local.status !== "waiting") status = "failed";
    // Closed (the batch failed and its time to send is over): not paid, and never will be from here.
    else if (remote?.status === "closed" && local.status !== "sending") status = "failed";
    else if (remote?.status === "submitted" && local.status === "waiting") status = "submitted";
    // Paid from a Safe: proposed, and waiting for the owners (executed, its payment not yet indexed, still waits here).
    else if (remote?.proposal && ["pending", "executed"].includes(remote.proposal.state) && local.status === "waiting") status = "proposed";
    return {
      index: plan.index,
      recipients: plan.recipients.length,
      total: BigInt(plan.total),
      status,
      txHash: local.txHash ?? remote?.txHash ?? null,
      error: status === "failed" ? (remote?.error ?? null) : null,
    };
  });
  const paid = chunks.filter((c) => c.status === "paid");
  const recipientsPaid = Math.max(
    paid.reduce((sum, c) => sum + c.recipients, 0),
    server?.job.recipientsPaid ?? 0,
  );
  const started = chunks.filter((c) => c.status !== "waiting").length;
  const current = state.activeChunk !== null ? state.activeChunk + 1 : Math.max(1, Math.min(started, chunks.length));
  return { chunks, chunksPaid: paid.length, recipients: job.recipients, recipientsPaid, current };
}
