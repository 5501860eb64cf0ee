import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { describeError } from "@common/contractErrors";
import { execTransactionArgs, packSignatures, rejectionSafeTx, safeTxHash, type SafeTx } from "@common/safe";
import { ApiError } from "@/lib/api";
import { useRpcSetting } from "@/lib/chain/rpc";
import { useConfig, type AppConfig } from "@/lib/config";
import { notify } from "@/lib/notices";
import { safesKey } from "@/lib/safes";
import { contractCall } from "@/lib/tx/contractCall";
import { awaiting } from "@/lib/tx/propose";
import { useTransactor } from "@/lib/tx/runner";
import { onDashboardChain, signingWallet, writeFailure, type SigningWallet } from "@/lib/tx/wallet";
import { postApproval, postProposal, type SafeInfo, type SafeProposal } from "../api/safes";

/** 'Wallet not connected' says what the wallet was wanted for. */
export const OWNER_NOT_CONNECTED = "Please connect an owner's wallet to approve, execute or reject proposals";

export type ProposalAction = "approve" | "execute" | "reject";

/** A failure in words: the server's own sentence for a refusal, else the wallet's or the contract's. */
async function failure(error: unknown): Promise<{ message: string; told: boolean }> {
  if (error instanceof ApiError) return { message: error.sentence, told: false };
  return writeFailure(error);
}

/** The wallet's signature of `tx` for `safe` as one owner, on the dashboard's chain (the signature names it). */
async function sign(config: AppConfig, wallet: SigningWallet, safe: string, tx: SafeTx): Promise<string> {
  await onDashboardChain(wallet, config);
  const { signSafeTx } = await import("@/lib/chain/contracts");
  return signSafeTx(config, wallet.provider, wallet.address, safe, tx);
}

/** The Safe's nonce at the latest block, read where the dry run reads (the custom RPC URL, else the configured one, else the wallet). */
async function nonceOnChain(config: AppConfig, wallet: SigningWallet, safe: string): Promise<bigint> {
  const { readProvider, readSafeNonce } = await import("@/lib/chain/contracts");
  const rpcUrl = useRpcSetting.getState().customRpcUrl || config.rpcUrl;
  return readSafeNonce(readProvider(config, rpcUrl, rpcUrl ? null : wallet.provider), safe);
}

/**
 * What an owner does with a Safe's proposals: approve (sign its SafeTx, POST the approval), execute
 * once enough owners have (through the transaction runner, like any write: dry run, status modal,
 * toasts), or reject (propose Safe's own rejection at the same nonce, which the owners approve and
 * execute like any proposal). One action at a time: `busy` names the proposal and the action.
 */
export function useProposalActions(safe: SafeInfo) {
  const config = useConfig();
  const queryClient = useQueryClient();
  const run = useTransactor();
  const [busy, setBusy] = useState<{ hash: string; action: ProposalAction } | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: safesKey });

  async function guarded(proposal: SafeProposal, action: ProposalAction, title: string, work: (wallet: SigningWallet) => Promise<void>) {
    if (busy) return;
    const wallet = signingWallet(OWNER_NOT_CONNECTED);
    if (!wallet) return;
    setBusy({ hash: proposal.safeTxHash, action });
    try {
      await work(wallet);
    } catch (error) {
      const { message, told } = await failure(error);
      if (!told) notify({ title, description: message, variant: "destructive" });
      refresh();
    } finally {
      setBusy(null);
    }
  }

  const approve = (proposal: SafeProposal) =>
    guarded(proposal, "approve", "Approval failed", async (wallet) => {
      // What the wallet signs is the proposal's own call: its hash is checked here, not taken from the server.
      if (safeTxHash(config.chainId, safe.address, proposal.tx) !== proposal.safeTxHash.toLowerCase()) {
        throw new Error("The proposal's hash does not match its transaction, so it was not signed.");
      }
      const signature = await sign(config, wallet, safe.address, proposal.tx);
      const { proposal: after } = await postApproval(safe.address, proposal.safeTxHash, signature);
      const missing = after.threshold - after.confirmations;
      notify({
        title: "Approval added",
        description: missing > 0 ? awaiting(missing) : "Enough owners have approved: it can be executed.",
      });
      refresh();
    });

  const reject = (proposal: SafeProposal) =>
    guarded(proposal, "reject", "Rejection failed", async (wallet) => {
      const tx = rejectionSafeTx(safe.address, proposal.tx.nonce);
      const signature = await sign(config, wallet, safe.address, tx);
      const { proposal: rejection } = await postProposal(safe.address, tx, signature);
      notify({ title: "Rejection proposed", description: awaiting(rejection.threshold - rejection.confirmations) });
      refresh();
    });

  const execute = (proposal: SafeProposal, words: string) =>
    guarded(proposal, "execute", "Execution failed", async (wallet) => {
      const nonce = BigInt(proposal.tx.nonce);
      let current: bigint;
      try {
        current = await nonceOnChain(config, wallet, safe.address);
      } catch (error) {
        throw new Error(`The Safe's nonce could not be read (${describeError(error).replace(/[.\s]+$/, "")}). Nothing was sent.`, {
          cause: error,
        });
      }
      // Another owner may have executed it (or another proposal at its nonce) since the list was read.
      if (current > nonce) {
        notify({
          title: "Already executed",
          description: `The Safe has already used nonce ${nonce}: this proposal, or another at that nonce, was executed. Nothing was sent.`,
        });
        refresh();
        return;
      }
      if (current < nonce) {
        notify({
          title: `Nonce ${current} comes first`,
          description: `The Safe runs its transactions in nonce order: execute or reject the proposal at nonce ${current} first. Nothing was sent.`,
          variant: "destructive",
        });
        return;
      }
      // Only current owners' signatures count; Safe wants them sorted by owner (packSignatures does).
      const signatures = packSignatures(proposal.approvals.filter((a) => a.current));
      await run({
        action: `Execute: ${words}`,
        notConnected: OWNER_NOT_CONNECTED,
        call: ({ safe: at }) => contractCall(at(safe.address).execTransaction, [...execTransactionArgs(proposal.tx, signatures)]),
        success: { title: "Proposal executed", description: words },
        failureTitle: "Execution failed",
      });
    });

  return {
    busy,
    /** Whether `action` on `proposal` is the one running now. */
    running: (proposal: SafeProposal, action: ProposalAction) => busy?.hash === proposal.safeTxHash && busy.action === action,
    approve,
    execute,
    reject,
  };
}
