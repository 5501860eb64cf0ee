import { Loader2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/lib/utils";
import { FieldError } from "@/components/ui/field-error";
import { useTransferForm } from "../hooks/useTransferForm";

interface TransferDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** The connected account; null when no wallet is connected. */
  address: string | null;
  /** The account's balance in base units; undefined until read. */
  balance: bigint | undefined;
  balanceLoading: boolean;
}

/** 'Transfer USDX' (PRODUCT.md section 2): recipient, amount with Max, validation in PRODUCT.md section 5's order. */
export function TransferDialog({ open, onOpenChange, address, balance, balanceLoading }: TransferDialogProps) {
  const transfer = useTransferForm({ address, balance, onOpenChange });
  const { busy, shownBalance, problem, invalid, errorId } = transfer;

  return (
    // While the transaction runs the dialog stays open, so its outcome lands where the user is.
    <Dialog open={open} onOpenChange={transfer.openChange}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Transfer USDX</DialogTitle>
          <DialogDescription>Send USDX from your connected wallet to another address.</DialogDescription>
        </DialogHeader>
        <form onSubmit={transfer.submit} noValidate aria-busy={busy} className="grid gap-4">
          <div className="grid gap-2">
            <Label htmlFor="transfer-to">Recipient Address</Label>
            <Input
              id="transfer-to"
              placeholder="0x..."
              autoComplete="off"
              spellCheck={false}
              className={cn("font-mono", invalid("to") && "border-destructive focus-visible:ring-destructive")}
              value={transfer.to}
              onChange={(e) => transfer.setTo(e.target.value)}
              aria-invalid={invalid("to") || undefined}
              aria-describedby={errorId("to")}
            />
            {invalid("to") && <FieldError id="transfer-error">{problem("to")}</FieldError>}
          </div>
          <div className="grid gap-2">
            <Label htmlFor="transfer-amount">Amount (USDX)</Label>
            <div className="flex gap-2">
              <Input
                id="transfer-amount"
                type="number"
                inputMode="decimal"
                min={0}
                step={0.01}
                placeholder="0.00"
                className={cn("tabular-nums", invalid("amount") && "border-destructive focus-visible:ring-destructive")}
                value={transfer.amount}
                onChange={(e) => transfer.setAmount(e.target.value)}
                aria-invalid={invalid("amount") || undefined}
                aria-describedby={cn("transfer-available", errorId("amount"))}
              />
              {/* The whole balance, all 18 decimals: a rounded Max would leave dust behind. */}
              <Button type="button" variant="outline" onClick={transfer.fillMax} disabled={balance === undefined || busy}>
                Max
              </Button>
            </div>
            <p id="transfer-available" className="flex items-center gap-2 text-sm text-muted-foreground">
              {shownBalance !== null ? (
                `Available: ${shownBalance} USDX`
              ) : balanceLoading ? (
                <>
                  Available: <Spinner className="h-3.5 w-3.5" label="Loading your balance" /> USDX
                </>
              ) : (
                "Available: unknown (your balance could not be read)"
              )}
            </p>
            {invalid("amount") && <FieldError id="transfer-error">{problem("amount")}</FieldError>}
          </div>
          {invalid("wallet") && <FieldError id="transfer-error">{problem("wallet")}</FieldError>}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={transfer.close} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy || transfer.waitingForBalance}>
              {busy && <Loader2 className="h-4 w-4 animate-spin" aria-hidden />}
              {busy ? "Processing..." : "Transfer"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
