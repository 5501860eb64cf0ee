import type { ReactElement } from "react";
import { AlertTriangle, Copy, LogOut, Repeat } from "lucide-react";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { toast } from "@/components/ui/toast";
import { useConfig } from "@/lib/config";
import { copyText } from "@/lib/clipboard";
import { shortAddress } from "@/lib/format";
import { disconnectWallet, ensureChain } from "@/lib/wallet/connect";
import { isDevWallet } from "@/lib/wallet/dev";
import { useWallet } from "@/lib/wallet/store";
import { devAccounts } from "./chooser";

/** The connected wallet's menu itself (loaded on first use, see WalletMenu). */
export default function WalletMenuContent({ trigger, address }: { trigger: ReactElement; address: string }) {
  const config = useConfig();
  const { chainId, provider, walletName } = useWallet();
  const wrongChain = chainId !== config.chainId;
  const dev = isDevWallet(provider) ? provider : null;
  const others = dev ? devAccounts(config).filter((a) => a.address.toLowerCase() !== address.toLowerCase()) : [];
  return (
    <DropdownMenu defaultOpen>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-72">
        <DropdownMenuLabel>{walletName ?? "Wallet"}</DropdownMenuLabel>
        <div className="break-all px-2 pb-2 font-mono text-xs">{address}</div>
        <DropdownMenuItem onSelect={() => void copyText(address).then((ok) => ok && toast({ title: "Address copied" }))}>
          <Copy className="h-4 w-4" aria-hidden /> Copy address
        </DropdownMenuItem>
        {wrongChain && provider && (
          <DropdownMenuItem onSelect={() => void ensureChain(provider, config).catch(() => undefined)}>
            <AlertTriangle className="h-4 w-4 text-destructive" aria-hidden /> Switch to {config.networkLabel}
          </DropdownMenuItem>
        )}
        {dev && others.length > 0 && (
          <>
            <DropdownMenuSeparator />
            <DropdownMenuLabel>Act as another seeded account</DropdownMenuLabel>
            {others.map((a) => (
              <DropdownMenuItem key={a.address} onSelect={() => dev.setAccount(a.address)}>
                <Repeat className="h-4 w-4" aria-hidden />
                <span className="flex-1">{a.name}</span>
                <span className="font-mono text-xs text-muted-foreground">{shortAddress(a.address)}</span>
              </DropdownMenuItem>
            ))}
          </>
        )}
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={disconnectWallet}>
          <LogOut className="h-4 w-4" aria-hidden /> Disconnect Wallet
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
