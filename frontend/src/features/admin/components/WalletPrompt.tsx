import { Wallet } from "lucide-react";
import { Card, CardContent } from "@/components/ui/card";
import { ConnectWalletButton } from "@/components/wallet/ConnectWalletButton";

/** In place of a form when no wallet is connected: the tables still show, the changes need a wallet. */
export function WalletPrompt({ purpose }: { purpose: string }) {
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-3 p-6 text-center">
        <Wallet className="h-8 w-8 text-muted-foreground" aria-hidden />
        <p className="text-sm text-muted-foreground">{purpose}</p>
        <ConnectWalletButton />
      </CardContent>
    </Card>
  );
}
