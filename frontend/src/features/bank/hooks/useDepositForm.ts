import { useState, type FormEvent } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { toast } from "@/components/ui/toast";
import { errorSentence } from "@/lib/api";
import { shortAddress } from "@/lib/format";
import { useWallet } from "@/lib/wallet/store";
import { bankKeys, requestDeposit, useBankAccounts, useBankWallets, useUid, type BankTerms, type BankWallet } from "../api";
import { checkDeposit } from "../depositRules";
import { maskedNumber, usd, usdx } from "../format";
import type { DepositTracker } from "./useDepositTracker";

export type DepositField = "account" | "amount" | "form";

/**
 * The wallet a deposit goes to unless the user picks another: the connected one if listed, else the
 * primary; in test-faucet mode, among verified wallets first (the faucet mints to no other).
 */
export function defaultWallet(wallets: BankWallet[], connected: string | null, faucet: boolean): BankWallet | undefined {
  const pick = (list: BankWallet[]) => {
    const mine = connected ? list.find((w) => w.address.toLowerCase() === connected.toLowerCase()) : undefined;
    return mine ?? list.find((w) => w.isPrimary) ?? list[0];
  };
  return (faucet ? pick(wallets.filter((w) => w.verified)) : undefined) ?? pick(wallets);
}

/** Test faucet: a wallet the user has not proved cannot receive a deposit (the server refuses it too). */
export const notVerified = (wallet: BankWallet) =>
  `The wallet '${wallet.name}' is not verified: the test faucet mints only to wallets you have proved you control. ` +
  "Verify it under My Wallets, with that wallet connected.";

/**
 * Deposit USD's form: the user's accounts and wallets, the choices and the amount, the one problem
 * shown (under its field, or under the form), and the submit that checks PRODUCT.md section 5's rules
 * (checkDeposit), then the wallet, then asks the server and hands the deposit to the tracker.
 */
export function useDepositForm(terms: { data: BankTerms | undefined }, tracker: DepositTracker) {
  const accounts = useBankAccounts();
  const wallets = useBankWallets();
  const connected = useWallet((s) => (s.status === "connected" ? s.address : null));
  const [accountId, setAccountId] = useState("");
  const [walletId, setWalletId] = useState("");
  const [amount, setAmount] = useState("");
  const [problem, setProblem] = useState<{ field: DepositField; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const queryClient = useQueryClient();
  const uid = useUid();
  const faucet = terms.data?.walletProofRequired === true;

  const account = accounts.data?.find((a) => String(a.id) === accountId);
  const chosenWallet = wallets.data?.find((w) => String(w.id) === walletId);
  const wallet = chosenWallet ?? (wallets.data ? defaultWallet(wallets.data, connected, faucet) : undefined);
  const anyPending = accounts.data?.some((a) => a.status === "pending") ?? false;

  /** Refuses with `text` under the form and as an 'Invalid Deposit' toast. */
  const refuse = (text: string) => {
    setProblem({ field: "form", text });
    toast({ title: "Invalid Deposit", description: text, variant: "destructive" });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = checkDeposit(account, amount, terms.data);
    if (!checked.ok) {
      setProblem({ field: account?.status === "verified" ? "amount" : "account", text: checked.problem.description });
      toast({ ...checked.problem, variant: "destructive" });
      return;
    }
    if (!wallet) return refuse("Add a wallet to receive the USDX first.");
    if (faucet && !wallet.verified) return refuse(notVerified(wallet));
    setBusy(true);
    try {
      const deposit = await requestDeposit({ bankAccountId: checked.value.account.id, amount: checked.value.amount, walletId: wallet.id });
      tracker.track(deposit);
      const when = terms.data ? ` in about ${Math.round(terms.data.completeMs / 1000)} seconds` : "";
      const from = `${deposit.bankAccount.name} (${maskedNumber(deposit.bankAccount.lastFour)})`;
      toast({
        title: "Deposit Requested",
        description: `${usd(deposit.amount)} from ${from}: ${usdx(deposit.amountRaw)} to ${shortAddress(deposit.walletAddress)}${when}.`,
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

  return {
    accounts,
    wallets,
    connected,
    faucet,
    accountId,
    /** Picks the source account; a problem shown goes. */
    chooseAccount: (value: string) => {
      setAccountId(value);
      setProblem(null);
    },
    chooseWallet: setWalletId,
    amount,
    /** The amount typed; a problem shown goes. */
    changeAmount: (value: string) => {
      setAmount(value);
      setProblem(null);
    },
    problem,
    /** The problem's id for aria-describedby when it is `field`'s. */
    errorId: (field: DepositField) => (problem?.field === field ? "deposit-problem" : undefined),
    busy,
    account,
    wallet,
    anyPending,
    submit,
  };
}
