import { useMemo } from "react";
import type { ChartData, ChartSeries, ChartSpec } from "@/components/charts/chartOptions";
import { TimeSeriesChart } from "@/components/charts/TimeSeriesChart";
import type { MonitoringPoint } from "../api/queries";

/**
 * The answering replica's last minutes: request rate, latency percentiles, indexer lag and RPC
 * errors, one small chart each. Loaded on its own (React.lazy), so the chart library stays out of
 * every other page's download.
 */

const time = (ms: number) => new Date(ms).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" });

type Figure = Exclude<keyof MonitoringPoint, "at">;

interface Line {
  key: Figure;
  name: string;
  colour: string;
}

/** One chart's spec: its lines against one y-axis from zero, read out in the unit. */
export function operationsChart(unit: string, lines: Line[]): ChartSpec {
  const readout = (value: number | null) =>
    value === null ? "none" : `${value.toLocaleString(undefined, { maximumFractionDigits: 2 })} ${unit}`;
  return {
    series: lines.map((line): ChartSeries => ({ label: line.name, colour: line.colour, scale: "y", readout })),
    axes: [{ scale: "y", side: "left", width: 44, fromZero: true, grid: true, ticks: (v) => v.toLocaleString() }],
    timeTick: time,
    timeReadout: (ms) => new Date(ms).toLocaleTimeString(),
    fontSize: 11,
    tickGap: 32,
  };
}

interface ChartProps {
  title: string;
  points: MonitoringPoint[];
  spec: ChartSpec;
  lines: Line[];
}

function Chart({ title, points, spec, lines }: ChartProps) {
  const data = useMemo((): ChartData => [points.map((p) => p.at), ...lines.map((line) => points.map((p) => p[line.key]))], [points, lines]);
  return (
    <figure className="rounded-lg border border-border bg-card p-4">
      <figcaption className="mb-2 text-sm font-medium">{title}</figcaption>
      <TimeSeriesChart
        spec={spec}
        data={data}
        legend={lines.length > 1}
        className="h-48 w-full"
        label={`${title} over the last ${points.length} samples`}
      />
    </figure>
  );
}

const PRIMARY = "var(--color-primary)";

interface ChartOfPage {
  title: string;
  unit: string;
  lines: Line[];
}

/** Each chart with its spec, made once: new samples then redraw a chart in place. */
const CHARTS = (
  [
    { title: "Requests per second", unit: "req/s", lines: [{ key: "requestsPerSecond", name: "Requests", colour: PRIMARY }] },
    {
      title: "Request latency",
      unit: "ms",
      lines: [
        { key: "p50Ms", name: "p50", colour: "#22c55e" },
        { key: "p95Ms", name: "p95", colour: "#f59e0b" },
        { key: "p99Ms", name: "p99", colour: "#ef4444" },
      ],
    },
    { title: "Indexer lag", unit: "blocks", lines: [{ key: "indexerLag", name: "Lag", colour: "#6366f1" }] },
    { title: "RPC errors per second", unit: "errors/s", lines: [{ key: "rpcErrorsPerSecond", name: "RPC errors", colour: "#ef4444" }] },
  ] satisfies ChartOfPage[]
).map((chart) => ({ ...chart, spec: operationsChart(chart.unit, chart.lines) }));

export default function OperationsCharts({ points }: { points: MonitoringPoint[] }) {
  return (
    <div className="grid gap-3 lg:grid-cols-2">
      {CHARTS.map((chart) => (
        <Chart key={chart.title} title={chart.title} points={points} spec={chart.spec} lines={chart.lines} />
      ))}
    </div>
  );
}
