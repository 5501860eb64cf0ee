import { useMemo } from "react";
import type { ChartSpec } from "@/components/charts/chartOptions";
import { TimeSeriesChart } from "@/components/charts/TimeSeriesChart";
import type { SupplyPoint } from "../api/queries";
import { chartNumber, multiplierAxisRange } from "../figures";

/**
 * Total supply and the reward multiplier over time, on two y-axes. Loaded on its own (React.lazy)
 * so the chart library is a separate chunk. Numbers here are for drawing only; figures people act
 * on are the cards' exact ones.
 */

// Chart colours: the theme's primary for supply, a contrasting indigo for the multiplier.
const SUPPLY_COLOUR = "var(--color-primary)";
const MULTIPLIER_COLOUR = "#6366f1";

const supplyFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2, minimumFractionDigits: 2 });
const compactFormat = new Intl.NumberFormat(undefined, { notation: "compact", maximumFractionDigits: 2 });
const multiplierFormat = new Intl.NumberFormat(undefined, { minimumFractionDigits: 4, maximumFractionDigits: 4 });

/** Under two days, times of day read better than dates; under an hour (a fresh local chain), with seconds. */
export function supplyTimeTick(ms: number, spanMs: number): string {
  return spanMs < 2 * 86_400_000
    ? new Date(ms).toLocaleTimeString(undefined, {
        hour: "2-digit",
        minute: "2-digit",
        second: spanMs < 3_600_000 ? "2-digit" : undefined,
      })
    : new Date(ms).toLocaleDateString(undefined, { month: "short", day: "numeric" });
}

export const supplyChart: ChartSpec = {
  series: [
    {
      label: "Total Supply",
      colour: SUPPLY_COLOUR,
      scale: "supply",
      stepped: true,
      gradient: true,
      readout: (value) => (value === null ? "none" : `${supplyFormat.format(value)} USDX`),
    },
    {
      label: "Reward Multiplier",
      colour: MULTIPLIER_COLOUR,
      scale: "multiplier",
      stepped: true,
      readout: (value) => (value === null ? "none" : `${multiplierFormat.format(value)}x`),
    },
  ],
  axes: [
    { scale: "supply", side: "left", width: 56, fromZero: true, grid: true, ticks: (v) => compactFormat.format(v) },
    { scale: "multiplier", side: "right", width: 52, range: multiplierAxisRange, ticks: (v) => `${v.toFixed(3)}x` },
  ],
  timeTick: supplyTimeTick,
  timeReadout: (ms) => new Date(ms).toLocaleString(),
  fontSize: 12,
  tickGap: 24,
};

/** The chart's data: times in ms, then supply and the multiplier, as numbers for drawing. */
export function supplyChartData(points: SupplyPoint[]): [number[], number[], number[]] {
  return [
    points.map((p) => p.timestamp * 1000),
    points.map((p) => chartNumber(p.totalSupply)),
    points.map((p) => chartNumber(p.rewardMultiplier)),
  ];
}

export default function SupplyChart({ points }: { points: SupplyPoint[] }) {
  const data = useMemo(() => supplyChartData(points), [points]);
  return (
    <TimeSeriesChart
      spec={supplyChart}
      data={data}
      className="h-72 w-full"
      label={`Chart of total supply and reward multiplier over ${points.length} points in time`}
    />
  );
}
