import { NetworkCard } from "../components/NetworkCard";
import { TokenInfoCard } from "../components/TokenInfoCard";
import { WalletConnectionCard } from "../components/WalletConnectionCard";

/** Settings (/settings): network and RPC, the wallet connection, and the token's facts and ABI. */
export default function SettingsPage() {
  return (
    <div className="mx-auto grid max-w-5xl grid-cols-1 gap-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Settings</h1>
        <p className="mt-1 text-sm text-muted-foreground">Network, wallet and token details for this dashboard.</p>
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <NetworkCard />
        <WalletConnectionCard />
      </div>
      <TokenInfoCard />
    </div>
  );
}
