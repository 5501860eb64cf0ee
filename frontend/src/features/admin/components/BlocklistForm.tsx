import { useState, type FormEvent } from "react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { useAccountFigures } from "@/lib/chain/queries";
import { shortAddress } from "@/lib/format";
import { blocklistCall } from "@/lib/tx/calls";
import { checkAddress } from "@/lib/validation";
import { useTxForm } from "@/lib/tx/useTxForm";
import { AccountPreview, validAddress } from "./AccountPreview";
import { ChoiceField, FormFooter, TextField } from "./fields";
import { RoleRequirement } from "./RoleNotes";

type Action = "block" | "unblock";
const NOT_CONNECTED = blocklistCall("", "block").notConnected;
const ACTIONS: { value: Action; label: string }[] = [
  { value: "block", label: "Block" },
  { value: "unblock", label: "Unblock" },
];

/** Blocks or unblocks an account (BLOCKLIST_ROLE); blocking asks once more first. */
export function BlocklistForm({ adminPanel = false }: { adminPanel?: boolean }) {
  const form = useTxForm<"account">();
  const [account, setAccount] = useState("");
  const [action, setAction] = useState<Action>("block");
  const locked = form.busy || form.pending !== null;
  // The contract refuses blocking a blocked account and unblocking one that is not: say so first.
  const target = useAccountFigures(validAddress(account));
  const redundant = target.data && (action === "block" ? target.data.blocked : !target.data.blocked);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!form.needWallet(NOT_CONNECTED)) return;
    const checked = checkAddress(account);
    if (!checked.ok) return form.reject([["account", checked.problem]]);
    form.start(blocklistCall(checked.value, action), {
      onSuccess: () => setAccount(""),
      confirmation:
        action === "block"
          ? {
              title: `Block ${shortAddress(checked.value)}?`,
              description: "A blocked account cannot send USDX or be burned from until it is unblocked.",
              confirmLabel: "Block account",
            }
          : undefined,
    });
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Block or Unblock an Account</CardTitle>
        <CardDescription>A blocked account cannot send USDX and cannot be burned from. It can still receive.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} noValidate className="grid gap-4">
          <TextField
            label="Account Address"
            value={account}
            onChange={(v) => {
              setAccount(v);
              form.clearError("account");
            }}
            error={form.errors.account}
            disabled={locked}
          >
            <AccountPreview input={account} />
          </TextField>
          <ChoiceField<Action> label="Action" value={action} onChange={setAction} options={ACTIONS} disabled={locked} />
          {redundant && (
            <p className="text-xs text-amber-700">
              This account is {action === "block" ? "already blocked" : "not blocked"}: the contract will refuse to {action} it.
            </p>
          )}
          {adminPanel && <RoleRequirement role="BLOCKLIST_ROLE" />}
          <FormFooter
            form={form}
            label="Apply Blocklist Change"
            notConnected={NOT_CONNECTED}
            incomplete={adminPanel && account.trim() === ""}
          />
        </form>
      </CardContent>
    </Card>
  );
}
