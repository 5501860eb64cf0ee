import type { ReactNode } from "react";
import { Link } from "react-router-dom";
import { ExternalLink, SearchX } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { ConnectWalletButton } from "@/components/wallet/ConnectWalletButton";

/** A full-width notice for 'not found' and 'not a valid hash'. */
export function MessageCard({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-3 p-10 text-center">
        <SearchX className="h-10 w-10 text-muted-foreground" aria-hidden />
        <h2 className="text-lg font-semibold">{title}</h2>
        {children && <div className="max-w-lg text-sm text-muted-foreground">{children}</div>}
      </CardContent>
    </Card>
  );
}

/** Neither a configured RPC nor a wallet: nothing can read the chain yet. */
export function NoReadSource() {
  return (
    <MessageCard title="Nothing to read the chain with">
      <p>Connect a wallet, or set a Custom RPC URL in Settings.</p>
      <div className="mt-4 flex flex-wrap justify-center gap-2">
        <ConnectWalletButton />
        <Button variant="outline" asChild>
          <Link to="/settings">Open Settings</Link>
        </Button>
      </div>
    </MessageCard>
  );
}

/** On a network with a block explorer, these views hand over to it. */
export function ExternalExplorer({ url, what }: { url: string; what: string }) {
  const host = new URL(url).host;
  return (
    <Card>
      <CardContent className="flex flex-col items-start gap-4 p-6">
        <p className="text-sm text-muted-foreground">Details of this {what} are on the network's block explorer.</p>
        <Button asChild>
          <a href={url} target="_blank" rel="noreferrer">
            View on {host}
            <ExternalLink className="h-4 w-4" aria-hidden />
          </a>
        </Button>
      </CardContent>
    </Card>
  );
}
