import { lazy, useState, type ReactNode } from "react";
import { OnceOpened } from "@/components/OnceOpened";
import { useAccountFigures, useMyRoles, useTokenFigures } from "@/lib/chain/queries";
import { ProposeVia, useSafeFor } from "@/lib/safes";
import { useWallet } from "@/lib/wallet/store";
import { BalanceCard } from "../components/BalanceCard";
import { ConnectWalletCard } from "../components/ConnectWalletCard";
import { ContractInformation } from "../components/ContractInformation";
import { QuickActions } from "../components/QuickActions";
import { RecentTransactions } from "../components/RecentTransactions";
import { RewardMultiplierCard } from "../components/RewardMultiplierCard";
import { RewardsCard } from "../components/RewardsCard";
import { SupplyChartCard } from "../components/SupplyChartCard";
import { TotalSupplyCard } from "../components/TotalSupplyCard";
import { useContractLoadFailure } from "../hooks/useContractLoadFailure";
import { useRefreshDashboard } from "../hooks/useRefreshDashboard";

// The two forms (and the transaction runner, validation and Radix's dialog under them) load when
// first opened, not with the page.
const TransferDialog = lazy(() => import("../components/TransferDialog").then((m) => ({ default: m.TransferDialog })));
const MultiplierDialog = lazy(() => import("../components/MultiplierDialog").then((m) => ({ default: m.MultiplierDialog })));

/**
 * The Dashboard (route /, PRODUCT.md section 2). Without a wallet it asks for one and still shows the
 * token's public figures when the chain is readable; with one it adds Quick Actions, the account's
 * balance, the Admin Functions panel (composed in by the app) and the recent history.
 */
export default function DashboardPage({ adminFunctions }: { adminFunctions?: ReactNode }) {
  const address = useWallet((s) => (s.status === "connected" ? s.address : null));
  const connected = address !== null;
  const token = useTokenFigures();
  const account = useAccountFigures(address);
  const roles = useMyRoles();
  const { refresh, refreshing } = useRefreshDashboard(address);
  const [transferOpen, setTransferOpen] = useState(false);
  const [multiplierOpen, setMultiplierOpen] = useState(false);

  const firstLoadFailed = (token.isError && token.data === undefined) || (account.isError && account.data === undefined);
  useContractLoadFailure(address, firstLoadFailed, token.error ?? account.error);

  // A disabled query (no wallet and no RPC URL to read through) is pending but not fetching.
  const tokenReadable = !(token.isPending && token.fetchStatus === "idle");
  const tokenRefreshing = token.isFetching && !token.isLoading;
  const oracle = !connected ? false : roles.flags ? roles.flags.ORACLE_ROLE : roles.loading ? null : false;
  // A wallet without ORACLE_ROLE that owns a Safe holding it proposes its multiplier changes there
  // (undefined while the Safes are read: the card waits, as it does for the roles).
  const oracleSafeLookup = useSafeFor("ORACLE_ROLE", connected && roles.flags !== undefined && oracle === false);
  const oracleSafe = oracleSafeLookup ?? null;

  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-bold tracking-tight">Dashboard</h1>
        <p className="text-sm text-muted-foreground">USDX balances, supply and the reward multiplier at a glance.</p>
      </div>

      {connected ? (
        <QuickActions address={address} onTransfer={() => setTransferOpen(true)} onRefresh={() => void refresh()} refreshing={refreshing} />
      ) : (
        <ConnectWalletCard />
      )}

      <section aria-label="Summary" className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        <BalanceCard
          connected={connected}
          figures={account.data}
          loading={account.isLoading}
          refreshing={account.isFetching && !account.isLoading}
          error={account.error}
          onRefresh={() => void account.refetch()}
          rewardMultiplier={token.data?.rewardMultiplier}
          onTransfer={() => setTransferOpen(true)}
        />
        <TotalSupplyCard
          figures={token.data}
          loading={token.isLoading}
          refreshing={tokenRefreshing}
          error={token.error}
          readable={tokenReadable}
          onRefresh={() => void token.refetch()}
        />
        <ProposeVia.Provider value={oracleSafe}>
          <RewardMultiplierCard
            rewardMultiplier={token.data?.rewardMultiplier}
            readAt={token.data?.readAt}
            loading={token.isLoading}
            refreshing={tokenRefreshing}
            error={token.error}
            readable={tokenReadable}
            onRefresh={() => void token.refetch()}
            connected={connected}
            oracle={oracleSafeLookup === undefined ? null : oracle}
            onAdvanced={() => setMultiplierOpen(true)}
          />
        </ProposeVia.Provider>
      </section>

      {connected && <RewardsCard address={address} />}

      {connected && adminFunctions}

      {/* Five columns need the full width; the chart and the addresses share the row below. */}
      <RecentTransactions address={address} />

      <div className="grid gap-6 lg:grid-cols-3">
        <div className="min-w-0 lg:col-span-2">
          <SupplyChartCard />
        </div>
        <ContractInformation symbol={token.data?.symbol} />
      </div>

      <OnceOpened open={transferOpen}>
        <TransferDialog
          open={transferOpen}
          onOpenChange={setTransferOpen}
          address={address}
          balance={account.data?.balance}
          balanceLoading={account.isLoading}
        />
      </OnceOpened>
      <OnceOpened open={multiplierOpen}>
        <ProposeVia.Provider value={oracleSafe}>
          <MultiplierDialog
            open={multiplierOpen}
            onOpenChange={setMultiplierOpen}
            connected={connected}
            current={token.data?.rewardMultiplier}
          />
        </ProposeVia.Provider>
      </OnceOpened>
    </div>
  );
}
