import { useState } from "react";
import { PlusCircle, Wallet } from "lucide-react";
import { Button } from "@/components/ui/button";
import { shortAddress } from "@/lib/format";
import { useWallet } from "@/lib/wallet/store";
import { useBankTerms, type BankWallet } from "../api";
import { useAddWallet } from "../hooks/useAddWallet";

/** The connected wallet's address when it is not among the user's wallets yet; null otherwise. */
export function useUnlistedConnectedWallet(wallets: BankWallet[] | undefined): string | null {
  const address = useWallet((s) => (s.status === "connected" ? s.address : null));
  if (!address || !wallets) return null;
  return wallets.some((w) => w.address.toLowerCase() === address.toLowerCase()) ? null : address;
}

/** One click adds the connected wallet to My Wallets (the first one added becomes primary). */
export function ConnectedWalletOffer({ address, compact = false }: { address: string; compact?: boolean }) {
  const add = useAddWallet();
  const walletName = useWallet((s) => s.walletName);
  const faucet = useBankTerms().data?.walletProofRequired === true;
  const [busy, setBusy] = useState(false);
  const onAdd = async () => {
    setBusy(true);
    await add(walletName ?? "Connected wallet", address);
    setBusy(false);
  };
  return (
    <div className="flex flex-col gap-3 rounded-lg border border-dashed border-primary/40 bg-accent/30 p-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex min-w-0 items-start gap-3">
        <Wallet className="mt-0.5 h-5 w-5 shrink-0 text-primary" aria-hidden />
        <div className="min-w-0 text-sm">
          <p className="font-medium">Your connected wallet is not in your list</p>
          <p className="text-muted-foreground">
            <span className="font-mono" title={address}>
              {compact ? shortAddress(address) : <span className="[overflow-wrap:anywhere]">{address}</span>}
            </span>{" "}
            can receive your deposits once added
            {faucet ? ": your wallet is asked to sign a message proving it is yours (free, no transaction)" : ""}.
          </p>
        </div>
      </div>
      <Button type="button" variant="outline" size="sm" onClick={() => void onAdd()} disabled={busy} className="shrink-0">
        <PlusCircle className="h-4 w-4" aria-hidden />
        {busy ? (faucet ? "Waiting for your wallet..." : "Adding...") : "Add connected wallet"}
      </Button>
    </div>
  );
}
