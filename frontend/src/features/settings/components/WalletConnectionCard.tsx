import { AlertTriangle, LogOut, Wallet } from "lucide-react";
import { ConnectWalletButton } from "@/components/wallet/ConnectWalletButton";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { useConfig } from "@/lib/config";
import { cn } from "@/lib/utils";
import { disconnectWallet } from "@/lib/wallet/connect";
import { useWallet } from "@/lib/wallet/store";

const STATUS_TEXT = { connected: "Connected", connecting: "Connecting...", disconnected: "Disconnected" } as const;

/** PRODUCT.md section 2: Connected/Disconnected, the address, and Connect / 'Disconnect Wallet'. */
export function WalletConnectionCard() {
  const config = useConfig();
  const { status, address, walletName, chainId } = useWallet();
  const connected = status === "connected" && address !== null;

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Wallet className="h-5 w-5 text-primary" aria-hidden />
          Wallet Connection
        </CardTitle>
        <CardDescription>The wallet that signs your transactions.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="flex items-center gap-2" aria-live="polite">
          <span
            aria-hidden
            className={cn(
              "h-2.5 w-2.5 rounded-full",
              status === "connected" ? "bg-success" : status === "connecting" ? "animate-pulse bg-amber-500" : "bg-muted-foreground/50",
            )}
          />
          <span className="text-sm font-medium">{STATUS_TEXT[status]}</span>
        </div>

        {connected ? (
          <dl className="grid gap-3 text-sm">
            <div className="grid gap-1">
              <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">Address</dt>
              <dd className="flex flex-wrap items-center gap-1">
                <span className="break-all font-mono">{address}</span>
                <CopyButton value={address} />
              </dd>
            </div>
            {walletName && (
              <div className="grid gap-1">
                <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">Wallet</dt>
                <dd>{walletName}</dd>
              </div>
            )}
            {chainId !== null && chainId !== config.chainId && (
              <div role="alert" className="flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-900">
                <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
                <span>
                  Your wallet is on chain {chainId}, not {config.networkLabel} ({config.chainId}). Transactions will ask it to switch.
                </span>
              </div>
            )}
          </dl>
        ) : (
          <p className="text-sm text-muted-foreground">Connect a wallet to see your balance and send transactions.</p>
        )}

        <div>
          {connected ? (
            <Button variant="outline" onClick={() => disconnectWallet()}>
              <LogOut className="h-4 w-4" aria-hidden />
              Disconnect Wallet
            </Button>
          ) : (
            <ConnectWalletButton />
          )}
        </div>
      </CardContent>
    </Card>
  );
}
