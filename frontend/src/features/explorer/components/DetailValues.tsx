import type { ReactNode } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { relativeTime } from "@/lib/format";
import type { ArgValue, DecodedArg } from "../api/types";

/** An address with its contract name (USDX, BatchPayments) when it is one of ours, and its copy button. */
export function AddressValue({ address, label }: { address: string; label: string | null }) {
  return (
    <span className="inline-flex max-w-full flex-wrap items-center gap-x-2 gap-y-1">
      {label && <span className="font-semibold">{label}</span>}
      <Mono>{address}</Mono>
      <CopyButton value={address} className="h-6" />
    </span>
  );
}

/** A transaction's or block's hash in full, with its copy button. */
export const HashValue = ({ hash }: { hash: string }) => <AddressValue address={hash} label={null} />;

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
