import { Coins } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import type { TokenFigures } from "@/lib/chain/reads";
import { formatTokenAmount } from "@common/amounts";
import { groupDigits } from "../figures";
import { CardNote, DataCard } from "./DataCard";

interface TotalSupplyCardProps {
  figures: TokenFigures | undefined;
  loading: boolean;
  refreshing: boolean;
  error: unknown;
  /** False when there is neither a wallet nor an RPC URL to read the chain through. */
  readable: boolean;
  onRefresh: () => void;
}

/** PRODUCT.md section 2: total supply (divided by 10^decimals, two decimals), Total Shares, refresh, last updated. */
export function TotalSupplyCard({ figures, loading, refreshing, error, readable, onRefresh }: TotalSupplyCardProps) {
  const shown = (value: bigint) => groupDigits(formatTokenAmount(value, 2, figures?.decimals));
  return (
    <DataCard
      title="Total Supply"
      icon={<Coins />}
      badge={figures?.paused ? <Badge variant="destructive">Paused</Badge> : undefined}
      onRefresh={readable ? onRefresh : undefined}
      refreshing={refreshing}
      loading={loading}
      error={error}
      updatedAt={figures?.readAt}
    >
      {figures && (
        <div className="space-y-1">
          <p className="text-3xl font-semibold tracking-tight tabular-nums" data-testid="total-supply">
            {shown(figures.totalSupply)} <span className="text-base font-medium text-muted-foreground">{figures.symbol}</span>
          </p>
          <p className="text-sm text-muted-foreground tabular-nums">
            Total Shares: <span data-testid="total-shares">{shown(figures.totalShares)}</span>
          </p>
        </div>
      )}
      {figures?.paused && <CardNote className="text-destructive">The token is paused: transfers, mints and burns are stopped.</CardNote>}
      {!readable && <CardNote>Connect a wallet to read the token's figures.</CardNote>}
    </DataCard>
  );
}
