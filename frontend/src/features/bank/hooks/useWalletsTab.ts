import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { toast } from "@/components/ui/toast";
import { shortAddress } from "@/lib/format";
import { useWallet } from "@/lib/wallet/store";
import {
  bankKeys,
  removeWallet,
  serverProblem,
  setPrimaryWallet,
  useBankTerms,
  useBankWallets,
  useUid,
  verifyWallet,
  type BankWallet,
} from "../api";
import { ProofProblem, proveWallet } from "./useProveWallet";

/**
 * My Wallets' state and actions: the list, the wallet being verified or made primary (one at a
 * time), the Add Wallet dialog and the removal waiting for its confirmation. Each action updates the
 * cached list from the server's answer and says how it went in a toast.
 */
export function useWalletsTab() {
  const wallets = useBankWallets();
  const connected = useWallet((s) => (s.status === "connected" ? s.address : null));
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<BankWallet | null>(null);
  const queryClient = useQueryClient();
  const uid = useUid();
  const [making, setMaking] = useState<number | null>(null);
  const [verifying, setVerifying] = useState<number | null>(null);
  const faucet = useBankTerms().data?.walletProofRequired === true;
  const named = (wallet: BankWallet) => `${wallet.name} (${shortAddress(wallet.address)})`;
  const updateList = (change: (list: BankWallet[] | undefined) => BankWallet[] | undefined) =>
    queryClient.setQueryData<BankWallet[]>(bankKeys.wallets(uid), change);

  /** Test faucet: the wallet signs the server's challenge, and the server marks it verified. */
  const verify = async (wallet: BankWallet) => {
    setVerifying(wallet.id);
    try {
      const verified = await verifyWallet(wallet.id, await proveWallet(wallet.address));
      updateList((list) => list?.map((w) => (w.id === wallet.id ? verified : w)));
      toast({ title: "Wallet Verified", description: `${named(wallet)} can now receive deposits from the test faucet.` });
    } catch (error) {
      const problem =
        error instanceof ProofProblem
          ? { title: "Wallet Not Verified", description: error.message }
          : serverProblem(error, "Wallet Not Verified");
      toast({ ...problem, variant: "destructive" });
    } finally {
      setVerifying(null);
    }
  };

  const makePrimary = async (wallet: BankWallet) => {
    setMaking(wallet.id);
    try {
      await setPrimaryWallet(wallet.id);
      updateList((list) => list?.map((w) => ({ ...w, isPrimary: w.id === wallet.id })));
      toast({ title: "Primary Wallet Updated", description: `${named(wallet)} now receives your deposits by default.` });
    } catch (error) {
      toast({ ...serverProblem(error, "Could not update the primary wallet"), variant: "destructive" });
    } finally {
      setMaking(null);
    }
  };

  /** Asks to confirm a removal; the primary wallet cannot be removed, and is told so. */
  const askRemove = (wallet: BankWallet) => {
    if (wallet.isPrimary) {
      const description = `${wallet.name} is your primary wallet; make another wallet primary first.`;
      toast({ title: "Cannot Remove Primary Wallet", description, variant: "destructive" });
      return;
    }
    setRemoving(wallet);
  };

  const remove = async (wallet: BankWallet) => {
    try {
      await removeWallet(wallet.id);
      updateList((list) => list?.filter((w) => w.id !== wallet.id));
      toast({ title: "Wallet Removed", description: `${named(wallet)} was removed from your wallets.` });
      setRemoving(null);
    } catch (error) {
      toast({ ...serverProblem(error, "Could not remove the wallet"), variant: "destructive" });
    }
  };

  return {
    wallets,
    connected,
    faucet,
    /** Whether `wallet` is the one connected now. */
    isConnected: (wallet: BankWallet) => connected !== null && wallet.address.toLowerCase() === connected.toLowerCase(),
    adding,
    setAdding,
    making,
    makePrimary,
    verifying,
    verify,
    removing,
    askRemove,
    cancelRemove: () => setRemoving(null),
    /** Removes the wallet waiting for confirmation (none: nothing to do). */
    confirmRemove: () => (removing ? remove(removing) : Promise.resolve()),
    /** What the confirmation says of the wallet waiting for it. */
    removingSentence: removing ? `${named(removing)} will no longer receive deposits. Nothing changes on the chain.` : "",
  };
}
