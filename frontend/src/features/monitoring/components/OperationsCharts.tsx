import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { MonitoringPoint } from "../api/queries";

/**
 * The answering replica's last minutes: request rate, latency percentiles, indexer lag and RPC
 * errors, one small chart each. Loaded on its own (React.lazy), so recharts stays out of every
 * other page's download.
 */

const time = (ms: number) => new Date(ms).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" });

interface Series {
  key: keyof MonitoringPoint;
  name: string;
  colour: string;
}

function Chart({ title, unit, points, series }: { title: string; unit: string; points: MonitoringPoint[]; series: Series[] }) {
  return (
    <figure className="rounded-lg border border-border bg-card p-4">
      <figcaption className="mb-2 text-sm font-medium">{title}</figcaption>
      <div className="h-48 w-full" role="img" aria-label={`${title} over the last ${points.length} samples`}>
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={points} margin={{ top: 4, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--color-border)" vertical={false} />
            <XAxis
              dataKey="at"
              type="number"
              scale="time"
              domain={["dataMin", "dataMax"]}
              tickFormatter={time}
              tick={{ fontSize: 11 }}
              stroke="var(--color-muted-foreground)"
              minTickGap={32}
            />
            <YAxis tick={{ fontSize: 11 }} stroke="var(--color-muted-foreground)" width={44} allowDecimals />
            <Tooltip
              labelFormatter={(ms) => new Date(Number(ms)).toLocaleTimeString()}
              formatter={(value, name) => [
                value === null ? "none" : `${Number(value).toLocaleString(undefined, { maximumFractionDigits: 2 })} ${unit}`,
                name,
              ]}
              contentStyle={{ borderRadius: 8, borderColor: "var(--color-border)", fontSize: 13 }}
            />
            {series.length > 1 && <Legend wrapperStyle={{ fontSize: 12 }} />}
            {series.map((s) => (
              <Line
                key={s.key}
                dataKey={s.key}
                name={s.name}
                stroke={s.colour}
                strokeWidth={2}
                dot={false}
                isAnimationActive={false}
                connectNulls={false}
              />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

const PRIMARY = "var(--color-primary)";

export default function OperationsCharts({ points }: { points: MonitoringPoint[] }) {
  return (
    <div className="grid gap-3 lg:grid-cols-2">
      <Chart
        title="Requests per second"
        unit="req/s"
        points={points}
        series={[{ key: "requestsPerSecond", name: "Requests", colour: PRIMARY }]}
      />
      <Chart
        title="Request latency"
        unit="ms"
        points={points}
        series={[
          { key: "p50Ms", name: "p50", colour: "#22c55e" },
          { key: "p95Ms", name: "p95", colour: "#f59e0b" },
          { key: "p99Ms", name: "p99", colour: "#ef4444" },
        ]}
      />
      <Chart title="Indexer lag" unit="blocks" points={points} series={[{ key: "indexerLag", name: "Lag", colour: "#6366f1" }]} />
      <Chart
        title="RPC errors per second"
        unit="errors/s"
        points={points}
        series={[{ key: "rpcErrorsPerSecond", name: "RPC errors", colour: "#ef4444" }]}
      />
    </div>
  );
}
