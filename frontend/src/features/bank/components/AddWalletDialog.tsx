import { useState, type FormEvent } from "react";
import { FieldError } from "@/components/ui/field-error";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { toast } from "@/components/ui/toast";
import { useBankTerms, type BankWallet } from "../api";
import { useAddWallet } from "../hooks/useAddWallet";
import { checkNewWallet } from "../walletRules";

interface AddWalletDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  wallets: BankWallet[];
  /** The connected wallet's address, offered as a one-click fill. */
  connected: string | null;
}

/** Add Wallet: a name and an address, checked as PRODUCT.md section 5 says before the server sees them. */
export function AddWalletDialog({ open, onOpenChange, wallets, connected }: AddWalletDialogProps) {
  const add = useAddWallet();
  const faucet = useBankTerms().data?.walletProofRequired === true;
  const [name, setName] = useState("");
  const [address, setAddress] = useState("");
  const [problem, setProblem] = useState<{ field: "name" | "address"; text: string } | null>(null);
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

  const canUseConnected = connected !== null && !wallets.some((w) => w.address.toLowerCase() === connected.toLowerCase());
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Add Wallet</DialogTitle>
          <DialogDescription>
            A wallet that can receive the USDX your deposits mint.
            {faucet &&
              " This test faucet mints only to wallets you prove you control: the wallet connected now is asked to sign a message (free, no transaction); another is added unverified until you connect it and verify it."}
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-4">
          <div className="grid grid-cols-1 gap-2">
            <Label htmlFor="wallet-name">Wallet Name</Label>
            <Input
              id="wallet-name"
              value={name}
              onChange={(e) => {
                setName(e.target.value);
                setProblem(null);
              }}
              placeholder="Savings wallet"
              maxLength={100}
              autoComplete="off"
              aria-invalid={problem?.field === "name" || undefined}
              aria-describedby={problem?.field === "name" ? "add-wallet-problem" : undefined}
            />
            {problem?.field === "name" && <FieldError id="add-wallet-problem">{problem.text}</FieldError>}
          </div>
          <div className="grid grid-cols-1 gap-2">
            <div className="flex items-center justify-between gap-2">
              <Label htmlFor="wallet-address">Wallet Address</Label>
              {canUseConnected && (
                <Button
                  type="button"
                  variant="link"
                  className="h-auto p-0 text-xs"
                  onClick={() => {
                    setAddress(connected);
                    setProblem(null);
                  }}
                >
                  Use connected wallet
                </Button>
              )}
            </div>
            <Input
              id="wallet-address"
              value={address}
              onChange={(e) => {
                setAddress(e.target.value);
                setProblem(null);
              }}
              placeholder="0x..."
              className="font-mono"
              spellCheck={false}
              autoComplete="off"
              aria-invalid={problem?.field === "address" || undefined}
              aria-describedby={problem?.field === "address" ? "add-wallet-problem" : undefined}
            />
            {problem?.field === "address" && <FieldError id="add-wallet-problem">{problem.text}</FieldError>}
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => close(false)} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? "Adding..." : "Add Wallet"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
