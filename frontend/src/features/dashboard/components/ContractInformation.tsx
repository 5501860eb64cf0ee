import type { ReactNode } from "react";
import { Link } from "react-router-dom";
import { ArrowRight } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { networkBadgeLabel, useConfig } from "@/lib/config";
import { usePrerendering } from "@/lib/prerendering";
import { addressUrl } from "@/lib/explorer";
import { TOKEN_SYMBOL } from "@common/token";
import { ExplorerLink } from "@/components/ExplorerLink";

/** PRODUCT.md section 2: symbol, network, the proxy and owner addresses with copy buttons, 'View Details'. */
export function ContractInformation({ symbol }: { symbol: string | undefined }) {
  const config = useConfig();
  // Drawn at build time (src/prerender.tsx), before the server has named its network and addresses.
  const known = !usePrerendering();
  return (
    <Card className="min-w-0">
      <CardHeader className="flex-row items-center justify-between gap-2 space-y-0">
        <CardTitle className="text-base">Contract Information</CardTitle>
        <Button asChild variant="outline" size="sm">
          <Link to="/settings">
            View Details <ArrowRight className="h-4 w-4" aria-hidden />
          </Link>
        </Button>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-4 text-sm">
          <Row term="Token Symbol">
            <span className="font-medium">{symbol ?? TOKEN_SYMBOL}</span>
          </Row>
          {known && (
            <>
              <Row term="Network">
                <span className="font-medium">{config.networkLabel}</span>
                {/* On a fork the chain is the local one, and the token the forked chain's: both, as the badge names it. */}
                {config.fork && <span className="text-muted-foreground"> ({networkBadgeLabel(config)})</span>}
              </Row>
              <AddressRow term="Proxy Address" address={config.contracts.proxy} />
              <AddressRow term="Owner Address" address={config.contracts.owner} />
            </>
          )}
        </dl>
      </CardContent>
    </Card>
  );
}

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid gap-1">
      <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function AddressRow({ term, address }: { term: string; address: string }) {
  const config = useConfig();
  return (
    <Row term={term}>
      <div className="flex items-start justify-between gap-2">
        <ExplorerLink
          href={addressUrl(config, address)}
          label={`${term} ${address}`}
          className="min-w-0 whitespace-normal break-all font-mono text-xs"
        >
          {address}
        </ExplorerLink>
        <CopyButton value={address} className="shrink-0" />
      </div>
    </Row>
  );
}
