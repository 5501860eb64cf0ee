import { useQuery } from "@tanstack/react-query";
import { useConfig } from "@/lib/config";
import { useWallet } from "@/lib/wallet/store";
import type { ReadSource } from "./reads";
import { useRpcSetting } from "./rpc";

/**
 * Chain reads as TanStack queries. Keys start with 'chain' so the transaction runner can refresh
 * every chain read after a write; the address is part of the key, so an account change reloads.
 */
export const chainKeys = {
  all: ["chain"] as const,
  token: ["chain", "token"] as const,
  account: (address: string) => ["chain", "account", address] as const,
  roles: (address: string) => ["chain", "roles", address] as const,
  blocked: (addresses: string[]) => ["chain", "blocked", ...addresses] as const,
};

// The reads load with the first one, not with the page (ethers and the bindings only with a write).
const chain = () => import("./reads");

function useSource(): ReadSource & { canRead: boolean } {
  const config = useConfig();
  const custom = useRpcSetting((s) => s.customRpcUrl);
  const wallet = useWallet((s) => (s.status === "connected" ? s.provider : null));
  const rpcUrl = custom || config.rpcUrl;
  return { config, rpcUrl, wallet, canRead: rpcUrl !== null || wallet !== null };
}

export function useTokenFigures() {
  const source = useSource();
  return useQuery({
    queryKey: chainKeys.token,
    enabled: source.canRead,
    queryFn: async () => {
      return (await chain()).readTokenFigures(source);
    },
  });
}

export function useAccountFigures(address: string | null) {
  const source = useSource();
  return useQuery({
    queryKey: chainKeys.account(address ?? ""),
    enabled: source.canRead && address !== null,
    queryFn: async () => {
      return (await chain()).readAccountFigures(source, address!);
    },
  });
}

export function useRoleFlags(address: string | null) {
  const source = useSource();
  return useQuery({
    queryKey: chainKeys.roles(address ?? ""),
    enabled: source.canRead && address !== null,
    queryFn: async () => {
      return (await chain()).readRoleFlags(source, address!);
    },
  });
}

/** The connected wallet's roles; no wallet, or a failed read, holds none (PRODUCT.md section 6). */
export function useMyRoles() {
  const address = useWallet((s) => (s.status === "connected" ? s.address : null));
  const query = useRoleFlags(address);
  const flags = query.data;
  return {
    address,
    loading: address !== null && query.isLoading,
    flags,
    isAdmin: flags?.DEFAULT_ADMIN_ROLE ?? false,
    /** Spec: Admin Functions shows for admin, minter, burner, blocklist, pause or oracle. */
    hasAnyAdminRole: flags
      ? flags.DEFAULT_ADMIN_ROLE || flags.MINTER_ROLE || flags.BURNER_ROLE || flags.BLOCKLIST_ROLE || flags.PAUSE_ROLE || flags.ORACLE_ROLE
      : false,
  };
}

export function useBlockedFlags(addresses: string[]) {
  const source = useSource();
  return useQuery({
    queryKey: chainKeys.blocked(addresses),
    enabled: source.canRead && addresses.length > 0,
    queryFn: async () => {
      return (await chain()).readBlocked(source, addresses);
    },
  });
}
