import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { toast } from "@/components/ui/toast";
import { useConfig, type AppConfig } from "@/lib/config";
import { chainKeys } from "@/lib/chain/queries";
import { useRpcSetting } from "@/lib/chain/rpc";
import { connectWallet, disconnectWallet } from "@/lib/wallet/connect";
import { useWallet } from "@/lib/wallet/store";
import { checkRpcUrl, probeRpcChain, type Problem } from "../api/rpcUrl";

/** PRODUCT.md sections 4 and 9: after an RPC change a connected wallet is reconnected 1 s later. */
export const WALLET_RECONNECT_DELAY_MS = 1000;

/**
 * Points the dashboard's reads at `url` (null: back to the configured default): every chain query
 * reloads, and a connected wallet is disconnected and reconnected (PRODUCT.md section 4).
 */
function applyRpcUrl(url: string | null, config: AppConfig, setCustomRpcUrl: (url: string | null) => void, refresh: () => void): void {
  setCustomRpcUrl(url);
  const wallet = useWallet.getState();
  if (wallet.status === "connected" && wallet.provider) {
    const choice = { id: wallet.walletId ?? "injected", name: wallet.walletName ?? "Wallet", provider: wallet.provider };
    disconnectWallet();
    // Not tied to the page: leaving Settings within the second must not leave the wallet disconnected.
    setTimeout(() => void connectWallet(choice, config), WALLET_RECONNECT_DELAY_MS);
  }
  refresh();
  toast({ title: "RPC URL Updated", description: "The RPC URL has been updated. Please reconnect your wallet." });
}

/** The Network card's Custom RPC URL: validate, check the chain, save or reset. */
export function useRpcSettings() {
  const config = useConfig();
  const queryClient = useQueryClient();
  const { customRpcUrl, setCustomRpcUrl } = useRpcSetting();
  const [checking, setChecking] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);

  const refresh = () => void queryClient.invalidateQueries({ queryKey: chainKeys.all });

  const fail = (p: Problem) => {
    setProblem(p);
    toast({ ...p, variant: "destructive" });
  };

  /** Resolves true when the URL was saved. */
  const save = async (input: string): Promise<boolean> => {
    if (checking) return false;
    const check = checkRpcUrl(input);
    if (!check.ok) {
      fail(check.problem);
      return false;
    }
    setProblem(null);
    setChecking(true);
    try {
      await probeRpcChain(check.value, config.chainId);
    } catch (error) {
      fail({ title: "Error Saving RPC URL", description: error instanceof Error && error.message ? error.message : "Unknown error" });
      return false;
    } finally {
      setChecking(false);
    }
    applyRpcUrl(check.value, config, setCustomRpcUrl, refresh);
    return true;
  };

  const reset = () => {
    setProblem(null);
    applyRpcUrl(null, config, setCustomRpcUrl, refresh);
  };

  return { customRpcUrl, checking, problem, clearProblem: () => setProblem(null), save, reset };
}
