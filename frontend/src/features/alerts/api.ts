import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call } from "@/lib/api";
import type { AlertDelivery, AlertRule } from "@common/apiTypes";
import type { AlertKind } from "@common/alerts";

export type { AlertAttempt, AlertDelivery, AlertRule } from "@common/apiTypes";

/** Every alerts query starts with this key: one invalidation reloads the rules and the log. */
export const alertsKey = ["/api/alerts"] as const;
const rulesKey = [...alertsKey, "rules"] as const;
const deliveriesKey = [...alertsKey, "deliveries"] as const;

/** Deliveries per page of the log. */
export const DELIVERIES_PAGE_SIZE = 20;
/** The log refreshes this often, so retries and their answers appear as they happen. */
export const LOG_REFRESH_MS = 5000;

export function useAlertRules() {
  return useQuery({ queryKey: rulesKey, queryFn: async () => (await call("GET /api/alerts/rules")).rules });
}

/** The delivery log, newest first, a page at a time (each page after the last delivery id of the one before). */
export function useDeliveries() {
  return useInfiniteQuery({
    queryKey: deliveriesKey,
    queryFn: async ({ pageParam }) =>
      (await call("GET /api/alerts/deliveries", { query: { limit: DELIVERIES_PAGE_SIZE, before: pageParam } })).deliveries,
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last: AlertDelivery[]) => (last.length === DELIVERIES_PAGE_SIZE ? last[last.length - 1].id : undefined),
    refetchInterval: LOG_REFRESH_MS,
  });
}

function useInvalidateAlerts() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: alertsKey });
}

export interface NewRule {
  kind: AlertKind;
  threshold: string;
  /** multiplier: a percentage of every balance. */
  stepPercent?: string;
  webhookUrl: string;
}

/** Answers the rule and its secret, shown this once. */
export function useAddRule() {
  const invalidate = useInvalidateAlerts();
  return useMutation({
    mutationFn: async (rule: NewRule) => {
      const answer = await call("POST /api/alerts/rules", {
        body: {
          kind: rule.kind,
          webhookUrl: rule.webhookUrl.trim(),
          threshold: rule.threshold.trim() || null,
          ...(rule.stepPercent?.trim() ? { stepPercent: rule.stepPercent.trim() } : {}),
        },
      });
      return { rule: answer.rule, secret: answer.secret };
    },
    onSuccess: invalidate,
  });
}

export function useSetEnabled() {
  const invalidate = useInvalidateAlerts();
  return useMutation({
    mutationFn: async ({ id, enabled }: { id: number; enabled: boolean }) =>
      (await call("PATCH /api/alerts/rules/:id", { params: { id }, body: { enabled } })).rule,
    onSettled: invalidate,
  });
}

export function useDeleteRule() {
  const invalidate = useInvalidateAlerts();
  return useMutation({
    mutationFn: (id: number) => call("DELETE /api/alerts/rules/:id", { params: { id } }),
    onSettled: invalidate,
  });
}

export function useRotateSecret() {
  const invalidate = useInvalidateAlerts();
  return useMutation({
    mutationFn: async (id: number): Promise<{ rule: AlertRule; secret: string }> => {
      const answer = await call("POST /api/alerts/rules/:id/rotate-secret", { params: { id } });
      return { rule: answer.rule, secret: answer.secret };
    },
    onSettled: invalidate,
  });
}

/** 'Send test': the attempt's delivery, which the log shows too. */
export function useSendTest() {
  const invalidate = useInvalidateAlerts();
  return useMutation({
    mutationFn: async (id: number) => (await call("POST /api/alerts/rules/:id/test", { params: { id } })).delivery,
    onSettled: invalidate,
  });
}

/** A failed call's sentence, without the status the API client puts in front. */
export function problemText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^\d{3}: /, "") || "Unknown error";
}
