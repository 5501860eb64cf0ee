import { useId } from "react";
import { Label } from "@/components/ui/label";
import { RadioGroup, RadioGroupItem } from "@/components/ui/radio-group";
import { useAccountFigures } from "@/lib/chain/queries";
import { formatUsdx, shortAddress } from "@/lib/format";
import { isOwner, safeApprovalLine, safeLabel, useSafes, type SafeInfo } from "@/lib/safes";
import { useWallet } from "@/lib/wallet/store";
import { usePayments } from "../stores/paymentsStore";

/** One 'Pay from' option's figures: the address and its balance. */
function Balance({ address }: { address: string }) {
  const balance = useAccountFigures(address).data?.balance;
  return (
    <span className="text-muted-foreground">
      <span className="font-mono">{shortAddress(address)}</span>
      {balance !== undefined && <> · Available: {formatUsdx(balance)} USDX</>}
    </span>
  );
}

/**
 * Who pays: the connected wallet, or a Safe it owns (PRODUCT.md, Payments: 'Pay from'). Shown only
 * when the wallet owns a Safe; then a Safe's chunks are proposed to it rather than sent.
 */
export function PayFrom() {
  const id = useId();
  const address = useWallet((s) => (s.status === "connected" ? s.address : null));
  const safes = useSafes(address !== null);
  const payFrom = usePayments((s) => s.payFrom);
  const mine: SafeInfo[] = address && safes.data ? safes.data.filter((safe) => isOwner(safe, address)) : [];
  if (!address) return <p className="text-xs text-muted-foreground">No wallet connected</p>;
  if (mine.length === 0)
    return (
      <p className="text-xs">
        Paying from <Balance address={address} />
      </p>
    );
  const chosen = mine.find((safe) => safe.address === payFrom) ?? null;
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium">Pay from</legend>
      <RadioGroup
        value={chosen?.address ?? "wallet"}
        onValueChange={(value) => usePayments.setState({ payFrom: value === "wallet" ? null : value })}
      >
        <div className="flex items-center gap-2 text-xs">
          <RadioGroupItem value="wallet" id={`${id}-wallet`} />
          <Label htmlFor={`${id}-wallet`} className="cursor-pointer text-xs font-normal">
            Your wallet · <Balance address={address} />
          </Label>
        </div>
        {mine.map((safe) => (
          <div key={safe.address} className="flex items-center gap-2 text-xs">
            <RadioGroupItem value={safe.address} id={`${id}-${safe.address}`} />
            <Label htmlFor={`${id}-${safe.address}`} className="cursor-pointer text-xs font-normal">
              {safeLabel(safe)} · <Balance address={safe.address} />
            </Label>
          </div>
        ))}
      </RadioGroup>
      {chosen && (
        <p className="text-xs text-muted-foreground">
          Each chunk becomes a proposal to {safeLabel(chosen)} that you sign. {safeApprovalLine(chosen)}
        </p>
      )}
    </fieldset>
  );
}
