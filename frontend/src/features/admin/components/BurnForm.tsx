import { burnCall } from "@/lib/tx/calls";
import { shortAddress } from "@/lib/format";
import { exactTokenAmount } from "@common/amounts";
import { AddressAmountForm, type AddressAmountFormProps } from "./AddressAmountForm";

const NOT_CONNECTED = burnCall("", 0n).notConnected;

/** Destroys USDX held by an account (BURNER_ROLE); asks once more first, as it cannot be undone. */
export function BurnForm(props: AddressAmountFormProps) {
  return (
    <AddressAmountForm
      {...props}
      title="Burn Tokens"
      description="Destroy USDX held by an account. Total supply falls by the amount."
      addressLabel="From Address"
      submitLabel="Burn"
      role="BURNER_ROLE"
      notConnected={NOT_CONNECTED}
      build={burnCall}
      blockedWarning="This account is blocked: the contract refuses to burn from it until it is unblocked."
      confirmation={(from, amount) => ({
        title: `Burn ${exactTokenAmount(amount)} USDX from ${shortAddress(from)}?`,
        description: "The tokens are destroyed and taken out of that account's balance. This cannot be undone.",
        confirmLabel: "Burn tokens",
      })}
    />
  );
}
