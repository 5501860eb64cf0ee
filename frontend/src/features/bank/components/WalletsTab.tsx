import { Plus, ShieldAlert, ShieldCheck, Star, Trash2, Wallet } from "lucide-react";
import { EmptyState, ReadStates } from "@/components/states";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { shortAddress } from "@/lib/format";
import { useWalletsTab } from "../hooks/useWalletsTab";
import { AddWalletDialog } from "./AddWalletDialog";
import { ConfirmDialog } from "@/components/ConfirmDialog";
import { ConnectedWalletOffer, useUnlistedConnectedWallet } from "./ConnectedWalletOffer";
import { usdx } from "../format";

/** My Wallets: where deposits can mint to. One is primary; it cannot be removed. */
export function WalletsTab() {
  const tab = useWalletsTab();
  const { wallets, connected, faucet, verifying, making } = tab;
  const unlisted = useUnlistedConnectedWallet(wallets.data);

  const addButton = (
    <Button onClick={() => tab.setAdding(true)}>
      <Plus className="h-4 w-4" aria-hidden /> Add Wallet
    </Button>
  );

  const body = (
    <ReadStates
      query={wallets}
      failed="Could not load your wallets"
      loading="Loading wallets"
      isEmpty={(list) => list.length === 0}
      empty={
        <EmptyState
          icon={<Wallet />}
          title="No wallets yet"
          hint="Add a wallet to receive the USDX your deposits mint. The first wallet you add becomes your primary wallet."
        >
          {!unlisted && addButton}
        </EmptyState>
      }
    >
      {(list) => (
        <ul className="divide-y divide-border rounded-lg border border-border" aria-label="Wallets">
          {list.map((wallet) => {
            const isConnected = tab.isConnected(wallet);
            return (
              <li key={wallet.id} className="flex flex-col gap-3 p-4 md:flex-row md:items-center md:justify-between">
                <div className="grid min-w-0 grid-cols-1 gap-1">
                  <div className="flex flex-wrap items-center gap-1.5">
                    <span className="font-medium">{wallet.name}</span>
                    {wallet.isPrimary && (
                      <Badge className="gap-1">
                        <Star className="h-3 w-3" aria-hidden /> Primary
                      </Badge>
                    )}
                    {isConnected && <Badge variant="outline">Connected</Badge>}
                    {wallet.verified ? (
                      <Badge
                        variant="outline"
                        className="gap-1 border-emerald-600/50 text-emerald-800"
                        title={wallet.verifiedBy === "sign-in" ? "You signed in with this wallet" : "You signed a message with this wallet"}
                      >
                        <ShieldCheck className="h-3 w-3" aria-hidden /> Verified
                      </Badge>
                    ) : (
                      faucet && (
                        <Badge
                          variant="outline"
                          className="gap-1 border-amber-500/60 text-amber-800"
                          title="The test faucet mints only to wallets you prove you control"
                        >
                          <ShieldAlert className="h-3 w-3" aria-hidden /> Not verified
                        </Badge>
                      )
                    )}
                  </div>
                  <div className="flex items-center gap-1">
                    <span className="font-mono text-xs text-muted-foreground" title={wallet.address}>
                      <span className="hidden lg:inline">{wallet.address}</span>
                      <span className="lg:hidden">{shortAddress(wallet.address)}</span>
                    </span>
                    <CopyButton value={wallet.address} />
                  </div>
                </div>
                <div className="flex items-center justify-between gap-4 md:justify-end">
                  <div className="md:text-right">
                    <p className="text-xs text-muted-foreground">Balance</p>
                    <p className="font-medium tabular-nums" data-testid={`balance-${wallet.id}`}>
                      {wallet.balanceRaw === null ? (
                        <span className="font-normal text-muted-foreground">Unavailable</span>
                      ) : (
                        usdx(wallet.balanceRaw)
                      )}
                    </p>
                  </div>
                  <div className="flex items-center gap-1">
                    {faucet && !wallet.verified && (
                      <Button
                        size="sm"
                        variant="outline"
                        onClick={() => void tab.verify(wallet)}
                        disabled={verifying !== null}
                        aria-label={`Verify ${wallet.name}`}
                      >
                        {verifying === wallet.id ? "Waiting for your wallet..." : "Verify"}
                      </Button>
                    )}
                    {!wallet.isPrimary && (
                      <Button size="sm" variant="outline" onClick={() => void tab.makePrimary(wallet)} disabled={making !== null}>
                        {making === wallet.id ? "Updating..." : "Set as primary"}
                      </Button>
                    )}
                    <Button
                      size="icon"
                      variant="ghost"
                      className="h-8 w-8 text-muted-foreground hover:text-destructive"
                      aria-label={`Remove ${wallet.name}`}
                      title={wallet.isPrimary ? "The primary wallet cannot be removed" : "Remove"}
                      onClick={() => tab.askRemove(wallet)}
                    >
                      <Trash2 className="h-4 w-4" aria-hidden />
                    </Button>
                  </div>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </ReadStates>
  );

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 space-y-0">
        <div className="grid grid-cols-1 gap-1.5">
          <CardTitle>My Wallets</CardTitle>
          <CardDescription>
            Wallets that receive the USDX your deposits mint. Deposits go to the primary wallet unless you choose another.
            {faucet &&
              " This test faucet mints only to verified wallets: your sign-in wallet, or one you signed a message with (Verify, with that wallet connected)."}
          </CardDescription>
        </div>
        {wallets.data && (wallets.data.length > 0 || unlisted) && addButton}
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-4">
        {unlisted && <ConnectedWalletOffer address={unlisted} />}
        {body}
      </CardContent>
      <AddWalletDialog open={tab.adding} onOpenChange={tab.setAdding} wallets={wallets.data ?? []} connected={connected} />
      <ConfirmDialog
        open={tab.removing !== null}
        onCancel={tab.cancelRemove}
        title="Remove wallet?"
        description={tab.removingSentence}
        confirmLabel="Remove Wallet"
        busyLabel="Removing..."
        onConfirm={tab.confirmRemove}
      />
    </Card>
  );
}
