import { ArrowUpRight, RefreshCw } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { networkBadgeLabel, useConfig } from "@/lib/config";
import { shortAddress } from "@/lib/format";
import { cn } from "@/lib/utils";

/** PRODUCT.md section 2's Quick Actions: the network, 'Transfer' and 'Refresh Data'. */
export function QuickActions({
  address,
  onTransfer,
  onRefresh,
  refreshing,
}: {
  address: string;
  onTransfer(): void;
  onRefresh(): void;
  refreshing: boolean;
}) {
  const config = useConfig();
  const network = networkBadgeLabel(config);
  return (
    <Card>
      <CardHeader className="flex-col gap-4 space-y-0 sm:flex-row sm:items-center sm:justify-between">
        <div className="space-y-1.5">
          <div className="flex flex-wrap items-center gap-2">
            <CardTitle className="text-base">Quick Actions</CardTitle>
            <Badge variant="outline" className="gap-1.5" aria-label={`Network ${network}`}>
              <span className="h-2 w-2 rounded-full bg-success" aria-hidden />
              {network}
            </Badge>
          </div>
          <CardDescription>
            Connected as{" "}
            <span className="font-mono" title={address}>
              {shortAddress(address)}
            </span>
          </CardDescription>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button onClick={onTransfer}>
            <ArrowUpRight className="h-4 w-4" aria-hidden />
            Transfer
          </Button>
          <Button variant="outline" onClick={onRefresh} disabled={refreshing}>
            <RefreshCw className={cn("h-4 w-4", refreshing && "animate-spin")} aria-hidden />
            Refresh Data
          </Button>
        </div>
      </CardHeader>
    </Card>
  );
}
