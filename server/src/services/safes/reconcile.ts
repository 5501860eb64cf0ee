import { and, eq, gte, inArray, lt, ne, or } from "drizzle-orm";
import { toQuantity } from "ethers";
import type { Chain } from "../../chain/client";
import type { Database } from "../../db/client";
import { safeProposals } from "../../db/schema";
import type { Logger } from "../../lib/logger";
import type { ProposalEnd, SafeAlerts } from "../alerts/safeEvents";
import type { SafeState } from "./reader";
import { SAFE_INTERFACE } from "@common/safe";

const EXECUTION_SUCCESS = SAFE_INTERFACE.getEvent("ExecutionSuccess")!.topicHash;
const EXECUTION_FAILURE = SAFE_INTERFACE.getEvent("ExecutionFailure")!.topicHash;

interface RawLog {
  topics: string[];
  transactionHash: string;
  removed?: boolean;
}

/**
 * What became of a Safe's proposals, worked out from the Safe as read at one block (`safe`): run on
 * every read and write of its proposals, and cheap when nothing changed (one indexed query that
 * finds nothing). Answers whether any proposal's state changed.
 *
 * A pending proposal below the Safe's nonce has ended: the Safe used its nonce. ONE eth_getLogs over
 * the Safe's address, for ExecutionSuccess or ExecutionFailure with topic1 among those proposals'
 * hashes, from the oldest one's proposal block to the block read, says which were executed (or
 * failed) and by which transaction; the others at those nonces were replaced by whatever used the
 * nonce. Every update is conditional on the row still being pending, so replicas reconciling at once
 * agree.
 *
 * Why not the indexer: it follows USDX and BatchPayments only, behind its confirmations; following
 * every Safe would mean a second set of addresses in its ranges and its reorg handling. A proposal's
 * end is needed only when someone looks, and then this one call answers it.
 *
 * Limits, said here since they are chosen:
 * - Reorgs: a proposal's end is taken from the latest block, not a confirmed one. If a reorganisation
 *   (or evm_revert) takes the Safe's nonce back below an ended proposal's, the proposal is pending
 *   again (the same query finds it). One that moves an execution to another transaction at the same
 *   nonce keeps the first transaction's hash.
 * - Deep history: the range runs from the oldest pending proposal's block. A provider that refuses
 *   the range (proposals left for weeks on a hosted node) leaves them pending, logged, and the next
 *   read tries again; none is marked replaced without the logs that could show it executed.
 */
export async function reconcile(
  db: Database,
  chain: Chain,
  chainId: number,
  safe: SafeState,
  log: Logger,
  alerts: SafeAlerts,
): Promise<boolean> {
  const nonce = Number(safe.nonce);
  const rows = await db
    .select({ safeTxHash: safeProposals.safeTxHash, state: safeProposals.state, proposedBlock: safeProposals.proposedBlock })
    .from(safeProposals)
    .where(
      and(
        eq(safeProposals.chainId, chainId),
        eq(safeProposals.safe, safe.address.toLowerCase()),
        or(
          and(eq(safeProposals.state, "pending"), lt(safeProposals.nonce, nonce)),
          and(ne(safeProposals.state, "pending"), gte(safeProposals.nonce, nonce)),
        ),
      ),
    );
  if (rows.length === 0) return false;

  // The Safe's nonce went back (a reorg, evm_revert): what had ended at those nonces has not.
  const rewound = rows.filter((r) => r.state !== "pending").map((r) => r.safeTxHash);
  if (rewound.length > 0)
    await db
      .update(safeProposals)
      .set({ state: "pending", executedTx: null })
      .where(and(inArray(safeProposals.safeTxHash, rewound), ne(safeProposals.state, "pending")));

  const due = rows.filter((r) => r.state === "pending");
  if (due.length === 0) return true;
  const fromBlock = Math.min(safe.blockNumber, ...due.map((r) => r.proposedBlock));
  let logs: RawLog[];
  try {
    logs = await chain.rawRpc<RawLog[]>("eth_getLogs", [
      {
        address: safe.address,
        fromBlock: toQuantity(fromBlock),
        toBlock: toQuantity(safe.blockNumber),
        topics: [[EXECUTION_SUCCESS, EXECUTION_FAILURE], due.map((r) => r.safeTxHash)],
      },
    ]);
  } catch (error) {
    log.warn({ safe: safe.address, fromBlock, err: error }, "Safe executions not read: its proposals stay pending until the next read");
    return rewound.length > 0;
  }
  const ended = new Map<string, { state: "executed" | "failed"; executedTx: string }>();
  for (const entry of logs) {
    if (entry.removed || entry.topics.length < 2) continue;
    const state = entry.topics[0].toLowerCase() === EXECUTION_SUCCESS ? "executed" : "failed";
    ended.set(entry.topics[1].toLowerCase(), { state, executedTx: entry.transactionHash.toLowerCase() });
  }
  const replaced = due.map((r) => r.safeTxHash).filter((hash) => !ended.has(hash));
  await db.transaction(async (tx) => {
    // Only the update that moved a row on tells the alerts (a replica that lost the race tells none).
    const moved: ProposalEnd[] = [];
    for (const [hash, end] of ended) {
      const [row] = await tx
        .update(safeProposals)
        .set(end)
        .where(and(eq(safeProposals.safeTxHash, hash), eq(safeProposals.state, "pending")))
        .returning();
      if (row) moved.push({ row, ...end });
    }
    await alerts.ended(tx, safe, moved);
    if (replaced.length > 0)
      await tx
        .update(safeProposals)
        .set({ state: "replaced" })
        .where(and(inArray(safeProposals.safeTxHash, replaced), eq(safeProposals.state, "pending")));
  });
  return true;
}
