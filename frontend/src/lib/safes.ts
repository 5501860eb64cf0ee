import { createContext, useContext } from "react";
import { useQuery } from "@tanstack/react-query";
import type { SafeInfo } from "@common/api/safes";
import type { RoleName } from "@common/roles";
import { shortAddress } from "@common/wording";
import { call } from "@/lib/api";
import { useWallet } from "@/lib/wallet/store";

/**
 * The Safes that hold USDX roles (GET /api/safes), as every screen that writes sees them: a wallet
 * without a role may still own a Safe that holds it, and then a form proposes its call to that Safe
 * instead of sending it (lib/tx/propose.ts). The Approvals screen (features/safes) lists them whole.
 */

export type { SafeInfo };

/** Every /api/safes query starts with this key: one invalidation reloads the list and each Safe's proposals. */
export const safesKey = ["/api/safes"] as const;

export function useSafes(enabled = true) {
  return useQuery({ queryKey: safesKey, queryFn: async () => (await call("GET /api/safes")).safes, enabled });
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export const isOwner = (safe: SafeInfo, address: string | null): boolean => address !== null && safe.owners.some((o) => same(o, address));

/** The Safe holding `role` among those `owner` owns (the first the server lists), or null. */
export function findSafeFor(safes: readonly SafeInfo[], role: RoleName, owner: string): SafeInfo | null {
  return safes.find((safe) => safe.roles.includes(role) && isOwner(safe, owner)) ?? null;
}

/**
 * The Safe holding `role` whose owners include the connected wallet; null when there is none (or
 * the list could not be read: the form then says which role it needs, as before); undefined while
 * the list loads. `wanted` false asks nothing of the server (a wallet that holds the role itself).
 */
export function useSafeFor(role: RoleName, wanted = true): SafeInfo | null | undefined {
  const me = useWallet((s) => (s.status === "connected" ? s.address : null));
  const safes = useSafes(wanted && me !== null);
  if (!wanted || me === null || safes.isError) return null;
  if (!safes.data) return undefined;
  return findSafeFor(safes.data, role, me);
}

/** The Safes the connected wallet owns that hold any USDX role (Admin Functions shows for their owners too). */
export function useMySafes(wanted = true): SafeInfo[] {
  const me = useWallet((s) => (s.status === "connected" ? s.address : null));
  const safes = useSafes(wanted && me !== null);
  return wanted && me !== null && safes.data ? safes.data.filter((safe) => safe.roles.length > 0 && isOwner(safe, me)) : [];
}

/** 'Operations Safe', or the Safe's short address when the deployment gives it no name. */
export const safeLabel = (safe: SafeInfo): string => safe.name.trim() || shortAddress(safe.address);

/** A form's submit button while it proposes: 'Propose to Operations Safe'. */
export const proposeLabel = (safe: SafeInfo): string => `Propose to ${safeLabel(safe)}`;

/** "2 of 3 owners' approvals" ('1 of 1 owner's approval'). */
export const approvalsOf = (threshold: number, owners: number): string =>
  owners === 1 ? `${threshold} of 1 owner's approval` : `${threshold} of ${owners} owners' approvals`;

/** The line under a form that proposes: what has to happen before the call runs. */
export const safeApprovalLine = (safe: SafeInfo): string =>
  `${safeLabel(safe)} needs ${approvalsOf(safe.threshold, safe.owners.length)} before this runs.`;

/**
 * The Safe a form's writes go to instead of the wallet: set by whatever gates the form on a role
 * (RoleGatedForm, Admin Functions, the Dashboard's multiplier) when the wallet lacks the role but owns
 * a Safe that holds it. The form runner (lib/tx/useTxForm.ts) reads it, so no form has its own switch.
 */
export const ProposeVia = createContext<SafeInfo | null>(null);

export const useProposeVia = (): SafeInfo | null => useContext(ProposeVia);
