import { Wallet } from "lucide-react";
import { Button, type ButtonProps } from "@/components/ui/button";
import { useConfig } from "@/lib/config";
import { useWallet } from "@/lib/wallet/store";
import { openWalletChooser } from "./chooser";

/** Opens the wallet chooser (injected wallets, and the development wallet on the local chain). */
export function ConnectWalletButton(props: ButtonProps & { label?: string }) {
  const { label = "Connect Wallet", ...rest } = props;
  const config = useConfig();
  const connecting = useWallet((s) => s.status === "connecting");
  return (
    <Button {...rest} disabled={connecting || rest.disabled} onClick={() => openWalletChooser(config)}>
      <Wallet className="h-4 w-4" aria-hidden />
      {connecting ? "Connecting..." : label}
    </Button>
  );
}
