import { ArrowDownToLine, Landmark, Wallet } from "lucide-react";
import { EmptyState, Loading, LoadFailed } from "@/components/states";
import { FieldError } from "@/components/ui/field-error";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { ConnectWalletButton } from "@/components/wallet/ConnectWalletButton";
import { errorSentence } from "@/lib/api";
import { shortAddress } from "@/lib/format";
import type { BankTerms } from "../api";
import { maskedNumber } from "../format";
import { notVerified, useDepositForm } from "../hooks/useDepositForm";
import type { DepositTracker } from "../hooks/useDepositTracker";
import { ConnectedWalletOffer, useUnlistedConnectedWallet } from "./ConnectedWalletOffer";
import { DepositProgress } from "./DepositProgress";
import { DepositSummary } from "./DepositSummary";

interface DepositTabProps {
  terms: { data: BankTerms | undefined; error: unknown; isFetching: boolean; refetch(): unknown };
  tracker: DepositTracker;
  onGoTo(tab: "accounts" | "wallets"): void;
}

/**
 * Deposit USD: from a verified bank account to one of the user's wallets. The summary shows the
 * server's fee and rate; once requested, the deposit is followed to its end beside the form.
 */
export function DepositTab({ terms, tracker, onGoTo }: DepositTabProps) {
  const form = useDepositForm(terms, tracker);
  const { accounts, wallets, connected, faucet, wallet, problem, errorId } = form;
  const unlisted = useUnlistedConnectedWallet(wallets.data);

  if (accounts.isError && !accounts.data) {
    return (
      <LoadFailed
        title="Could not load your bank accounts"
        sentence={errorSentence(accounts.error, "Unknown error")}
        onRetry={() => void accounts.refetch()}
        retrying={accounts.isFetching}
      />
    );
  }
  if (wallets.isError && !wallets.data) {
    return (
      <LoadFailed
        title="Could not load your wallets"
        sentence={errorSentence(wallets.error, "Unknown error")}
        onRetry={() => void wallets.refetch()}
        retrying={wallets.isFetching}
      />
    );
  }
  if (!accounts.data || !wallets.data) return <Loading label="Loading your accounts and wallets" />;

  if (accounts.data.length === 0) {
    return (
      <Card>
        <CardContent className="pt-6">
          <EmptyState
            icon={<Landmark />}
            title="Add a bank account first"
            hint="Deposits come from a verified bank account. Add one; it is verified a few seconds later."
          >
            <Button onClick={() => onGoTo("accounts")}>Go to My Bank Accounts</Button>
          </EmptyState>
        </CardContent>
      </Card>
    );
  }

  return (
    <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-5">
      <Card className="lg:col-span-3">
        <CardHeader>
          <CardTitle>Deposit USD</CardTitle>
          <CardDescription>Move US dollars from a verified bank account into USDX, one for one.</CardDescription>
        </CardHeader>
        <CardContent>
          <form onSubmit={form.submit} noValidate className="grid grid-cols-1 gap-5">
            <div className="grid grid-cols-1 gap-2">
              <Label htmlFor="deposit-account">From bank account</Label>
              <Select value={form.accountId} onValueChange={form.chooseAccount}>
                <SelectTrigger
                  id="deposit-account"
                  aria-describedby={errorId("account")}
                  aria-invalid={problem?.field === "account" || undefined}
                >
                  <SelectValue placeholder="Choose a verified account" />
                </SelectTrigger>
                <SelectContent>
                  {accounts.data.map((a) => (
                    <SelectItem key={a.id} value={String(a.id)} disabled={a.status !== "verified"}>
                      {a.name} {maskedNumber(a.lastFour)}
                      {a.status !== "verified" && " (verifying)"}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
              {form.anyPending && (
                <p className="text-xs text-muted-foreground">
                  Accounts still verifying become selectable a few seconds after they were added.
                </p>
              )}
              {problem?.field === "account" && <FieldError id="deposit-problem">{problem.text}</FieldError>}
            </div>

            <div className="grid grid-cols-1 gap-2">
              {wallets.data.length > 0 ? (
                <Label htmlFor="deposit-wallet">To wallet</Label>
              ) : (
                <p className="text-sm font-medium leading-none">To wallet</p>
              )}
              {wallets.data.length > 0 ? (
                <Select value={wallet ? String(wallet.id) : ""} onValueChange={form.chooseWallet}>
                  <SelectTrigger id="deposit-wallet">
                    <SelectValue placeholder="Choose a wallet" />
                  </SelectTrigger>
                  <SelectContent>
                    {wallets.data.map((w) => (
                      <SelectItem key={w.id} value={String(w.id)} disabled={faucet && !w.verified}>
                        {w.name} · {shortAddress(w.address)}
                        {w.isPrimary && " (primary)"}
                        {faucet && !w.verified && " (not verified)"}
                        {connected && w.address.toLowerCase() === connected.toLowerCase() && " (connected)"}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              ) : (
                !unlisted && (
                  <div className="flex flex-col gap-3 rounded-lg border border-dashed border-border p-4 text-sm sm:flex-row sm:items-center sm:justify-between">
                    <p className="flex items-center gap-2 text-muted-foreground">
                      <Wallet className="h-4 w-4 shrink-0" aria-hidden /> Connect a wallet or add one to receive the USDX.
                    </p>
                    <div className="flex flex-wrap gap-2">
                      <ConnectWalletButton size="sm" />
                      <Button type="button" size="sm" variant="outline" onClick={() => onGoTo("wallets")}>
                        Go to My Wallets
                      </Button>
                    </div>
                  </div>
                )
              )}
              {faucet && wallet && !wallet.verified && <p className="text-xs text-muted-foreground">{notVerified(wallet)}</p>}
              {unlisted && <ConnectedWalletOffer address={unlisted} compact />}
            </div>

            <div className="grid grid-cols-1 gap-2">
              <Label htmlFor="deposit-amount">Amount (USD)</Label>
              <div className="relative">
                <span className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-sm text-muted-foreground" aria-hidden>
                  $
                </span>
                <Input
                  id="deposit-amount"
                  type="number"
                  inputMode="decimal"
                  min={0}
                  step={0.01}
                  placeholder="0.00"
                  className="pl-7 tabular-nums"
                  value={form.amount}
                  onChange={(e) => form.changeAmount(e.target.value)}
                  aria-describedby={errorId("amount")}
                  aria-invalid={problem?.field === "amount" || undefined}
                />
              </div>
              {problem?.field === "amount" && <FieldError id="deposit-problem">{problem.text}</FieldError>}
            </div>

            {problem?.field === "form" && <FieldError id="deposit-problem">{problem.text}</FieldError>}
            <Button type="submit" disabled={form.busy} className="w-full sm:w-auto sm:justify-self-start">
              <ArrowDownToLine className="h-4 w-4" aria-hidden />
              {form.busy ? "Requesting..." : "Deposit USD"}
            </Button>
          </form>
        </CardContent>
      </Card>

      <div className="grid grid-cols-1 gap-6 lg:col-span-2">
        {/* Above the summary, so a phone shows it right under the button that started it. */}
        {tracker.deposit && <DepositProgress deposit={tracker.deposit} pollError={tracker.pollError} />}
        <DepositSummary terms={terms} amount={form.amount} wallet={wallet} />
      </div>
    </div>
  );
}
