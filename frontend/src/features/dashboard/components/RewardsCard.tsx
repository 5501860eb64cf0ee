import { Sparkles } from "lucide-react";
import { count } from "@/lib/format";
import { useRewards } from "../api/rewards";
import { shownUsdx } from "../figures";
import { CardNote, DataCard } from "./DataCard";

/** A signed amount of USDX with two decimals: '+1.25', '-0.40', '0.00'. */
export function signedUsdx(baseUnits: string): string {
  const value = BigInt(baseUnits);
  if (value < 0n) return `-${shownUsdx(-value)}`;
  return value > 0n ? `+${shownUsdx(value)}` : shownUsdx(0n);
}

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="rounded-md border border-border p-3">
      <p className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{label}</p>
      <p className="text-xl font-semibold tracking-tight tabular-nums sm:text-2xl" data-testid={testId}>
        {signedUsdx(value)} <span className="text-sm font-medium text-muted-foreground">USDX</span>
      </p>
    </div>
  );
}

/**
 * Beyond the spec (PRODUCT.md section 2, Dashboard, 'Rewards earned'): how much of the connected
 * account's balance came from reward multiplier changes rather than transfers, over all time and
 * the last 30 days, replayed by the server from the event index.
 */
export function RewardsCard({ address }: { address: string }) {
  const query = useRewards(address);
  const data = query.data;
  const fell = data !== undefined && (data.allTime.startsWith("-") || data.last30Days.startsWith("-"));
  return (
    <DataCard
      title="Rewards earned"
      icon={<Sparkles />}
      onRefresh={() => void query.refetch()}
      refreshing={query.isFetching && !query.isLoading}
      loading={query.isLoading}
      error={query.error}
      updatedAt={query.dataUpdatedAt || null}
    >
      <div className="grid grid-cols-2 items-start gap-3 sm:gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_minmax(0,2fr)]">
        {data && (
          <>
            <Figure label="All time" value={data.allTime} testId="rewards-all-time" />
            <Figure label="Last 30 days" value={data.last30Days} testId="rewards-30-days" />
          </>
        )}
        <div className="col-span-2 space-y-2 lg:col-span-1 lg:col-start-3 lg:row-start-1">
          <CardNote>
            You hold shares, and your balance is your shares times the reward multiplier. Transfers, mints and burns change your shares;
            when the multiplier rises, every holder&apos;s balance grows with no transfer at all. That growth is what your balance earned.
          </CardNote>
          {data && (
            <CardNote>
              Of your {shownUsdx(BigInt(data.balance))} USDX, {signedUsdx(data.fromTransfers).replace(/^\+/, "")} came from transfers.
              {data.asOf && <> As of block {count(data.asOf.blockNumber)}; the 30 days end at its time.</>}
            </CardNote>
          )}
          {fell && (
            <CardNote className="text-destructive">The multiplier was lowered at some point: a fall counts as a negative reward.</CardNote>
          )}
        </div>
      </div>
    </DataCard>
  );
}
