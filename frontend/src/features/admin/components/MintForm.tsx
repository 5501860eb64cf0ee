import { mintCall } from "@/lib/tx/calls";
import { AddressAmountForm, type AddressAmountFormProps } from "./AddressAmountForm";

const NOT_CONNECTED = mintCall("", 0n).notConnected;

/** Creates USDX in an account (MINTER_ROLE). */
export function MintForm(props: AddressAmountFormProps) {
  return (
    <AddressAmountForm
      {...props}
      title="Mint Tokens"
      description="Create new USDX in an account. Total supply grows by the amount."
      addressLabel="Recipient Address"
      submitLabel="Mint"
      role="MINTER_ROLE"
      notConnected={NOT_CONNECTED}
      build={mintCall}
    />
  );
}
