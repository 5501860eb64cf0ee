import { lazy } from "react";
import { AlertTriangle, ChevronDown, Wallet } from "lucide-react";
import { DeferredMenu } from "@/components/DeferredMenu";
import { Button } from "@/components/ui/button";
import { useConfig } from "@/lib/config";
import { shortAddress } from "@/lib/format";
import { useWallet } from "@/lib/wallet/store";
import { ConnectWalletButton } from "./ConnectWalletButton";

const WalletMenuContent = lazy(() => import("./WalletMenuContent"));

/** The header's wallet control (PRODUCT.md section 2): 'Connect Wallet', or the short address with its menu. */
export function WalletMenu() {
  const config = useConfig();
  const { status, address, chainId } = useWallet();
  if (status !== "connected" || !address) return <ConnectWalletButton size="sm" variant="outline" />;
  const wrongChain = chainId !== config.chainId;
  const trigger = (
    <Button size="sm" variant={wrongChain ? "destructive" : "outline"} className="font-mono" aria-label={`Wallet ${address}`}>
      {wrongChain ? <AlertTriangle className="h-4 w-4" aria-hidden /> : <Wallet className="hidden h-4 w-4 sm:block" aria-hidden />}
      {shortAddress(address)}
      <ChevronDown className="h-3.5 w-3.5 opacity-60" aria-hidden />
    </Button>
  );
  return <DeferredMenu trigger={trigger} menu={(t) => <WalletMenuContent trigger={t} address={address} />} />;
}
