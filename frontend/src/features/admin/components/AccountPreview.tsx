import { Ban, CheckCircle2 } from "lucide-react";
import { ROLE_NAMES } from "@common/roles";
import { Spinner } from "@/components/ui/spinner";
import { useAccountFigures, useRoleFlags } from "@/lib/chain/queries";
import { formatUsdx } from "@/lib/format";
import { checkAddress } from "@/lib/validation";

/** The address typed so far, checksummed, or null while it is not a valid address. */
export function validAddress(input: string): string | null {
  const checked = checkAddress(input);
  return checked.ok ? checked.value : null;
}

/**
 * What the chain says about the account typed into a form, once it is a valid address: its balance
 * and whether it is blocked (and, for the role form, the roles it holds).
 */
export function AccountPreview({ input, showRoles = false }: { input: string; showRoles?: boolean }) {
  const address = validAddress(input);
  const figures = useAccountFigures(address);
  if (!address) return null;
  return (
    <div className="grid gap-1 text-xs text-muted-foreground" aria-live="polite">
      {figures.isLoading ? (
        <span className="flex items-center gap-1.5">
          <Spinner className="h-3.5 w-3.5" label="Reading the account" /> Reading the account...
        </span>
      ) : figures.data ? (
        <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <span>
            Balance: <span className="font-medium text-foreground">{formatUsdx(figures.data.balance)} USDX</span>
          </span>
          {figures.data.blocked ? (
            <span className="flex items-center gap-1 font-medium text-destructive">
              <Ban className="h-3.5 w-3.5" aria-hidden /> Blocked
            </span>
          ) : (
            <span className="flex items-center gap-1">
              <CheckCircle2 className="h-3.5 w-3.5 text-success" aria-hidden /> Not blocked
            </span>
          )}
        </span>
      ) : figures.isError ? (
        <span>Could not read this account from the chain.</span>
      ) : null}
      {showRoles && <HeldRoles address={address} />}
    </div>
  );
}

function HeldRoles({ address }: { address: string }) {
  const roles = useRoleFlags(address);
  if (!roles.data) return null;
  const held = ROLE_NAMES.filter((name) => roles.data[name]);
  return <span>Roles held: {held.length > 0 ? <span className="font-medium text-foreground">{held.join(", ")}</span> : "none"}</span>;
}
