import type { SafeVia } from "@common/apiTypes";
import { ExplorerLink } from "@/components/ExplorerLink";
import { useConfig } from "@/lib/config";
import { addressUrl, blockUrl, txUrl } from "@/lib/explorer";
import { relativeTime, shortAddress } from "@/lib/format";
import { cn } from "@/lib/utils";
import { ZERO_ADDRESS } from "../display";

export function TxLink({ hash }: { hash: string }) {
  const config = useConfig();
  return (
    <ExplorerLink href={txUrl(config, hash)} label={`Transaction ${hash}`} className="font-mono text-xs">
      {shortAddress(hash)}
    </ExplorerLink>
  );
}

export function BlockLink({ block }: { block: number }) {
  const config = useConfig();
  return (
    <ExplorerLink href={blockUrl(config, block)} label={`Block ${block}`} className="tabular-nums">
      {block.toLocaleString()}
    </ExplorerLink>
  );
}

/**
 * An account, shortened, linking to its history; '(you)' on the connected wallet's own. The
 * account whose history is shown (`current`) and the zero address of a mint or burn are not links.
 */
export function AddressLink({ address, you, current = false }: { address: string; you: boolean; current?: boolean }) {
  const config = useConfig();
  const mark = you && <span className="font-sans text-muted-foreground">(you)</span>;
  if (current || ZERO_ADDRESS.test(address)) {
    return (
      <span
        className={cn(
          "inline-flex items-center gap-1 whitespace-nowrap font-mono text-xs",
          current ? "font-semibold text-foreground" : "text-muted-foreground",
        )}
        title={current ? address : "The zero address"}
      >
        {shortAddress(address)}
        {mark}
      </span>
    );
  }
  return (
    <ExplorerLink href={addressUrl(config, address)} label={`Address ${address}${you ? " (you)" : ""}`} className="font-mono text-xs">
      {shortAddress(address)}
      {mark}
    </ExplorerLink>
  );
}

/** A Unix time as the spec words it ('2 minutes ago'), the exact date and time on hover. */
export function TimeCell({ timestamp, now }: { timestamp: number; now: number }) {
  const date = new Date(timestamp * 1000);
  return (
    <time dateTime={date.toISOString()} title={date.toLocaleString()} className="whitespace-nowrap text-muted-foreground">
      {relativeTime(timestamp, now)}
    </time>
  );
}

/**
 * 'via Operations Safe' under a row whose transaction executed a Safe's approved proposal: the mint
 * shows as Mint, and this says which Safe's owners made it happen.
 */
export function ViaSafe({ via }: { via?: SafeVia }) {
  if (!via) return null;
  return (
    <span
      className="text-xs font-normal text-muted-foreground"
      title={`Executed by ${via.name} (${via.address}), from a proposal its owners approved`}
    >
      via {via.name}
    </span>
  );
}
