import { useQuery } from "@tanstack/react-query";
import { call } from "@/lib/api";

export type { BlockedAccount, RoleHolders } from "@common/apiTypes";

// The URL is the key's first element (the app's default queryFn agrees); the runner's refresh after
// a write invalidates every query, so these reload after a grant, revoke, block or unblock.
export const rolesKey = ["/api/roles"] as const;
export const blocklistKey = ["/api/blocklist"] as const;

export function useRoleAssignments() {
  return useQuery({
    queryKey: rolesKey,
    queryFn: async () => (await call("GET /api/roles")).roles,
  });
}

export function useBlocklist() {
  return useQuery({
    queryKey: blocklistKey,
    queryFn: async () => (await call("GET /api/blocklist")).blocked,
  });
}
