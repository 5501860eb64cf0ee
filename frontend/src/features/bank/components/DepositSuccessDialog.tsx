import { Link } from "react-router-dom";
import { CheckCircle2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import type { Deposit } from "../api";
import { maskedNumber, usd, usdx } from "../format";
import { MintTxLink } from "./MintTxLink";

/** PRODUCT.md section 2: 'Deposit Successful!' once the deposit's USDX is minted. */
export function DepositSuccessDialog({ deposit, onClose }: { deposit: Deposit | null; onClose(): void }) {
  return (
    <Dialog open={deposit !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-md">
        {deposit && (
          <>
            <DialogHeader className="items-center text-center">
              <CheckCircle2 className="h-12 w-12 text-success" aria-hidden />
              <DialogTitle>Deposit Successful!</DialogTitle>
              <DialogDescription>
                {usd(deposit.amount)} from {deposit.bankAccount.name} ({maskedNumber(deposit.bankAccount.lastFour)}) is now in your wallet
                as USDX.
              </DialogDescription>
            </DialogHeader>
            <dl className="grid grid-cols-1 gap-2 rounded-lg border border-border bg-muted/40 p-4 text-sm">
              <div className="flex justify-between gap-4">
                <dt className="text-muted-foreground">Amount</dt>
                <dd className="font-semibold tabular-nums">{usdx(deposit.amountRaw)}</dd>
              </div>
              <div className="flex justify-between gap-4">
                <dt className="text-muted-foreground">To</dt>
                <dd className="min-w-0 font-mono text-xs [overflow-wrap:anywhere]">{deposit.walletAddress}</dd>
              </div>
              {deposit.txHash && (
                <div className="flex justify-between gap-4">
                  <dt className="text-muted-foreground">Mint transaction</dt>
                  <dd>
                    <MintTxLink hash={deposit.txHash} />
                  </dd>
                </div>
              )}
            </dl>
            <DialogFooter>
              <Button variant="outline" asChild>
                <Link to="/" onClick={onClose}>
                  View Dashboard
                </Link>
              </Button>
              <Button onClick={onClose}>Done</Button>
            </DialogFooter>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
