import { useCallback } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { toast } from "@/components/ui/toast";
import { shortAddress } from "@/lib/format";
import { addWallet, bankKeys, serverProblem, useBankTerms, useUid, type BankWallet, type WalletProof } from "../api";
import { ProofProblem, isConnectedWallet, proveWallet } from "./useProveWallet";

const NOT_PROVED_NOTE = "The test faucet mints only to wallets you prove you control: connect it in your wallet and choose Verify.";

/**
 * Adds a wallet on the server and to the cached list; 'Wallet Added' on success, the server's
 * refusal as a toast otherwise. In test-faucet mode, a wallet that is connected right now signs the
 * server's challenge first, so it is added verified; any other is added unverified, and told so.
 * Answers the wallet, or the refusal's sentence.
 */
export function useAddWallet() {
  const queryClient = useQueryClient();
  const uid = useUid();
  const faucet = useBankTerms().data?.walletProofRequired === true;
  return useCallback(
    async (name: string, address: string): Promise<{ wallet: BankWallet } | { refused: string }> => {
      try {
        let proof: WalletProof | undefined;
        if (faucet && isConnectedWallet(address)) proof = await proveWallet(address);
        const wallet = await addWallet({ name, address, ...proof });
        queryClient.setQueryData<BankWallet[]>(bankKeys.wallets(uid), (list) => [...(list ?? []), wallet]);
        const how = wallet.isPrimary ? " as your primary wallet" : "";
        toast({
          title: "Wallet Added",
          description:
            faucet && !wallet.verified
              ? `${wallet.name} (${shortAddress(wallet.address)}) was added${how}, not verified. ${NOT_PROVED_NOTE}`
              : `${wallet.name} (${shortAddress(wallet.address)}) was added${how}${wallet.verified && faucet ? " and verified" : ""}.`,
        });
        return { wallet };
      } catch (error) {
        const refused =
          error instanceof ProofProblem
            ? { title: "Wallet Not Verified", description: error.message }
            : serverProblem(error, "Could not add the wallet");
        toast({ ...refused, variant: "destructive" });
        return { refused: refused.description };
      }
    },
    [queryClient, uid, faucet],
  );
}
