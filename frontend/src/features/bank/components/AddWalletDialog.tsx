import { FieldError } from "@/components/ui/field-error";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { BankWallet } from "../api";
import { useAddWalletForm } from "../hooks/useAddWalletForm";

interface AddWalletDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  wallets: BankWallet[];
  /** The connected wallet's address, offered as a one-click fill. */
  connected: string | null;
}

/** Add Wallet: a name and an address, checked as PRODUCT.md section 5 says before the server sees them. */
export function AddWalletDialog({ open, onOpenChange, wallets, connected }: AddWalletDialogProps) {
  const form = useAddWalletForm(wallets, connected, onOpenChange);
  const { problem, busy, close } = form;
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Add Wallet</DialogTitle>
          <DialogDescription>
            A wallet that can receive the USDX your deposits mint.
            {form.faucet &&
              " This test faucet mints only to wallets you prove you control: the wallet connected now is asked to sign a message (free, no transaction); another is added unverified until you connect it and verify it."}
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={form.submit} noValidate className="grid grid-cols-1 gap-4">
          <div className="grid grid-cols-1 gap-2">
            <Label htmlFor="wallet-name">Wallet Name</Label>
            <Input
              id="wallet-name"
              value={form.name}
              onChange={(e) => form.changeName(e.target.value)}
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
              {form.fillConnected && (
                <Button type="button" variant="link" className="h-auto p-0 text-xs" onClick={form.fillConnected}>
                  Use connected wallet
                </Button>
              )}
            </div>
            <Input
              id="wallet-address"
              value={form.address}
              onChange={(e) => form.changeAddress(e.target.value)}
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
