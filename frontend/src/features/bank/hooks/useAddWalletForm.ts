import { useState, type FormEvent } from "react";
import { toast } from "@/components/ui/toast";
import { useBankTerms, type BankWallet } from "../api";
import { checkNewWallet } from "../walletRules";
import { useAddWallet } from "./useAddWallet";

export type AddWalletField = "name" | "address";

/**
 * Add Wallet's form: the name and the address, checked as PRODUCT.md section 5 says (checkNewWallet)
 * before the server sees them, the one problem shown under its field (the server's refusal under the
 * address), and closing, which is refused while the server answers and clears the form.
 */
export function useAddWalletForm(wallets: BankWallet[], connected: string | null, onOpenChange: (open: boolean) => void) {
  const add = useAddWallet();
  const faucet = useBankTerms().data?.walletProofRequired === true;
  const [name, setName] = useState("");
  const [address, setAddress] = useState("");
  const [problem, setProblem] = useState<{ field: AddWalletField; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const finish = () => {
    setName("");
    setAddress("");
    setProblem(null);
    onOpenChange(false);
  };
  // Closing is refused while the server is answering; closing clears the form.
  const close = (next: boolean) => {
    if (busy) return;
    if (next) onOpenChange(true);
    else finish();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = checkNewWallet(name, address, wallets);
    if (!checked.ok) {
      setProblem({ field: checked.field, text: checked.problem.description });
      toast({ ...checked.problem, variant: "destructive" });
      return;
    }
    setBusy(true);
    const result = await add(checked.value.name, checked.value.address);
    setBusy(false);
    if ("refused" in result) {
      setProblem({ field: "address", text: result.refused });
      return;
    }
    finish();
  };

  /** The address typed (or the connected one); a problem shown goes. */
  const changeAddress = (value: string) => {
    setAddress(value);
    setProblem(null);
  };
  const canUseConnected = connected !== null && !wallets.some((w) => w.address.toLowerCase() === connected.toLowerCase());

  return {
    faucet,
    name,
    /** The name typed; a problem shown goes. */
    changeName: (value: string) => {
      setName(value);
      setProblem(null);
    },
    address,
    changeAddress,
    /** Fills in the connected wallet, offered only while it is not in the list yet; null otherwise. */
    fillConnected: canUseConnected ? () => changeAddress(connected) : null,
    problem,
    busy,
    close,
    submit,
  };
}
