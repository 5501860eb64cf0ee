import type { safeProposals } from "../../db/schema";
import type { SafeState } from "./reader";

/**
 * What changed in the Safe since a pending proposal was made, in words, for the Approvals screen:
 * the count is already recounted against the latest owners and threshold (proposals.ts), and these
 * say why it moved. The threshold is compared with the one stored at proposal time; an approving
 * owner no longer an owner shows in the approvals themselves (current: false). No log is read: both
 * follow from what is stored and the Safe as read for the answer. Ended proposals say nothing.
 */
export function changesSince(
  row: Pick<typeof safeProposals.$inferSelect, "state" | "thresholdAtProposal">,
  approvals: { owner: string; current: boolean }[],
  safe: Pick<SafeState, "threshold">,
): string[] {
  if (row.state !== "pending") return [];
  const changes: string[] = [];
  if (row.thresholdAtProposal !== null && row.thresholdAtProposal !== safe.threshold)
    changes.push(`The threshold changed from ${row.thresholdAtProposal} to ${safe.threshold} after this was proposed.`);
  const removed = approvals.filter((a) => !a.current).map((a) => a.owner);
  if (removed.length === 1) changes.push(`${removed[0]} approved but is no longer an owner: that approval does not count.`);
  else if (removed.length > 1) changes.push(`${removed.join(", ")} approved but are no longer owners: those approvals do not count.`);
  return changes;
}
