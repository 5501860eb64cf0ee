import { create } from "zustand";
import { toast } from "@/components/ui/toast";
import type { AppConfig } from "@/lib/config";
import { injectedWallets } from "@/lib/wallet/discovery";

/** One wallet chooser for the whole app; any Connect Wallet button opens it. */
export const useWalletChooser = create<{ open: boolean; setOpen(open: boolean): void }>((set) => ({
  open: false,
  setOpen: (open) => set({ open }),
}));

/** The development wallet is offered only on the local chain, and only with its seeded accounts. */
export function devAccounts(config: AppConfig) {
  return config.network === "localhost" && config.devAccounts ? config.devAccounts : [];
}

/** Opens the chooser, or says there is no wallet (PRODUCT.md section 5). */
export function openWalletChooser(config: AppConfig): void {
  if (injectedWallets().length === 0 && devAccounts(config).length === 0) {
    toast({
      title: "No Ethereum Wallet Detected",
      description: "Please install MetaMask or another Ethereum wallet extension",
      variant: "destructive",
    });
    return;
  }
  useWalletChooser.getState().setOpen(true);
}
