import { useState, type FormEvent } from "react";
import { exactTokenAmount, parseTokenAmount } from "@common/amounts";
import { MULTIPLIER_QUICK_ADD, type MultiplierOperation } from "@common/token";
import { multiplierCall } from "@/lib/tx/calls";
import { recordMultiplierRequest } from "@/lib/tx/multiplierAudit";
import { useMultiplierGuard } from "@/lib/tx/multiplierGuard";
import { useTxForm, type TxForm } from "@/lib/tx/useTxForm";
import { checkMultiplier } from "@/lib/validation";

/** What the form says when no wallet can sign. */
export const MULTIPLIER_NOT_CONNECTED = multiplierCall("set", 0n).notConnected;

/** Spec: 0.01 for add; the current multiplier (exactly, so an unchanged set is a no-op) for set. */
export const defaultValue = (operation: MultiplierOperation, current: bigint | undefined) =>
  operation === "add" ? exactTokenAmount(MULTIPLIER_QUICK_ADD) : current !== undefined ? exactTokenAmount(current) : "";

/** The multiplier after the change, or null while the field holds no valid number. */
export function resulting(operation: MultiplierOperation, input: string, current: bigint | undefined): bigint | null {
  let value: bigint;
  try {
    value = parseTokenAmount(input);
  } catch {
    return null;
  }
  if (value === 0n) return null;
  if (operation === "set") return value;
  return current !== undefined ? current + value : null;
}

/**
 * The Update Reward Multiplier dialog's runner: here, not in the form, because the dialog may not
 * close while the form is busy. Closing drops the problems shown.
 */
export function useMultiplierDialog(connected: boolean, onOpenChange: (open: boolean) => void) {
  const form = useTxForm<"value">({ connected });
  const close = () => {
    form.clearErrors();
    onOpenChange(false);
  };
  return {
    form,
    close,
    /** The dialog's open/close: refused while busy. */
    openChange: (next: boolean) => !form.busy && (next ? onOpenChange(true) : close()),
  };
}

/**
 * The multiplier form: set or add, the value (each operation starts from its default), the wallet
 * check and the value's (checkMultiplier), then the audit request (PRODUCT.md section 7: first, and
 * its answer does not stop the update) and the oracle's transaction; `next` is the multiplier the
 * change would leave, for the preview, and `guard` what it does to every balance and whether it
 * must be typed again (lib/tx/multiplierGuard.ts).
 */
export function useMultiplierForm(form: TxForm<"value">, current: bigint | undefined, onDone: () => void) {
  const [operation, setOperation] = useState<MultiplierOperation>("set");
  const [value, setValue] = useState(() => defaultValue("set", current));
  const { busy } = form;
  const next = resulting(operation, value, current);
  // A decrease, or a rise above the bound, is typed again before it can be sent; a value the
  // contract cannot take at all is left to the submit's 'Invalid value'.
  const guard = useMultiplierGuard(current, checkMultiplier(value).ok ? next : null, value);

  const choose = (chosen: MultiplierOperation) => {
    setOperation(chosen);
    setValue(defaultValue(chosen, current));
    guard.setRetype("");
    form.clearError("value");
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy || !form.needWallet(MULTIPLIER_NOT_CONNECTED, "value")) return;
    const checked = checkMultiplier(value);
    if (!checked.ok) return form.reject([["value", checked.problem]]);
    if (guard.blocked) return;
    form.start(multiplierCall(operation, checked.value, guard.change), {
      // PRODUCT.md section 7: the audit request goes first; its answer does not stop the update.
      before: () => recordMultiplierRequest(operation, checked.value),
      onSuccess: onDone,
    });
  };

  return {
    operation,
    choose,
    value,
    setValue,
    busy,
    problem: form.errors.value,
    next,
    guard,
    submit,
  };
}
