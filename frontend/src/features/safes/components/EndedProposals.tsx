import { Badge } from "@/components/ui/badge";
import { ExplorerLink } from "@/components/ExplorerLink";
import { useConfig } from "@/lib/config";
import { txUrl } from "@/lib/explorer";
import { shortHash } from "@/lib/format";
import type { SafeProposal } from "../api/safes";

const STATES: Record<Exclude<SafeProposal["state"], "pending">, { label: string; variant: "success" | "destructive" | "outline" }> = {
  executed: { label: "Executed", variant: "success" },
  failed: { label: "Failed", variant: "destructive" },
  replaced: { label: "Replaced", variant: "outline" },
};

/** Proposals that ended, newest nonce first: what became of each, and the transaction that used its nonce. */
export function EndedProposals({ proposals, words }: { proposals: SafeProposal[]; words(proposal: SafeProposal): string }) {
  const config = useConfig();
  return (
    <ul aria-label="Ended proposals" className="grid gap-2">
      {proposals.map((proposal) => {
        const state = STATES[proposal.state as keyof typeof STATES];
        return (
          <li
            key={proposal.safeTxHash}
            className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1 rounded-md border border-border px-3 py-2 text-sm"
          >
            <Badge variant={state.variant}>{state.label}</Badge>
            <span className="min-w-0 flex-1 basis-48 [overflow-wrap:anywhere]">{words(proposal)}</span>
            <span className="text-xs tabular-nums text-muted-foreground">Nonce {proposal.tx.nonce}</span>
            {proposal.executedBy ? (
              <ExplorerLink
                href={txUrl(config, proposal.executedBy)}
                label={`Transaction ${proposal.executedBy}`}
                className="font-mono text-xs"
              >
                {shortHash(proposal.executedBy)}
              </ExplorerLink>
            ) : (
              <span className="text-xs text-muted-foreground">Transaction not indexed yet</span>
            )}
          </li>
        );
      })}
    </ul>
  );
}
