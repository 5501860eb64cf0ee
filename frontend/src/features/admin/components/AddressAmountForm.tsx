import { useState, type FormEvent, type ReactNode } from "react";
import type { RoleName } from "@common/roles";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import type { TxRequest } from "@/lib/tx/runner";
import { checkAddress, checkAmount, type Checked, type Problem } from "@/lib/validation";
import { useTxForm, type Confirmation } from "@/lib/tx/useTxForm";
import { useAccountFigures } from "@/lib/chain/queries";
import { AccountPreview, validAddress } from "./AccountPreview";
import { FormFooter, TextField } from "./fields";
import { RoleRequirement } from "./RoleNotes";

export interface AddressAmountFormProps {
  /** The Admin Panel's variant: the button waits for both fields, and the form names the role it needs. */
  adminPanel?: boolean;
}

interface Props extends AddressAmountFormProps {
  title: string;
  description: string;
  addressLabel: string;
  submitLabel: string;
  role?: RoleName;
  /** The call's purpose line for 'Wallet not connected' ('Please connect your wallet to mint tokens'). */
  notConnected: string;
  build(address: string, amount: bigint): TxRequest;
  checkAmount?(input: string): Checked<bigint>;
  confirmation?(address: string, amount: bigint): Confirmation;
  /** Under the amount field (e.g. the balance a transfer may spend). */
  amountHint?: ReactNode;
  /** Said when the typed account is blocked and the contract would refuse (burn). */
  blockedWarning?: string;
}

/** Mint, Burn and the Admin Panel's Transfer: an address, an amount, one call through the runner. */
export function AddressAmountForm(props: Props) {
  const form = useTxForm<"address" | "amount">();
  const [address, setAddress] = useState("");
  const [amount, setAmount] = useState("");
  const locked = form.busy || form.pending !== null;
  const target = useAccountFigures(props.blockedWarning ? validAddress(address) : null);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!form.needWallet(props.notConnected)) return;
    const to = checkAddress(address);
    const value = (props.checkAmount ?? checkAmount)(amount);
    const problems: ["address" | "amount", Problem][] = [];
    if (!to.ok) problems.push(["address", to.problem]);
    if (!value.ok) problems.push(["amount", value.problem]);
    if (!to.ok || !value.ok) return form.reject(problems);
    form.start(props.build(to.value, value.value), {
      onSuccess: () => {
        setAddress("");
        setAmount("");
      },
      confirmation: props.confirmation?.(to.value, value.value),
    });
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>{props.title}</CardTitle>
        <CardDescription>{props.description}</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} noValidate className="grid gap-4">
          <TextField
            label={props.addressLabel}
            value={address}
            onChange={(v) => {
              setAddress(v);
              form.clearError("address");
            }}
            error={form.errors.address}
            disabled={locked}
          >
            <AccountPreview input={address} />
            {target.data?.blocked && <p className="text-xs text-amber-700">{props.blockedWarning}</p>}
          </TextField>
          <TextField
            label="Amount"
            amount
            value={amount}
            onChange={(v) => {
              setAmount(v);
              form.clearError("amount");
            }}
            error={form.errors.amount}
            disabled={locked}
          >
            {props.amountHint}
          </TextField>
          {props.adminPanel && props.role && <RoleRequirement role={props.role} />}
          <FormFooter
            form={form}
            label={props.submitLabel}
            notConnected={props.notConnected}
            incomplete={props.adminPanel && (address.trim() === "" || amount.trim() === "")}
          />
        </form>
      </CardContent>
    </Card>
  );
}
