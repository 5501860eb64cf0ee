import { lazy, Suspense, useEffect, useState } from "react";
import { LineChart } from "lucide-react";
import { Spinner } from "@/components/ui/spinner";
import { useSupplyHistory } from "../api/queries";
import { CardNote, DataCard } from "./DataCard";

const SupplyChart = lazy(() => import("./SupplyChart"));

/**
 * Whether the element is on screen, or close to it (within a screen's height) once the page has
 * been scrolled. The chart (its own chunk, with the chart library) waits for this: below the fold
 * it would be downloaded and drawn while the figures above are still loading, in long tasks that
 * hold off a tap, for a page whose visitor may never scroll to it. Someone who scrolls starts it a
 * screen ahead, as before. Without IntersectionObserver: at once.
 */
function useNearViewport<T extends Element>() {
  // A callback ref held in state: the area mounts only once the figures have arrived, after the
  // first render, and the observer must start then (a plain ref would leave it never started).
  const [element, setElement] = useState<T | null>(null);
  const [near, setNear] = useState(() => typeof IntersectionObserver === "undefined");
  // No window when the page is drawn at build time (src/prerender.tsx).
  const [scrolled, setScrolled] = useState(() => typeof window !== "undefined" && window.scrollY > 0);
  useEffect(() => {
    if (near || scrolled) return;
    // Capturing: a scroll inside an element (which does not bubble) counts too.
    const onScroll = () => setScrolled(true);
    window.addEventListener("scroll", onScroll, { capture: true, passive: true });
    return () => window.removeEventListener("scroll", onScroll, { capture: true });
  }, [near, scrolled]);
  useEffect(() => {
    if (near || !element) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), {
      rootMargin: scrolled ? "100% 0px" : "0px",
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [near, element, scrolled]);
  return [setElement, near] as const;
}

const chartPlaceholder = (
  <div className="flex h-72 items-center justify-center">
    <Spinner label="Loading chart" />
  </div>
);

/** Beyond the spec: total supply and the reward multiplier over time, from the server's event index. */
export function SupplyChartCard() {
  const query = useSupplyHistory();
  const [chartArea, nearViewport] = useNearViewport<HTMLDivElement>();
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
          <div ref={chartArea}>
            {nearViewport ? (
              <Suspense fallback={chartPlaceholder}>
                <SupplyChart points={points} />
              </Suspense>
            ) : (
              chartPlaceholder
            )}
          </div>
        ))}
    </DataCard>
  );
}
