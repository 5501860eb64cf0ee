import { useNavigate } from "react-router-dom";
import { ArrowUpRight, History, Wallet } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import type { AccountFigures } from "@/lib/chain/reads";
import { formatMultiplier } from "@/lib/format";
import { shownUsdx } from "../figures";
import { CardNote, DataCard } from "./DataCard";

interface BalanceCardProps {
  connected: boolean;
  figures: AccountFigures | undefined;
  loading: boolean;
  refreshing: boolean;
  error: unknown;
  onRefresh: () => void;
  /** The multiplier the balance is made of, once read. */
  rewardMultiplier: bigint | undefined;
  onTransfer: () => void;
}

/**
 * 'Your Balance' (PRODUCT.md section 2): the balance, and the shares it is made of (balance = shares x
 * multiplier), so a rebase is visible as the multiplier moving while the shares stay.
 */
export function BalanceCard({ connected, figures, loading, refreshing, error, onRefresh, rewardMultiplier, onTransfer }: BalanceCardProps) {
  const navigate = useNavigate();
  const balance = figures?.balance ?? 0n;
  const shares = figures?.shares ?? 0n;
  const known = !connected || figures !== undefined;
  return (
    <DataCard
      title="Your Balance"
      icon={<Wallet />}
      badge={figures?.blocked ? <Badge variant="destructive">Blocked</Badge> : undefined}
      onRefresh={connected ? onRefresh : undefined}
      refreshing={refreshing}
      loading={loading}
      error={error}
      updatedAt={figures?.readAt}
      footer={
        <div className="flex flex-wrap gap-2">
          <Button size="sm" onClick={onTransfer} disabled={!connected}>
            <ArrowUpRight className="h-4 w-4" aria-hidden />
            Transfer
          </Button>
          {/* Client navigation: a full page load would drop the wallet connection (auto-connect is off). */}
          <Button size="sm" variant="outline" onClick={() => navigate("/transactions")} disabled={!connected}>
            <History className="h-4 w-4" aria-hidden />
            History
          </Button>
        </div>
      }
    >
      {known && (
        <div className="space-y-1">
          <p className="text-3xl font-semibold tracking-tight tabular-nums" data-testid="balance">
            {shownUsdx(balance)} <span className="text-base font-medium text-muted-foreground">USDX</span>
          </p>
          <p className="text-sm text-muted-foreground tabular-nums" data-testid="shares">
            {shownUsdx(shares)} shares
            {rewardMultiplier !== undefined && <> × multiplier {formatMultiplier(rewardMultiplier)}</>}
          </p>
        </div>
      )}
      {!connected && <CardNote>Connect a wallet to see your balance.</CardNote>}
      {figures?.blocked && <CardNote className="text-destructive">This account is blocked: it cannot send USDX.</CardNote>}
    </DataCard>
  );
}
