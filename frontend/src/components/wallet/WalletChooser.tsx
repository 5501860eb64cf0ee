import { Code2, Wallet } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { useConfig } from "@/lib/config";
import { readSetting, STORAGE_KEYS } from "@/lib/storage";
import { shortAddress } from "@/lib/format";
import { connectWallet, type WalletChoice } from "@/lib/wallet/connect";
import { devWalletFor } from "@/lib/wallet/dev";
import { injectedWallets, useDiscoveredWallets } from "@/lib/wallet/discovery";
import { devAccounts, useWalletChooser } from "./chooser";

function Option({
  icon,
  name,
  detail,
  lastUsed,
  onClick,
}: {
  icon: React.ReactNode;
  name: string;
  detail?: string;
  lastUsed: boolean;
  onClick(): void;
}) {
  return (
    <li>
      <button
        type="button"
        onClick={onClick}
        className="flex w-full items-center gap-3 rounded-md border border-border px-3 py-2.5 text-left text-sm transition-colors hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring"
      >
        {icon}
        <span className="min-w-0 flex-1">
          <span className="block font-medium">{name}</span>
          {detail && <span className="block truncate text-xs text-muted-foreground">{detail}</span>}
        </span>
        {lastUsed && <Badge variant="secondary">Last used</Badge>}
      </button>
    </li>
  );
}

/** The chooser: every injected wallet (EIP-6963, else window.ethereum), and on the local chain the development wallet's accounts. */
export function WalletChooser() {
  const config = useConfig();
  const { open, setOpen } = useWalletChooser();
  const announced = useDiscoveredWallets((s) => s.announced);
  const injected = injectedWallets(announced);
  const accounts = devAccounts(config);
  const lastUsed = readSetting(STORAGE_KEYS.walletConnected);

  const choose = (choice: WalletChoice) => {
    setOpen(false);
    void connectWallet(choice, config);
  };

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogContent className="max-h-[90vh] max-w-md overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Connect a wallet</DialogTitle>
          <DialogDescription>Choose the wallet that holds your USDX on {config.networkLabel}.</DialogDescription>
        </DialogHeader>
        {injected.length > 0 && (
          <section aria-label="Browser wallets">
            <h3 className="mb-2 text-xs font-semibold uppercase tracking-wide text-muted-foreground">Browser wallets</h3>
            <ul className="grid gap-2">
              {injected.map((w) => (
                <Option
                  key={w.id}
                  icon={
                    w.icon ? (
                      <img src={w.icon} alt="" className="h-6 w-6" />
                    ) : (
                      <Wallet className="h-6 w-6 text-muted-foreground" aria-hidden />
                    )
                  }
                  name={w.name}
                  lastUsed={lastUsed === w.id}
                  onClick={() => choose({ id: w.id, name: w.name, provider: w.provider })}
                />
              ))}
            </ul>
          </section>
        )}
        {accounts.length > 0 && (
          <section aria-label="Development wallet">
            <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-muted-foreground">
              Development wallet (local chain only)
            </h3>
            <p className="mb-2 text-xs text-muted-foreground">
              Act as a seeded account. The local Hardhat node signs for it; nothing here works on Sepolia.
            </p>
            <ul className="grid gap-2">
              {accounts.map((a) => (
                <Option
                  key={a.address}
                  icon={<Code2 className="h-6 w-6 text-primary" aria-hidden />}
                  name={`${a.name} · ${shortAddress(a.address)}`}
                  detail={a.description}
                  lastUsed={lastUsed === `dev:${a.address}`}
                  onClick={() => {
                    const provider = devWalletFor(config, a.address);
                    if (provider) choose({ id: `dev:${a.address}`, name: `Development wallet (${a.name})`, provider });
                  }}
                />
              ))}
            </ul>
          </section>
        )}
      </DialogContent>
    </Dialog>
  );
}
