import { Lock, ShieldCheck, ShieldAlert } from "lucide-react";
import { ROLE_PERMITS, type RoleName } from "@common/roles";
import { useMyRoles } from "@/lib/chain/queries";
import { cn } from "@/lib/utils";

/** 'You need MINTER_ROLE to mint.': shown in place of a form the wallet's roles do not allow. */
export function roleNeeded(role: RoleName): string {
  return `You need ${role} to ${ROLE_PERMITS[role]}.`;
}

export function RoleRequiredNote({ role, className }: { role: RoleName; className?: string }) {
  return (
    <div
      className={cn(
        "flex items-start gap-2 rounded-md border border-dashed border-border bg-muted/40 p-4 text-sm text-muted-foreground",
        className,
      )}
    >
      <Lock className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
      <p>{roleNeeded(role)}</p>
    </div>
  );
}

/**
 * Which role a form needs, and whether the connected wallet holds it. The Admin Panel's holder may
 * lack it: the form still runs, and the contract's refusal comes back decoded through the runner.
 */
export function RoleRequirement({ role }: { role: RoleName }) {
  const { flags } = useMyRoles();
  const held = flags?.[role];
  return (
    <p className={cn("flex items-center gap-1.5 text-xs", held === false ? "text-amber-700" : "text-muted-foreground")}>
      {held === false ? <ShieldAlert className="h-3.5 w-3.5" aria-hidden /> : <ShieldCheck className="h-3.5 w-3.5" aria-hidden />}
      <span>
        Requires {role}
        {held === true && " (you hold it)"}
        {held === false && ": your wallet does not hold it, so the contract will refuse"}
      </span>
    </p>
  );
}
