import type { ReactNode } from "react";
import { Link } from "react-router-dom";
import { ExternalLink, SearchX } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { ConnectWalletButton } from "@/components/wallet/ConnectWalletButton";
import { relativeTime } from "@/lib/format";
import type { ArgValue, DecodedArg } from "../api/types";

export function ExplorerHeading({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center gap-3">
      <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
      {children}
    </div>
  );
}

/** Label and value rows; one column on phones, two from the small breakpoint. */
export function DetailList({ children }: { children: ReactNode }) {
  return <dl className="divide-y divide-border">{children}</dl>;
}

export function DetailRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 py-3 sm:grid-cols-[9rem_1fr] sm:gap-4">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-sm">{children}</dd>
    </div>
  );
}

/** An address with its contract name (USDX, BatchPayments) when it is one of ours. */
export function AddressValue({ address, label }: { address: string; label: string | null }) {
  return (
    <span className="inline-flex max-w-full flex-wrap items-center gap-x-2 gap-y-1">
      {label && <span className="font-semibold">{label}</span>}
      <span className="break-all font-mono">{address}</span>
      <CopyButton value={address} className="h-6" />
    </span>
  );
}

/** A hash in full, monospace, breaking anywhere so it fits a phone. */
export function Mono({ children }: { children: ReactNode }) {
  return <span className="break-all font-mono">{children}</span>;
}

export function TimeValue({ timestamp }: { timestamp: number | null }) {
  if (timestamp === null) return <span className="text-muted-foreground">Not mined yet</span>;
  return (
    <span>
      {relativeTime(timestamp)} <span className="text-muted-foreground">({new Date(timestamp * 1000).toLocaleString()})</span>
    </span>
  );
}

function Value({ value }: { value: ArgValue }) {
  if (value.kind === "address") return <AddressValue address={value.address} label={value.label} />;
  if (value.kind === "list") {
    if (value.items.length === 0) return <span className="text-muted-foreground">(empty list)</span>;
    return (
      <ol className="grid list-decimal gap-1 pl-5 marker:text-muted-foreground">
        {value.items.map((item, i) => (
          <li key={i}>
            <Value value={item} />
          </li>
        ))}
      </ol>
    );
  }
  return <span className="break-all">{value.text}</span>;
}

/** Decoded arguments as name / type / value rows. */
export function ArgList({ args }: { args: DecodedArg[] }) {
  if (args.length === 0) return <p className="text-sm text-muted-foreground">No arguments.</p>;
  return (
    <dl className="grid gap-2">
      {args.map((arg) => (
        <div key={arg.name} className="grid gap-1 rounded-md bg-muted/50 px-3 py-2 sm:grid-cols-[13rem_1fr] sm:gap-4">
          <dt className="text-sm">
            <span className="font-medium">{arg.name}</span> <span className="font-mono text-xs text-muted-foreground">{arg.type}</span>
          </dt>
          <dd className="min-w-0 text-sm">
            <Value value={arg.value} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

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
