import type { RoleName } from "@common/roles";
import { useMyRoles } from "@/lib/chain/queries";
import { useSafeFor, type SafeInfo } from "@/lib/safes";

/**
 * How the connected wallet may make a write that needs `role`: itself (it holds the role), through a
 * Safe it owns that holds the role (the form proposes there), or not at all. 'checking' while the roles,
 * or the Safes for a wallet without the role, are being read. The Safes are asked for only then: a
 * holder of the role sees its forms as before.
 */
export type RoleRoute = { kind: "checking" } | { kind: "direct" } | { kind: "safe"; safe: SafeInfo } | { kind: "none" };

export function useRoleRoute(role: RoleName): RoleRoute {
  const mine = useMyRoles();
  const lacks = mine.flags !== undefined && !mine.flags[role];
  const safe = useSafeFor(role, lacks);
  if (!mine.flags) return { kind: mine.loading ? "checking" : "none" };
  if (mine.flags[role]) return { kind: "direct" };
  if (safe === undefined) return { kind: "checking" };
  return safe ? { kind: "safe", safe } : { kind: "none" };
}
