import { useState } from "react";
import { Coins, Copy, Download, ExternalLink, FileJson } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { toast } from "@/components/ui/toast";
import { useTokenFigures } from "@/lib/chain/queries";
import { copyText } from "@/lib/clipboard";
import { useConfig } from "@/lib/config";
import { addressUrl } from "@/lib/explorer";
import { TOKEN_DECIMALS, TOKEN_NAME, TOKEN_SYMBOL } from "@common/token";
import { saveTextFile } from "@/lib/download";
import { ABI_FILE_NAME, loadMinifiedAbi } from "../api/abi";

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1 rounded-md border border-border bg-muted/40 p-3">
      <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{label}</dt>
      <dd className="flex items-center gap-2 font-semibold">{children}</dd>
    </div>
  );
}

function AddressRow({ label, address }: { label: string; address: string }) {
  const config = useConfig();
  return (
    <div className="grid gap-1 py-3 sm:grid-cols-[11rem_1fr] sm:items-center sm:gap-4">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="flex min-w-0 flex-wrap items-center gap-1">
        <span className="break-all font-mono text-sm">{address}</span>
        <CopyButton value={address} />
        {config.explorerUrl && (
          <a
            href={addressUrl(config, address)}
            target="_blank"
            rel="noreferrer"
            className="inline-flex h-7 items-center rounded-md px-2 text-muted-foreground hover:bg-muted hover:text-foreground"
            aria-label={`View ${label} on the block explorer`}
          >
            <ExternalLink className="h-3.5 w-3.5" aria-hidden />
          </a>
        )}
      </dd>
    </div>
  );
}

/** The 'Contract ABI' strip: the minified ABI to the clipboard or to usdxAbi.json. */
function AbiStrip() {
  const [busy, setBusy] = useState<"copy" | "download" | null>(null);

  const withAbi = async (action: "copy" | "download", act: (abi: string) => Promise<void> | void) => {
    setBusy(action);
    try {
      await act(await loadMinifiedAbi());
    } catch {
      toast({
        title: "ABI unavailable",
        description: "The contract ABI could not be loaded. Reload the page and try again.",
        variant: "destructive",
      });
    } finally {
      setBusy(null);
    }
  };

  const copy = () =>
    withAbi("copy", async (abi) => {
      if (await copyText(abi)) toast({ title: "ABI Copied", description: "Minified ABI copied to clipboard" });
      else
        toast({
          title: "Copy failed",
          description: "Your browser did not allow copying to the clipboard. Use Download instead.",
          variant: "destructive",
        });
    });

  const download = () =>
    withAbi("download", (abi) => {
      saveTextFile(abi, ABI_FILE_NAME, "application/json");
      toast({ title: "ABI Downloaded", description: "Minified ABI file downloaded" });
    });

  return (
    <div className="flex flex-col gap-3 rounded-md border border-border bg-muted/40 p-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex items-center gap-3">
        <FileJson className="h-5 w-5 shrink-0 text-primary" aria-hidden />
        <div>
          <p className="text-sm font-semibold">Contract ABI</p>
          <p className="text-xs text-muted-foreground">USDX's interface as minified JSON ({ABI_FILE_NAME})</p>
        </div>
      </div>
      <div className="flex gap-2">
        <Button variant="outline" size="sm" aria-label="Copy ABI" disabled={busy !== null} onClick={() => void copy()}>
          <Copy className="h-4 w-4" aria-hidden />
          Copy
        </Button>
        <Button variant="outline" size="sm" aria-label="Download ABI" disabled={busy !== null} onClick={() => void download()}>
          <Download className="h-4 w-4" aria-hidden />
          Download
        </Button>
      </div>
    </div>
  );
}

/** PRODUCT.md section 2: Name, Symbol, Decimals (ERC20), the contract addresses and the ABI strip. */
export function TokenInfoCard() {
  const config = useConfig();
  const figures = useTokenFigures();
  // The fixed facts stand in until (or unless) the chain answers.
  const name = figures.data?.name ?? TOKEN_NAME;
  const symbol = figures.data?.symbol ?? TOKEN_SYMBOL;
  const decimals = figures.data?.decimals ?? TOKEN_DECIMALS;

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Coins className="h-5 w-5 text-primary" aria-hidden />
          Token Information
        </CardTitle>
        <CardDescription>
          {figures.isError
            ? "The chain could not be read: showing the token's fixed values."
            : "Read from the token contract on " + config.networkLabel + "."}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <dl className="grid gap-3 sm:grid-cols-3">
          <Fact label="Name">{name}</Fact>
          <Fact label="Symbol">{symbol}</Fact>
          <Fact label="Decimals">
            {decimals}
            <Badge variant="secondary">ERC20</Badge>
          </Fact>
        </dl>

        <dl className="divide-y divide-border border-y border-border">
          <AddressRow label="Token (proxy)" address={config.contracts.proxy} />
          <AddressRow label="Implementation" address={config.contracts.implementation} />
          <AddressRow label="Owner" address={config.contracts.owner} />
          <AddressRow label="BatchPayments" address={config.contracts.batchPayments} />
        </dl>

        <AbiStrip />
      </CardContent>
    </Card>
  );
}
