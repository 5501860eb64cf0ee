import { useState, type FormEvent } from "react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { useTokenFigures } from "@/lib/chain/queries";
import { formatMultiplier } from "@/lib/format";
import { multiplierCall } from "@/lib/tx/calls";
import { recordMultiplierRequest } from "@/lib/tx/multiplierAudit";
import { checkMultiplier } from "@/lib/validation";
import { useTxForm } from "@/lib/tx/useTxForm";
import { useMultiplierGuard } from "@/lib/tx/multiplierGuard";
import { MultiplierStepGuard } from "@/components/MultiplierStepGuard";
import { FormFooter, TextField } from "./fields";
import { RoleRequirement } from "./RoleNotes";

const NOT_CONNECTED = multiplierCall("set", 0n).notConnected;

/**
 * The Admin Panel's Settings: sets the reward multiplier (ORACLE_ROLE). The value is a decimal the
 * contract stores scaled by 10^18; the audit request goes to the server first (its answer ignored).
 */
export function MultiplierForm() {
  const form = useTxForm<"value">();
  const token = useTokenFigures();
  const [value, setValue] = useState("");
  const checkedNow = checkMultiplier(value);
  // A decrease, or a rise above the bound, is typed again before it can be sent.
  const guard = useMultiplierGuard(token.data?.rewardMultiplier, checkedNow.ok ? checkedNow.value : null, value);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!form.needWallet(NOT_CONNECTED)) return;
    const checked = checkMultiplier(value);
    if (!checked.ok) return form.reject([["value", checked.problem]]);
    if (guard.blocked) return;
    form.start(multiplierCall("set", checked.value, guard.change), {
      // PRODUCT.md section 7: the audit request goes first; its answer does not stop the update.
      before: () => recordMultiplierRequest("set", checked.value),
      onSuccess: () => {
        setValue("");
        guard.setRetype("");
      },
    });
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Reward Multiplier</CardTitle>
        <CardDescription>
          Balances are shares times the reward multiplier, so changing it changes every holder&apos;s balance at once.
          {token.data && (
            <>
              {" "}
              Current value: <span className="font-medium text-foreground">{formatMultiplier(token.data.rewardMultiplier)}x</span>.
            </>
          )}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} noValidate className="grid gap-4">
          <TextField
            label="Reward Multiplier"
            amount
            placeholder="1.0"
            value={value}
            onChange={(v) => {
              setValue(v);
              form.clearError("value");
            }}
            error={form.errors.value}
            disabled={form.busy}
          >
            <p className="text-xs text-muted-foreground">
              Values are scaled in 18 decimals (1.0 = 1 * 10^18). The contract refuses a value below 1.0.
            </p>
          </TextField>
          <MultiplierStepGuard guard={guard} what="new multiplier" disabled={form.busy} />
          <RoleRequirement role="ORACLE_ROLE" />
          <FormFooter
            form={form}
            label="Update Reward Multiplier"
            notConnected={NOT_CONNECTED}
            incomplete={value.trim() === "" || guard.blocked}
          />
        </form>
      </CardContent>
    </Card>
  );
}
