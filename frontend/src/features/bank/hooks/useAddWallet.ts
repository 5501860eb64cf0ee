import { useCallback } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { toast } from "@/components/ui/toast";
import { shortAddress } from "@/lib/format";
import { addWallet, bankKeys, serverProblem, useUid, type BankWallet } from "../api";

/**
 * Adds a wallet on the server and to the cached list; 'Wallet Added' on success, the server's
 * refusal as a toast otherwise. Answers the wallet, or the refusal's sentence.
 */
export function useAddWallet() {
  const queryClient = useQueryClient();
  const uid = useUid();
  return useCallback(
    async (name: string, address: string): Promise<{ wallet: BankWallet } | { refused: string }> => {
      try {
        const wallet = await addWallet({ name, address });
        queryClient.setQueryData<BankWallet[]>(bankKeys.wallets(uid), (list) => [...(list ?? []), wallet]);
        toast({
          title: "Wallet Added",
          description: `${wallet.name} (${shortAddress(wallet.address)}) was added${wallet.isPrimary ? " as your primary wallet" : ""}.`,
        });
        return { wallet };
      } catch (error) {
        const refused = serverProblem(error, "Could not add the wallet");
        toast({ ...refused, variant: "destructive" });
        return { refused: refused.description };
      }
    },
    [queryClient, uid],
  );
}
