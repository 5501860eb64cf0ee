import { useState, type FormEvent } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { ArrowDownToLine, Landmark, Wallet } from "lucide-react";
import { EmptyState, Loading, LoadFailed } from "@/components/states";
import { FieldError } from "@/components/ui/field-error";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { toast } from "@/components/ui/toast";
import { ConnectWalletButton } from "@/components/wallet/ConnectWalletButton";
import { errorSentence } from "@/lib/api";
import { shortAddress } from "@/lib/format";
import { useWallet } from "@/lib/wallet/store";
import { bankKeys, requestDeposit, useBankAccounts, useBankWallets, useUid, type BankTerms, type BankWallet } from "../api";
import { checkDeposit } from "../depositRules";
import { maskedNumber, usd, usdx } from "../format";
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
 * The wallet a deposit goes to unless the user picks another: the connected one if listed, else the
 * primary; in test-faucet mode, among verified wallets first (the faucet mints to no other).
 */
function defaultWallet(wallets: BankWallet[], connected: string | null, faucet: boolean): BankWallet | undefined {
  const pick = (list: BankWallet[]) => {
    const mine = connected ? list.find((w) => w.address.toLowerCase() === connected.toLowerCase()) : undefined;
    return mine ?? list.find((w) => w.isPrimary) ?? list[0];
  };
  return (faucet ? pick(wallets.filter((w) => w.verified)) : undefined) ?? pick(wallets);
}

/** Test faucet: a wallet the user has not proved cannot receive a deposit (the server refuses it too). */
const notVerified = (wallet: BankWallet) =>
  `The wallet '${wallet.name}' is not verified: the test faucet mints only to wallets you have proved you control. Verify it under My Wallets, with that wallet connected.`;

/**
 * Deposit USD: from a verified bank account to one of the user's wallets. The summary shows the
 * server's fee and rate; once requested, the deposit is followed to its end beside the form.
 */
export function DepositTab({ terms, tracker, onGoTo }: DepositTabProps) {
  const accounts = useBankAccounts();
  const wallets = useBankWallets();
  const connected = useWallet((s) => (s.status === "connected" ? s.address : null));
  const unlisted = useUnlistedConnectedWallet(wallets.data);
  const [accountId, setAccountId] = useState("");
  const [walletId, setWalletId] = useState("");
  const [amount, setAmount] = useState("");
  const [problem, setProblem] = useState<{ field: "account" | "amount" | "form"; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const queryClient = useQueryClient();
  const uid = useUid();
  const faucet = terms.data?.walletProofRequired === true;

  if (accounts.isError && !accounts.data) {
    return <LoadFailed title="Could not load your bank accounts" sentence={errorSentence(accounts.error, "Unknown error")} onRetry={() => void accounts.refetch()} retrying={accounts.isFetching} />;
  }
  if (wallets.isError && !wallets.data) {
    return <LoadFailed title="Could not load your wallets" sentence={errorSentence(wallets.error, "Unknown error")} onRetry={() => void wallets.refetch()} retrying={wallets.isFetching} />;
  }
  if (!accounts.data || !wallets.data) return <Loading label="Loading your accounts and wallets" />;

  const account = accounts.data.find((a) => String(a.id) === accountId);
  const wallet = wallets.data.find((w) => String(w.id) === walletId) ?? defaultWallet(wallets.data, connected, faucet);
  const anyPending = accounts.data.some((a) => a.status === "pending");

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = checkDeposit(account, amount, terms.data);
    if (!checked.ok) {
      setProblem({ field: account?.status === "verified" ? "amount" : "account", text: checked.problem.description });
      toast({ ...checked.problem, variant: "destructive" });
      return;
    }
    if (!wallet) {
      const text = "Add a wallet to receive the USDX first.";
      setProblem({ field: "form", text });
      toast({ title: "Invalid Deposit", description: text, variant: "destructive" });
      return;
    }
    if (faucet && !wallet.verified) {
      const text = notVerified(wallet);
      setProblem({ field: "form", text });
      toast({ title: "Invalid Deposit", description: text, variant: "destructive" });
      return;
    }
    setBusy(true);
    try {
      const deposit = await requestDeposit({ bankAccountId: checked.value.account.id, amount: checked.value.amount, walletId: wallet.id });
      tracker.track(deposit);
      const when = terms.data ? ` in about ${Math.round(terms.data.completeMs / 1000)} seconds` : "";
      toast({
        title: "Deposit Requested",
        description: `${usd(deposit.amount)} from ${deposit.bankAccount.name} (${maskedNumber(deposit.bankAccount.lastFour)}): ${usdx(deposit.amountRaw)} to ${shortAddress(deposit.walletAddress)}${when}.`,
      });
      setAmount("");
      setProblem(null);
    } catch (error) {
      const sentence = errorSentence(error, "Unknown error");
      setProblem({ field: "form", text: sentence });
      toast({ title: "Deposit Failed", description: sentence, variant: "destructive" });
    } finally {
      setBusy(false);
      // What is left today changed (or the refusal says it did).
      if (faucet) void queryClient.invalidateQueries({ queryKey: bankKeys.terms(uid) });
    }
  };

  if (accounts.data.length === 0) {
    return (
      <Card>
        <CardContent className="pt-6">
          <EmptyState icon={<Landmark />} title="Add a bank account first" hint="Deposits come from a verified bank account. Add one; it is verified a few seconds later.">
            <Button onClick={() => onGoTo("accounts")}>Go to My Bank Accounts</Button>
          </EmptyState>
        </CardContent>
      </Card>
    );
  }

  const errorId = (field: "account" | "amount" | "form") => (problem?.field === field ? "deposit-problem" : undefined);
  return (
    <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-5">
      <Card className="lg:col-span-3">
        <CardHeader>
          <CardTitle>Deposit USD</CardTitle>
          <CardDescription>Move US dollars from a verified bank account into USDX, one for one.</CardDescription>
        </CardHeader>
        <CardContent>
          <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-5">
            <div className="grid grid-cols-1 gap-2">
              <Label htmlFor="deposit-account">From bank account</Label>
              <Select
                value={accountId}
                onValueChange={(value) => {
                  setAccountId(value);
                  setProblem(null);
                }}
              >
                <SelectTrigger id="deposit-account" aria-describedby={errorId("account")} aria-invalid={problem?.field === "account" || undefined}>
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
              {anyPending && <p className="text-xs text-muted-foreground">Accounts still verifying become selectable a few seconds after they were added.</p>}
              {problem?.field === "account" && <FieldError id="deposit-problem">{problem.text}</FieldError>}
            </div>

            <div className="grid grid-cols-1 gap-2">
              {wallets.data.length > 0 ? <Label htmlFor="deposit-wallet">To wallet</Label> : <p className="text-sm font-medium leading-none">To wallet</p>}
              {wallets.data.length > 0 ? (
                <Select value={wallet ? String(wallet.id) : ""} onValueChange={setWalletId}>
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
                  value={amount}
                  onChange={(e) => {
                    setAmount(e.target.value);
                    setProblem(null);
                  }}
                  aria-describedby={errorId("amount")}
                  aria-invalid={problem?.field === "amount" || undefined}
                />
              </div>
              {problem?.field === "amount" && <FieldError id="deposit-problem">{problem.text}</FieldError>}
            </div>

            {problem?.field === "form" && <FieldError id="deposit-problem">{problem.text}</FieldError>}
            <Button type="submit" disabled={busy} className="w-full sm:w-auto sm:justify-self-start">
              <ArrowDownToLine className="h-4 w-4" aria-hidden />
              {busy ? "Requesting..." : "Deposit USD"}
            </Button>
          </form>
        </CardContent>
      </Card>

      <div className="grid grid-cols-1 gap-6 lg:col-span-2">
        {/* Above the summary, so a phone shows it right under the button that started it. */}
        {tracker.deposit && <DepositProgress deposit={tracker.deposit} pollError={tracker.pollError} />}
        <DepositSummary terms={terms} amount={amount} wallet={wallet} />
      </div>
    </div>
  );
}
