import type { ReactNode } from "react";
import { History, Inbox } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { CopyableAddress } from "@/components/CopyableAddress";
import { ExplorerLink } from "@/components/ExplorerLink";
import { EmptyState, ReadStates } from "@/components/states";
import { useConfig } from "@/lib/config";
import { addressUrl, isExternal } from "@/lib/explorer";
import { safeLabel } from "@/lib/safes";
import { useWallet } from "@/lib/wallet/store";
import { useProposals, type SafeInfo, type SafeProposal } from "../api/safes";
import { useProposalActions } from "../hooks/useProposalActions";
import { isRejection, useProposalWords } from "../words";
import { EndedProposals } from "./EndedProposals";
import { PendingProposal } from "./PendingProposal";

const byNonce = (a: SafeProposal, b: SafeProposal) => {
  const [x, y] = [BigInt(a.tx.nonce), BigInt(b.tx.nonce)];
  return x < y ? -1 : x > y ? 1 : a.proposedAt.localeCompare(b.proposedAt);
};

function Fact({ term, className, children }: { term: string; className?: string; children: ReactNode }) {
  return (
    <div className={className ? `grid min-w-0 gap-1 ${className}` : "grid min-w-0 gap-1"}>
      <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{term}</dt>
      <dd className="flex min-w-0 flex-wrap items-center gap-1.5 text-sm">{children}</dd>
    </div>
  );
}

/**
 * One Safe: its name and address, owners, threshold, nonce and roles (as its proposals' answer has
 * them now, else as listed), then its pending proposals by nonce and those that ended.
 */
export function SafeCard({ listed }: { listed: SafeInfo }) {
  const config = useConfig();
  const proposals = useProposals(listed.address);
  const safe = proposals.data?.safe ?? listed;
  const me = useWallet((s) => (s.status === "connected" ? s.address : null));
  const actions = useProposalActions(safe);
  const words = useProposalWords();
  const label = safeLabel(safe);

  return (
    <Card className="min-w-0">
      <CardHeader className="gap-1.5">
        <CardTitle>{label}</CardTitle>
        <CardDescription className="flex flex-wrap items-center gap-1.5">
          <CopyableAddress address={safe.address} />
          <ExplorerLink href={addressUrl(config, safe.address)} label={`Activity of ${safe.address}`} className="text-xs">
            {!isExternal(config) && <History className="h-3.5 w-3.5" aria-hidden />}
          </ExplorerLink>
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
          <Fact term="Threshold">
            <span className="tabular-nums">
              {safe.threshold} of {safe.owners.length}
            </span>
          </Fact>
          <Fact term="Nonce">
            <span className="tabular-nums">{safe.nonce}</span>
          </Fact>
          <Fact term="Roles" className="col-span-2">
            {safe.roles.map((role) => (
              <Badge key={role} variant="secondary" className="font-mono">
                {role}
              </Badge>
            ))}
          </Fact>
          <Fact term="Owners" className="col-span-2 sm:col-span-4">
            <ul aria-label={`Owners of ${label}`} className="grid gap-1">
              {safe.owners.map((owner) => (
                <li key={owner} className="flex flex-wrap items-center gap-1.5">
                  <CopyableAddress address={owner} />
                  {me && owner.toLowerCase() === me.toLowerCase() && <span className="text-xs text-muted-foreground">(you)</span>}
                </li>
              ))}
            </ul>
          </Fact>
        </dl>

        <ReadStates query={proposals} failed="Failed to load proposals" loading="Loading proposals" isEmpty={() => false} empty={null}>
          {(data) => {
            const pending = data.proposals.filter((p) => p.state === "pending").sort(byNonce);
            const ended = data.proposals.filter((p) => p.state !== "pending").sort((a, b) => byNonce(b, a));
            const rejectedNonces = new Set(pending.filter((p) => isRejection(p, safe.address)).map((p) => p.tx.nonce));
            return (
              <>
                <section aria-label="Pending proposals" className="grid gap-3">
                  <h3 className="text-sm font-semibold">Pending proposals</h3>
                  {pending.length === 0 ? (
                    <EmptyState icon={<Inbox />} title="No pending proposals" hint="A form of a role this Safe holds proposes here." />
                  ) : (
                    <ul className="grid gap-3">
                      {pending.map((proposal) => (
                        <PendingProposal
                          key={proposal.safeTxHash}
                          proposal={proposal}
                          safe={safe}
                          words={words(proposal)}
                          me={me}
                          actions={actions}
                          rejected={rejectedNonces.has(proposal.tx.nonce)}
                        />
                      ))}
                    </ul>
                  )}
                </section>
                {ended.length > 0 && (
                  <section aria-label="Ended" className="grid gap-3">
                    <h3 className="text-sm font-semibold">Ended</h3>
                    <EndedProposals proposals={ended} words={words} />
                  </section>
                )}
              </>
            );
          }}
        </ReadStates>
      </CardContent>
    </Card>
  );
}
