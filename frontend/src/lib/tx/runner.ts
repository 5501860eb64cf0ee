import { useCallback } from "react";
import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useConfig, type AppConfig } from "@/lib/config";
import { notify } from "@/lib/notices";
import { chainKeys } from "@/lib/chain/queries";
import { useTxModal } from "./store";
import { awaitConfirmations, RevertedError } from "./confirmations";
import { dryRun, noteMined, type CallOf } from "./dryRun";
import { usePendingEntries, type PendingEntry } from "./pending";
import { refreshAfterChainChange } from "./refresh";
import { NotSentError, onDashboardChain, signingWallet, stillOnDashboardChain, writeFailure } from "./wallet";

/**
 * The one transaction runner (after Scaffold-ETH's transactor). Every write is
 * "build the call, run it here": the runner checks the wallet, dry-runs the call against the latest
 * block (dryRun.ts: a call the contract would refuse never reaches the wallet), checks the network,
 * shows the status modal, waits for the receipt (and, on Sepolia, for the blocks that make it
 * final), raises the success or failure toast with the contract's error in words, and refreshes
 * what changed. Forms only validate and build calls.
 */

export interface TxRequest {
  /** What the transaction does, shown in the modal: 'Mint 100 USDX to 0x1234...abcd'. */
  action: string;
  /** PRODUCT.md section 8's purpose line for 'Wallet not connected': 'Please connect your wallet to mint tokens'. */
  notConnected: string;
  /**
   * The one contract call, declared once (`({ usdx }) => contractCall(usdx.mint, [to, amount])`):
   * the runner dry-runs it on the read provider, then sends the same method and arguments through
   * the wallet's signer.
   */
  call: CallOf;
  /** Called with the hash as soon as the wallet has sent it (a batch chunk reports it to the server). */
  onSent?(hash: string): void;
  /** The success toast; null for a caller that raises its own (a batch toasts once, not per chunk). */
  success: { title: string; description: string } | null;
  /** 'Mint failed', 'Transfer failed', ... */
  failureTitle: string;
  /**
   * Show the status modal and wait until the transaction is final (default); false for a caller
   * that shows progress itself and whose outcome the server decides (a batch chunk).
   */
  modal?: boolean;
  /** The history entry this makes for `from` (the wallet): shown as pending until the index has it. */
  history?(from: string): Pick<PendingEntry, "type" | "from" | "to" | "amountRaw">;
}

export interface TxOutcome {
  ok: boolean;
  hash: string | null;
  error: string | null;
}

export async function runTransaction(request: TxRequest, config: AppConfig, queryClient: QueryClient): Promise<TxOutcome> {
  const wallet = signingWallet(request.notConnected);
  if (!wallet) return { ok: false, hash: null, error: "Wallet not connected" };
  const modal = request.modal !== false;
  const setModal = (state: Partial<ReturnType<typeof useTxModal.getState>>) => modal && useTxModal.setState(state);
  let hash: string | null = null;
  try {
    // 'Checking' until the dry run passes: the modal does not say 'confirm in your wallet' before the wallet is asked.
    setModal({ isOpen: true, status: "checking", errorMessage: null, transactionHash: null, action: request.action, confirmations: null });
    await dryRun(request.call, config, wallet);
    await onDashboardChain(wallet, config);
    setModal({ status: "pending" });
    const { writeContracts } = await import("@/lib/chain/contracts");
    const contracts = await writeContracts(config, wallet.provider, wallet.address);
    // Read again now, not trusted from before the dry run: the wallet may have moved meanwhile.
    await stillOnDashboardChain(wallet, config);
    const tx = await request.call(contracts).send();
    hash = tx.hash;
    setModal({ transactionHash: hash });
    request.onSent?.(hash);
    if (request.history) usePendingEntries.getState().add({ ...request.history(wallet.address), hash, sentAt: Date.now() });
    const receipt = await tx.wait();
    if (!receipt || receipt.status !== 1) throw new RevertedError();
    // The next dry run waits until the read provider has this block too.
    if (receipt.blockNumber) noteMined(receipt.blockNumber);
    if (modal && config.confirmations > 0) {
      // Sepolia: mined is not final until the index would take the block. Say how deep it is.
      await awaitConfirmations(tx.provider, hash, config.confirmations, ({ block, seen, needed }) =>
        setModal(
          block === null ? { status: "pending", confirmations: null } : { status: "confirming", confirmations: { block, seen, needed } },
        ),
      );
    }
    setModal({ status: "success", confirmations: null });
    if (request.success) notify({ title: request.success.title, description: request.success.description });
    refreshAfterChainChange(queryClient);
    return { ok: true, hash, error: null };
  } catch (error) {
    const { message, told } = await writeFailure(error);
    if (told) {
      // The 'Network Error' toast said it; the 'Checking' modal has nothing more to show.
      if (modal) useTxModal.getState().hide();
      return { ok: false, hash, error: message };
    }
    if (hash) usePendingEntries.getState().remove([hash]);
    const status = error instanceof NotSentError ? "not-sent" : "error";
    // The contract refused what the page thought would pass: its view is out of date (the chain
    // changed since it was read). Read the chain again, so what the person sees now is the state
    // that refused (e.g. 'Paused', or a form replaced by the role it needs).
    if (error instanceof NotSentError && error.reason === "refused") void queryClient.invalidateQueries({ queryKey: chainKeys.all });
    setModal({ isOpen: true, status, errorMessage: message, transactionHash: hash, action: request.action, confirmations: null });
    notify({ title: request.failureTitle, description: message || "Unknown error", variant: "destructive" });
    return { ok: false, hash, error: message };
  }
}

/** The runner for components: `const run = useTransactor(); await run({...})`. */
export function useTransactor(): (request: TxRequest) => Promise<TxOutcome> {
  const config = useConfig();
  const queryClient = useQueryClient();
  return useCallback((request: TxRequest) => runTransaction(request, config, queryClient), [config, queryClient]);
}
