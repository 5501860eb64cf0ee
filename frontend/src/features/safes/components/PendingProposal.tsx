import { useId } from "react";
import { Check, CheckCircle2, Circle, Play, X } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CopyableAddress } from "@/components/CopyableAddress";
import { relativeTime } from "@/lib/format";
import { isOwner } from "@/lib/safes";
import { useNow } from "@/lib/useNow";
import type { SafeInfo, SafeProposal } from "../api/safes";
import type { useProposalActions } from "../hooks/useProposalActions";
import { isRejection } from "../words";

interface PendingProposalProps {
  proposal: SafeProposal;
  safe: SafeInfo;
  /** The call in words ('Mint 250.00 USDX to 0x14dC...9955'). */
  words: string;
  me: string | null;
  actions: ReturnType<typeof useProposalActions>;
  /** A rejection of this nonce is already proposed: owners approve that instead of proposing another. */
  rejected: boolean;
}

const same = (a: string, b: string | null) => b !== null && a.toLowerCase() === b.toLowerCase();

/**
 * One proposal waiting for its owners: the call in words, its nonce, who proposed it and when, the
 * approvals out of the threshold with each owner marked, and for an owner the buttons that apply:
 * Approve (not yet approved), Execute (enough approvals), Reject (Safe's own rejection at this nonce).
 */
export function PendingProposal({ proposal, safe, words, me, actions, rejected }: PendingProposalProps) {
  const id = useId();
  const now = useNow();
  const approved = (owner: string) => proposal.approvals.some((a) => a.current && same(a.owner, owner));
  const owner = isOwner(safe, me);
  const ready = proposal.confirmations >= proposal.threshold;
  const nonce = BigInt(proposal.tx.nonce);
  // A Safe runs its transactions in nonce order: a later one waits until the ones before are used.
  const waiting = nonce > BigInt(safe.nonce);
  const rejection = isRejection(proposal, safe.address);
  const busy = actions.busy !== null;

  return (
    <li aria-labelledby={`${id}-words`} className="grid min-w-0 gap-3 rounded-md border border-border p-3 sm:p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <p id={`${id}-words`} className="min-w-0 text-sm font-medium [overflow-wrap:anywhere]">
          {words}
        </p>
        <Badge variant="outline" className="shrink-0 tabular-nums">
          Nonce {proposal.tx.nonce}
        </Badge>
      </div>
      <p className="flex flex-wrap items-center gap-x-1.5 text-xs text-muted-foreground">
        Proposed by <CopyableAddress address={proposal.proposer} />
        {same(proposal.proposer, me) && <span>(you)</span>}
        <span title={new Date(proposal.proposedAt).toLocaleString()}>{relativeTime(Date.parse(proposal.proposedAt) / 1000, now)}</span>
      </p>
      <div className="grid gap-1.5">
        <p className="text-sm">
          <span className="font-medium tabular-nums">
            {proposal.confirmations} of {proposal.threshold}
          </span>{" "}
          approvals{ready && ": ready to execute"}
        </p>
        {proposal.changes.length > 0 && (
          <ul aria-label="Changed since proposed" className="grid gap-0.5 text-xs text-muted-foreground">
            {proposal.changes.map((change) => (
              <li key={change} className="[overflow-wrap:anywhere]">
                {change}
              </li>
            ))}
          </ul>
        )}
        <ul aria-label="Owners' approvals" className="grid gap-1">
          {safe.owners.map((address) => (
            <li key={address} className="flex flex-wrap items-center gap-x-2 gap-y-0.5 text-xs">
              {approved(address) ? (
                <CheckCircle2 className="h-3.5 w-3.5 shrink-0 text-success" aria-hidden />
              ) : (
                <Circle className="h-3.5 w-3.5 shrink-0 text-muted-foreground" aria-hidden />
              )}
              <CopyableAddress address={address} />
              {same(address, me) && <span className="text-muted-foreground">(you)</span>}
              <span className={approved(address) ? "font-medium" : "text-muted-foreground"}>
                {approved(address) ? "Approved" : "Not yet approved"}
              </span>
            </li>
          ))}
        </ul>
      </div>
      {owner ? (
        <div className="flex flex-wrap gap-2">
          {me && !approved(me) && (
            <Button type="button" size="sm" onClick={() => void actions.approve(proposal)} disabled={busy}>
              <Check className="h-4 w-4" aria-hidden />
              {actions.running(proposal, "approve") ? "Approving..." : "Approve"}
            </Button>
          )}
          {ready && (
            <Button
              type="button"
              size="sm"
              variant="outline"
              onClick={() => void actions.execute(proposal, words)}
              disabled={busy || waiting}
            >
              <Play className="h-4 w-4" aria-hidden />
              {actions.running(proposal, "execute") ? "Executing..." : "Execute"}
            </Button>
          )}
          {!rejection && !rejected && (
            <Button type="button" size="sm" variant="outline" onClick={() => void actions.reject(proposal)} disabled={busy}>
              <X className="h-4 w-4" aria-hidden />
              {actions.running(proposal, "reject") ? "Rejecting..." : "Reject"}
            </Button>
          )}
        </div>
      ) : (
        <p className="text-xs text-muted-foreground">
          {me ? "Your wallet is not an owner of this Safe." : "Connect an owner's wallet to approve, execute or reject."}
        </p>
      )}
      {owner && ready && waiting && (
        <p className="text-xs text-muted-foreground">Executes after nonce {safe.nonce}: the Safe runs its transactions in nonce order.</p>
      )}
      {owner && rejected && !rejection && (
        <p className="text-xs text-muted-foreground">A rejection of nonce {proposal.tx.nonce} is proposed: approve it to reject this.</p>
      )}
    </li>
  );
}
