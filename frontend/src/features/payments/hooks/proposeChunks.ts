import type { QueryClient } from "@tanstack/react-query";
import { chunkSafeTx } from "@common/safeBatch";
import { toast } from "@/components/ui/toast";
import { ApiError, call } from "@/lib/api";
import type { AppConfig } from "@/lib/config";
import { plural } from "@/lib/format";
import { safesKey } from "@/lib/safes";
import { onDashboardChain, signingWallet, writeFailure } from "@/lib/tx/wallet";
import { disarmTimeout, fail, isCurrent, updateChunk, usePayments, type StartedJob } from "../stores/paymentsStore";

/** What the screen says once a Safe's chunks are proposed: 'Proposed to Operations Safe: 2 chunks await approval'. */
export const proposedLine = (safeName: string, chunks: number) =>
  `Proposed to ${safeName}: ${plural(chunks, "chunk")} ${chunks === 1 ? "awaits" : "await"} approval`;

/**
 * Pays the chunks `indexes` of a job from a Safe: each becomes a Safe proposal, a MultiSend of USDX
 * approve and BatchPayments pay (common/safeBatch.ts), at consecutive nonces from the Safe's next
 * free one, signed by the wallet as one owner (one signature per chunk) and stored by the server,
 * which refuses a chunk that is paid or already has a proposal waiting. The other owners approve
 * and execute them on the Approvals screen; the job's poll shows each chunk paid as its payment is
 * indexed. Nothing goes on chain from here.
 */
export async function proposeChunks(job: StartedJob, indexes: number[], runNumber: number, config: AppConfig, queryClient: QueryClient) {
  const safe = job.safe!;
  const toPropose = job.chunks.filter((c) => indexes.includes(c.index));
  const wallet = signingWallet("Please connect your wallet to make USDX payments");
  if (!wallet) {
    fail("Wallet not connected");
    return;
  }
  usePayments.setState({ step: "proposing", activeChunk: null });
  let proposed = 0;
  try {
    await onDashboardChain(wallet, config);
    const { signSafeTx } = await import("@/lib/chain/contracts");
    // Asked afresh: the nonce after the Safe's and every pending proposal's, so none claims a taken one.
    const fresh = (await call("GET /api/safes")).safes.find((s) => s.address.toLowerCase() === safe.address.toLowerCase());
    let nonce = BigInt(fresh?.nextNonce ?? "0");
    const where = { token: config.contracts.proxy, batchPayments: config.contracts.batchPayments };
    for (const chunk of toPropose) {
      if (!isCurrent(runNumber)) return;
      usePayments.setState({ activeChunk: chunk.index });
      updateChunk(chunk.index, { status: "sending", txHash: null });
      const payment = { ...chunk, amounts: chunk.amounts.map((a) => BigInt(a)), total: BigInt(chunk.total) };
      const tx = chunkSafeTx(safe.multiSendCallOnly, where, payment, nonce);
      const signature = await signSafeTx(config, wallet.provider, wallet.address, safe.address, tx);
      await call("POST /api/safes/:safe/proposals", { params: { safe: safe.address }, body: { tx, signature } });
      updateChunk(chunk.index, { status: "proposed", txHash: null });
      proposed++;
      nonce++;
    }
  } catch (error) {
    void queryClient.invalidateQueries({ queryKey: safesKey });
    if (!isCurrent(runNumber)) return;
    const active = usePayments.getState().activeChunk;
    if (active !== null) updateChunk(active, { status: "waiting", txHash: null });
    const failure = await writeFailure(error);
    const message = error instanceof ApiError ? error.sentence : failure.message;
    if (!failure.told) toast({ title: `Could not propose to ${safe.name}`, description: message, variant: "destructive" });
    fail(message);
    return;
  }
  void queryClient.invalidateQueries({ queryKey: safesKey });
  if (!isCurrent(runNumber)) return;
  // The owners approve over hours: the screen's overall timeout does not apply to them.
  disarmTimeout();
  usePayments.setState({ step: "awaiting approval", activeChunk: null, sendingDoneAt: Date.now() });
  if (proposed > 0)
    toast({
      title: `Proposed to ${safe.name}`,
      description: `${plural(proposed, "chunk")} ${proposed === 1 ? "awaits" : "await"} approval`,
    });
}
