import { useCallback } from "react";
import { SAFE_DELEGATECALL } from "@common/safe";
import { decodeChunkSafeTx, describeChunk } from "@common/safeBatch";
import { describeSafeCall } from "@common/safeCalls";
import { useTokenFigures } from "@/lib/chain/queries";
import { useConfig } from "@/lib/config";
import type { SafeProposal } from "./api/safes";

/** Safe's rejection: an empty call of the Safe itself, which only uses up its nonce. */
export const isRejection = (proposal: SafeProposal, safe: string): boolean =>
  proposal.tx.to.toLowerCase() === safe.toLowerCase() && (proposal.tx.data === "0x" || proposal.tx.data === "");

/**
 * A proposal's call in words, decoded here from the very SafeTx an owner signs rather than taken
 * from the server's description, with the multiplier as it is now for a multiplier change's '+x%'.
 * A batch chunk (a MultiSend of approve and pay) reads 'Pay 3 recipients 6.50 USDX (a batch chunk)'.
 */
export function useProposalWords(): (proposal: SafeProposal) => string {
  const config = useConfig();
  const multiplier = useTokenFigures().data?.rewardMultiplier;
  return useCallback(
    (proposal: SafeProposal) => {
      if (proposal.tx.operation === SAFE_DELEGATECALL) {
        const chunk = decodeChunkSafeTx(proposal.tx, { token: config.contracts.proxy, batchPayments: config.contracts.batchPayments });
        return typeof chunk === "string" ? "A batch of calls the dashboard does not describe" : describeChunk(chunk);
      }
      return describeSafeCall(proposal.tx, { token: config.contracts.proxy, safe: proposal.safe, multiplier });
    },
    [config.contracts.proxy, config.contracts.batchPayments, multiplier],
  );
}
