import { useAccountFigures } from "@/lib/chain/queries";
import { formatUsdx } from "@/lib/format";
import { transferCall } from "@/lib/tx/calls";
import { checkAmount, checkTransferAmount } from "@/lib/validation";
import { useWallet } from "@/lib/wallet/store";
import { AddressAmountForm, type AddressAmountFormProps } from "./AddressAmountForm";

const NOT_CONNECTED = transferCall("", 0n).notConnected;

/** The Admin Panel's transfer: from the connected admin's own balance to an address. */
export function AdminTransferForm(props: AddressAmountFormProps) {
  const me = useWallet((s) => (s.status === "connected" ? s.address : null));
  const mine = useAccountFigures(me);
  const balance = mine.data?.balance;
  return (
    <AddressAmountForm
      {...props}
      title="Transfer Tokens"
      description="Send USDX from your own balance to an address."
      addressLabel="Recipient Address"
      submitLabel="Transfer"
      notConnected={NOT_CONNECTED}
      build={transferCall}
      // PRODUCT.md section 5: not above the balance, once it is known.
      checkAmount={(input) => (balance === undefined ? checkAmount(input) : checkTransferAmount(input, balance, formatUsdx(balance)))}
      amountHint={balance !== undefined && <p className="text-xs text-muted-foreground">Available: {formatUsdx(balance)} USDX</p>}
    />
  );
}
