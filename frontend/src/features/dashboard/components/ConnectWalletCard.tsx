import { ShieldCheck } from "lucide-react";
import { Card, CardContent } from "@/components/ui/card";
import { ConnectWalletButton } from "@/components/wallet/ConnectWalletButton";

/** PRODUCT.md section 2: without a wallet the Dashboard asks for one, and says what connecting gives. */
export function ConnectWalletCard() {
  return (
    <Card className="border-primary/30 bg-gradient-to-br from-accent/60 to-card">
      <CardContent className="flex flex-col gap-4 p-6 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex gap-3">
          <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-primary/10 text-primary">
            <ShieldCheck className="h-5 w-5" aria-hidden />
          </span>
          <div className="space-y-1">
            <h2 className="text-base font-semibold">Connect your wallet</h2>
            <p className="text-sm text-muted-foreground">
              Connect a wallet to see your USDX balance and shares, transfer tokens and view your transaction history. The dashboard never
              holds your keys: every transaction is signed in your wallet.
            </p>
          </div>
        </div>
        <ConnectWalletButton className="shrink-0" />
      </CardContent>
    </Card>
  );
}
