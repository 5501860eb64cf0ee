import { ExplorerLink } from "@/components/ExplorerLink";
import { useConfig } from "@/lib/config";
import { txUrl } from "@/lib/explorer";
import { shortAddress } from "@/lib/format";

/** The transaction that minted a deposit's USDX: Sepolia's explorer in a new tab, or the dashboard's own view on the local chain. */
export function MintTxLink({ hash }: { hash: string }) {
  const config = useConfig();
  return (
    <ExplorerLink href={txUrl(config, hash)} label={`Mint transaction ${hash}`} title={hash} className="font-mono text-xs">
      {shortAddress(hash)}
    </ExplorerLink>
  );
}
