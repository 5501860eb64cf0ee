/**
 * Known provider plans and the request rate each allows (RPC_PLAN), in requests a second, for the
 * request budget every loop shares (./rpcBudget.ts). Providers meter in weighted units a second
 * (Alchemy's compute units, Infura's credits), so each rate here is the plan's units a second over
 * what eth_getLogs costs, the costliest method the server sends and the one a catch-up sends most:
 * safe whatever the mix. RPC_REQUESTS_PER_SECOND overrides the plan's rate.
 * Figures as published when this was written (November 2026): check the plan's page before relying on one.
 */
export const RPC_PLANS = {
  /** No limit: the local node, or a node of one's own. */
  unlimited: null,
  // Alchemy Free: 500 CU/s (alchemy.com/docs/reference/throughput: "a Free tier customer with a 500
  // CU/s limit", a token bucket over a 10-second window); eth_getLogs costs 60 CU
  // (alchemy.com/docs/reference/compute-unit-costs): 500 / 60 = 8.3.
  "alchemy-free": 8,
  // Alchemy Pay As You Go: 10,000 CU/s base throughput (alchemy.com/docs/reference/pricing-plans); 10,000 / 60 = 166.
  "alchemy-payg": 160,
  // Infura Free: 500 credits a second (docs.metamask.io/services/get-started/pricing); eth_getLogs
  // costs 255 credits (docs.metamask.io/services/get-started/pricing/credit-cost): 500 / 255 = 1.96.
  // Its 10,000-block log ranges make 2 a second fast enough to catch up.
  "infura-free": 2,
  // QuickNode Free: 15 requests a second (quicknode.com/pricing as summarised by a third party,
  // api-evangelist/quicknode rate-limits; QuickNode's own pricing page was not at hand). QuickNode
  // counts each call of a batch (support.quicknode.com, "credits limited to X/sec").
  "quicknode-free": 15,
  // Chainstack Developer (its free plan): 25 requests a second (docs.chainstack.com/docs/rps-plan-limits).
  "chainstack-developer": 25,
} as const satisfies Record<string, number | null>;

export type RpcPlan = keyof typeof RPC_PLANS;
export const RPC_PLAN_NAMES = Object.keys(RPC_PLANS) as [RpcPlan, ...RpcPlan[]];

/** The budget in force: an explicit rate wins over the plan's; null: no limit. */
export function requestsPerSecondOf(plan: RpcPlan, explicit: number | undefined): { plan: string; requestsPerSecond: number | null } {
  if (explicit !== undefined) return { plan: "custom", requestsPerSecond: explicit };
  return { plan, requestsPerSecond: RPC_PLANS[plan] };
}
