import { Link } from "react-router-dom";
import { Eye, History, RotateCw, Wallet } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { Spinner } from "@/components/ui/spinner";
import { EmptyState, Loading, LoadFailed } from "@/components/states";
import { ConnectWalletButton } from "@/components/wallet/ConnectWalletButton";
import { plural } from "@/lib/format";
import { checkAddress } from "@/lib/validation";
import { useWallet } from "@/lib/wallet/store";
import { useAccountHistory } from "../api/history";
import { sameAddress } from "../display";
import { HistoryExportDialog } from "./HistoryExportDialog";
import { HistoryTable } from "./HistoryTable";

const LOAD_FAILED = "Failed to load transactions";

/**
 * The 'Your Transactions' tab: the connected wallet's history, or, with `viewed` (the page's
 * ?address=, where address links lead on the local chain), that account's history, read-only.
 */
export function HistoryCard({ viewed }: { viewed: string | null }) {
  const wallet = useWallet((s) => (s.status === "connected" ? s.address : null));
  if (viewed !== null) {
    const checked = checkAddress(viewed);
    if (!checked.ok) return <InvalidAddress input={viewed} reason={checked.problem.description} connected={wallet !== null} />;
    return <AccountHistory account={checked.value} wallet={wallet} readOnly />;
  }
  if (wallet === null) return <ConnectPrompt />;
  return <AccountHistory account={wallet} wallet={wallet} readOnly={false} />;
}

function ConnectPrompt() {
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-3 px-6 py-12 text-center">
        <span className="flex h-11 w-11 items-center justify-center rounded-full bg-accent text-primary">
          <Wallet className="h-5 w-5" aria-hidden />
        </span>
        <h2 className="text-base font-semibold">Connect your wallet to view your transaction history.</h2>
        <p className="max-w-md text-sm text-muted-foreground">
          Your transfers, mints and burns appear here once a wallet is connected. Contract Events need no wallet.
        </p>
        <ConnectWalletButton className="mt-1" />
      </CardContent>
    </Card>
  );
}

function InvalidAddress({ input, reason, connected }: { input: string; reason: string; connected: boolean }) {
  return (
    <Alert variant="destructive">
      <AlertTitle>Invalid address</AlertTitle>
      <AlertDescription className="grid gap-3">
        <p className="[overflow-wrap:anywhere]">
          Cannot show the history of '{input}': {reason}.
        </p>
        <div>
          <Button asChild size="sm" variant="outline" className="text-foreground">
            <Link to="/transactions">{connected ? "Show your transactions" : "Back to Transaction History"}</Link>
          </Button>
        </div>
      </AlertDescription>
    </Alert>
  );
}

function AccountHistory({ account, wallet, readOnly }: { account: string; wallet: string | null; readOnly: boolean }) {
  const query = useAccountHistory(account);
  const items = query.data?.pages.flatMap((page) => page.items) ?? [];
  const message = query.error?.message || "Unknown error";
  const own = sameAddress(account, wallet);
  const refreshing = query.isFetching && !query.isFetchingNextPage && !query.isPending;

  const failure = (
    <LoadFailed
      title={LOAD_FAILED}
      sentence={message}
      onRetry={() => void (query.isFetchNextPageError ? query.fetchNextPage() : query.refetch())}
      retrying={query.isFetching}
      toastAt={query.errorUpdatedAt}
    />
  );

  return (
    <Card className="min-w-0">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 space-y-0 p-4 sm:p-6">
        <div className="min-w-0 space-y-1.5">
          {readOnly ? (
            <>
              <div className="flex flex-wrap items-center gap-2">
                <Badge variant="secondary" className="gap-1">
                  <Eye className="h-3 w-3" aria-hidden /> Read-only
                </Badge>
                {own && <Badge variant="outline">Your wallet</Badge>}
              </div>
              <CardTitle className="flex flex-wrap items-center gap-x-2 gap-y-1 text-base leading-snug">
                <span>History of</span>
                <span className="font-mono text-sm [overflow-wrap:anywhere]">{account}</span>
                <CopyButton value={account} label="Copy address" className="h-6" />
              </CardTitle>
            </>
          ) : (
            <CardTitle className="text-base">Your Transactions</CardTitle>
          )}
          <CardDescription>Transfers, mints and burns, newest first. Amounts in USDX.</CardDescription>
        </div>
        <div className="flex flex-wrap gap-2">
          {readOnly && wallet && !own && (
            <Button asChild variant="outline" size="sm">
              <Link to="/transactions">Show your transactions</Link>
            </Button>
          )}
          {items.length > 0 && <HistoryExportDialog account={account} />}
          {query.data && (
            <Button variant="outline" size="sm" onClick={() => void query.refetch()} disabled={query.isFetching}>
              <RotateCw className={refreshing ? "h-4 w-4 animate-spin" : "h-4 w-4"} aria-hidden />
              Refresh
            </Button>
          )}
        </div>
      </CardHeader>
      <CardContent className="grid gap-4 p-4 pt-0 sm:p-6 sm:pt-0">
        {query.isPending ? (
          <Loading label="Loading transactions" />
        ) : items.length === 0 ? (
          query.isError ? (
            failure
          ) : (
            <EmptyState
              icon={<History aria-hidden />}
              title="No transactions found."
              hint={
                readOnly
                  ? "This account has not sent or received USDX."
                  : "Transfers to and from your wallet, and mints and burns of it, appear here."
              }
            />
          )
        ) : (
          <>
            {query.isRefetchError && failure}
            <HistoryTable items={items} account={account} wallet={wallet} />
            {query.isFetchNextPageError && failure}
            <div className="flex flex-wrap items-center justify-between gap-3 border-t border-border pt-4">
              <p className="text-xs text-muted-foreground">
                {plural(items.length, "transaction")}
                {query.hasNextPage ? " shown" : ", the whole history"}
              </p>
              {query.hasNextPage && (
                <Button variant="outline" size="sm" onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
                  {query.isFetchingNextPage && <Spinner className="h-4 w-4" label="Loading more transactions" />}
                  {query.isFetchingNextPage ? "Loading..." : "Load more"}
                </Button>
              )}
            </div>
          </>
        )}
      </CardContent>
    </Card>
  );
}
