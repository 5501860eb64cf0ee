import { and, eq, inArray } from "drizzle-orm";
import { getAddress } from "ethers";
import type { SafeVia } from "@common/apiTypes";
import type { Database } from "../../db/client";
import { safeProposals } from "../../db/schema";

/** Which Safe executed each of some transactions, by transaction hash (lower-case); absent: none known. */
export type SafesExecuting = (transactionHashes: string[]) => Promise<Map<string, SafeVia>>;

/**
 * History rows say 'via Operations Safe' when their transaction executed a proposal: one query per
 * page on safe_proposals_executed_tx, whatever the page's size. It knows what reconcile.ts found,
 * so a Safe transaction shows its Safe once someone has read that Safe's proposals (the Approvals
 * screen, GET /api/safes) after it ran; a Safe transaction proposed elsewhere shows none.
 */
export function safesExecuting(db: Database, chainId: number, nameOf: (address: string) => string): SafesExecuting {
  return async (transactionHashes) => {
    const hashes = [...new Set(transactionHashes.map((h) => h.toLowerCase()))];
    if (hashes.length === 0) return new Map();
    const rows = await db
      .selectDistinct({ executedTx: safeProposals.executedTx, safe: safeProposals.safe })
      .from(safeProposals)
      .where(and(inArray(safeProposals.executedTx, hashes), eq(safeProposals.chainId, chainId), eq(safeProposals.state, "executed")));
    return new Map(rows.map((r) => [r.executedTx!, { address: getAddress(r.safe), name: nameOf(r.safe) }]));
  };
}
