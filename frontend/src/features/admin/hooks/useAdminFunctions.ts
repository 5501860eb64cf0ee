import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { ROLE_NAMES } from "@common/roles";
import { toast } from "@/components/ui/toast";
import { chainKeys, useMyRoles, useTokenFigures } from "@/lib/chain/queries";
import { useMySafes } from "@/lib/safes";
import { blocklistKey, rolesKey } from "../api";

/** Refresh Data: reads the chain, the role assignments and the blocklist again, and says how it went. */
function useRefresh() {
  const queryClient = useQueryClient();
  const [refreshing, setRefreshing] = useState(false);
  async function refresh() {
    setRefreshing(true);
    try {
      await Promise.all(
        [chainKeys.all, rolesKey, blocklistKey].map((queryKey) => queryClient.invalidateQueries({ queryKey }, { throwOnError: true })),
      );
      toast({ title: "Data refreshed" });
    } catch (error) {
      toast({ title: "Refresh failed", description: (error as Error).message, variant: "destructive" });
    } finally {
      setRefreshing(false);
    }
  }
  return { refreshing, refresh };
}

/**
 * What the Dashboard's Admin Functions show: the connected wallet's roles (null unless it holds one
 * of the admin roles or owns a Safe that holds a role, when the card is not shown), the roles it
 * holds, the Safes it owns that hold roles (its forms propose to them), whether it may see the role
 * assignments and the blocklist (admin or blocklist role), the token's figures and Refresh Data.
 */
export function useAdminFunctions() {
  const mine = useMyRoles();
  const safes = useMySafes(mine.flags !== undefined);
  const token = useTokenFigures();
  const { refreshing, refresh } = useRefresh();
  const flags = mine.flags && (mine.hasAnyAdminRole || safes.length > 0) ? mine.flags : null;
  return {
    flags,
    held: flags ? ROLE_NAMES.filter((role) => flags[role]) : [],
    safes,
    seesLists: flags !== null && (flags.DEFAULT_ADMIN_ROLE || flags.BLOCKLIST_ROLE),
    token,
    refreshing,
    refresh,
  };
}
