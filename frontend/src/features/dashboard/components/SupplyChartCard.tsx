import { lazy, Suspense } from "react";
import { LineChart } from "lucide-react";
import { Spinner } from "@/components/ui/spinner";
import { useSupplyHistory } from "../api/queries";
import { CardNote, DataCard } from "./DataCard";

const SupplyChart = lazy(() => import("./SupplyChart"));

/** Beyond the spec: total supply and the reward multiplier over time, from the server's event index. */
export function SupplyChartCard() {
  const query = useSupplyHistory();
  const points = query.data?.points ?? [];
  return (
    <DataCard
      title="Supply & Reward Multiplier"
      icon={<LineChart />}
      onRefresh={() => void query.refetch()}
      refreshing={query.isFetching && !query.isLoading}
      loading={query.isLoading}
      error={query.error}
      updatedAt={query.dataUpdatedAt || null}
    >
      {query.data &&
        (points.length < 2 ? (
          <div className="py-8 text-center">
            <p className="text-sm font-medium">Not enough history yet</p>
            <CardNote className="mt-1">The chart appears once supply or the multiplier has changed at least twice.</CardNote>
          </div>
        ) : (
          <Suspense
            fallback={
              <div className="flex h-72 items-center justify-center">
                <Spinner label="Loading chart" />
              </div>
            }
          >
            <SupplyChart points={points} />
          </Suspense>
        ))}
    </DataCard>
  );
}
