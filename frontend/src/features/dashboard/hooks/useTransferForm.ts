import { useState, type FormEvent } from "react";
import { exactTokenAmount } from "@common/amounts";
import { transferCall } from "@/lib/tx/calls";
import { useTxForm } from "@/lib/tx/useTxForm";
import { checkAddress, checkTransferAmount } from "@/lib/validation";
import { shownUsdx } from "../figures";

export type TransferField = "wallet" | "to" | "amount";

/** What the form says when no wallet can sign. */
export const TRANSFER_NOT_CONNECTED = transferCall("", 0n).notConnected;

interface TransferFormOptions {
  /** The connected account; null when no wallet is connected. */
  address: string | null;
  /** The account's balance in base units; undefined until read. */
  balance: bigint | undefined;
  onOpenChange(open: boolean): void;
}

/**
 * Transfer USDX's form: the recipient and the amount, checked in PRODUCT.md section 5's order (the
 * wallet, the recipient, the amount, stopping at the first problem), Max (the whole balance, all 18
 * decimals: a rounded Max would leave dust behind), and closing, which clears the form and is
 * refused while the transaction runs, so its outcome lands where the user is.
 */
export function useTransferForm({ address, balance, onOpenChange }: TransferFormOptions) {
  const form = useTxForm<TransferField>({ connected: address !== null });
  const [to, setTo] = useState("");
  const [amount, setAmount] = useState("");
  const busy = form.busy;
  const shownBalance = balance !== undefined ? shownUsdx(balance) : null;

  // PRODUCT.md section 5's order, stopping at the first problem: the wallet, the recipient, the amount.
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy || !form.needWallet(TRANSFER_NOT_CONNECTED, "wallet")) return;
    const recipient = checkAddress(to);
    if (!recipient.ok) return form.reject([["to", recipient.problem]]);
    const value = checkTransferAmount(amount, balance ?? 0n, shownBalance ?? "0.00");
    if (!value.ok) return form.reject([["amount", value.problem]]);
    form.start(transferCall(recipient.value, value.value), { onSuccess: close });
  };

  // Closing clears the form: the next transfer starts blank, not with an old recipient.
  function close() {
    setTo("");
    setAmount("");
    form.clearErrors();
    onOpenChange(false);
  }

  const problem = (field: TransferField) => form.errors[field];
  const invalid = (field: TransferField) => problem(field) !== undefined;

  return {
    to,
    setTo,
    amount,
    setAmount,
    /** Max: the whole balance, once it is read. */
    fillMax: () => balance !== undefined && setAmount(exactTokenAmount(balance)),
    busy,
    shownBalance,
    /** A wallet is connected but its balance is not read yet: nothing to check the amount against. */
    waitingForBalance: address !== null && balance === undefined,
    problem,
    invalid,
    /** The problem's id for aria-describedby when `field` has one. */
    errorId: (field: TransferField) => (invalid(field) ? "transfer-error" : undefined),
    submit,
    close,
    /** The dialog's open/close: refused while busy; closing clears the form. */
    openChange: (next: boolean) => !busy && (next ? onOpenChange(true) : close()),
  };
}
