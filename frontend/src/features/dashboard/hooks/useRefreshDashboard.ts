import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { toast } from "@/components/ui/toast";
import { chainKeys } from "@/lib/chain/queries";
import { recentHistoryKey, supplyHistoryKey } from "../api/queries";
import { errorMessage } from "../figures";

/** Quick Actions' 'Refresh Data': every chain read and the Dashboard's server reads, then one toast. */
export function useRefreshDashboard(address: string | null) {
  const queryClient = useQueryClient();
  const [refreshing, setRefreshing] = useState(false);

  const refresh = async () => {
    setRefreshing(true);
    try {
      const options = { throwOnError: true };
      await Promise.all([
        queryClient.refetchQueries({ queryKey: chainKeys.all }, options),
        queryClient.refetchQueries({ queryKey: supplyHistoryKey }, options),
        address ? queryClient.refetchQueries({ queryKey: recentHistoryKey(address) }, options) : null,
      ]);
      toast({ title: "Data refreshed" });
    } catch (error) {
      toast({ title: "Refresh failed", description: errorMessage(error) ?? undefined, variant: "destructive" });
    } finally {
      setRefreshing(false);
    }
  };

  return { refresh, refreshing };
}
