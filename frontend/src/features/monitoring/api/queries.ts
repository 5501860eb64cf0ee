import { useQuery } from "@tanstack/react-query";
import type { Answer } from "@/lib/api";

export type { MonitoringAnswer, MonitoringPoint, PartHealth, RpcBudgetStatus } from "@common/apiTypes";

/** How often the open page asks again: the server samples its figures every 5 s. */
export const MONITORING_POLL_MS = 5000;

export const monitoringKey = ["/api/monitoring"] as const;

/** GET /api/monitoring, again every MONITORING_POLL_MS while the page is open (also in a background tab: an operator leaves it open). */
export function useMonitoring() {
  return useQuery<Answer<"GET /api/monitoring">>({
    queryKey: monitoringKey,
    refetchInterval: MONITORING_POLL_MS,
    refetchIntervalInBackground: true,
    staleTime: 0,
  });
}
