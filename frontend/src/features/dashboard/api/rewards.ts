import { useQuery } from "@tanstack/react-query";
import { type Answer, api, endpointUrl } from "@/lib/api";

export type { Rewards } from "@common/apiTypes";

type RewardsAnswer = Answer<"GET /api/rewards/:address">;

export const rewardsKey = (address: string) => [endpointUrl("GET /api/rewards/:address", { params: { address } })] as const;

const SIGNED_WHOLE = /^-?\d+$/;

/** An answer whose figures are whole numbers of base units: anything else is said, not drawn (a proxy's page, a stale server). */
function checked(answer: RewardsAnswer): RewardsAnswer {
  const figures = [answer?.balance, answer?.allTime, answer?.last30Days, answer?.fromTransfers];
  if (!figures.every((f) => typeof f === "string" && SIGNED_WHOLE.test(f)))
    throw new Error("The server's rewards answer was not understood.");
  return answer;
}

/** What the connected account's balance earned from the reward multiplier (GET /api/rewards/:address, from the server's index). */
export function useRewards(address: string | null) {
  return useQuery<RewardsAnswer>({
    queryKey: rewardsKey(address ?? ""),
    queryFn: async ({ queryKey }) => checked(await api<RewardsAnswer>(String(queryKey[0]))),
    enabled: address !== null,
  });
}
