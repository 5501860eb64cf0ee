import { useQuery } from "@tanstack/react-query";
import type { SafeTx } from "@common/safe";
import { call } from "@/lib/api";
import { safesKey } from "@/lib/safes";

/**
 * The Approvals screen's calls. The Safes themselves (GET /api/safes) are lib's (lib/safes.ts), since
 * every form that writes asks which Safe it may propose to; each Safe's proposals, the proposals and
 * the approvals are this screen's. Keys start with lib's, so one invalidation reloads them all.
 */

export { useSafes } from "@/lib/safes";
export type { SafeInfo } from "@/lib/safes";
export type { SafeProposal } from "@common/api/safes";

/** A Safe's proposals are asked again this often while the screen is open: another owner may approve meanwhile. */
export const PROPOSALS_REFRESH_MS = 5000;

export const proposalsKey = (safe: string) => [...safesKey, safe, "proposals"] as const;

/** Every pending proposal of `safe` (and the newest that ended), with the Safe as it is now. */
export function useProposals(safe: string) {
  return useQuery({
    queryKey: proposalsKey(safe),
    queryFn: () => call("GET /api/safes/:safe/proposals", { params: { safe } }),
    refetchInterval: PROPOSALS_REFRESH_MS,
  });
}

export const postProposal = (safe: string, tx: SafeTx, signature: string) =>
  call("POST /api/safes/:safe/proposals", { params: { safe }, body: { tx, signature } });

export const postApproval = (safe: string, hash: string, signature: string) =>
  call("POST /api/safes/:safe/proposals/:hash/approvals", { params: { safe, hash }, body: { signature } });
