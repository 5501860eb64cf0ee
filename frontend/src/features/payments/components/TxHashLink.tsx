import { ExplorerLink } from "@/components/ExplorerLink";
import { useConfig } from "@/lib/config";
import { txUrl } from "@/lib/explorer";
import { cn } from "@/lib/utils";
import { shortHash } from "@/lib/format";

/** A transaction hash linked to the explorer: Sepolia's in a new tab, the dashboard's own view locally. */
export function TxHashLink({ hash, className, full = false }: { hash: string; className?: string; full?: boolean }) {
  const config = useConfig();
  return (
    <ExplorerLink href={txUrl(config, hash)} label={`Transaction ${hash}`} className={cn("font-mono", className)}>
      {full ? hash : shortHash(hash)}
    </ExplorerLink>
  );
}
