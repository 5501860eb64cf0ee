import { Area, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { SupplyPoint } from "../api/queries";
import { chartNumber, multiplierAxisDomain } from "../figures";

/**
 * Total supply and the reward multiplier over time, on two y-axes. Loaded on its own (React.lazy)
 * so recharts is a separate chunk. Numbers here are for drawing only; figures people act on are
 * the cards' exact ones.
 */

// Chart colours: the theme's primary for supply, a contrasting indigo for the multiplier.
const SUPPLY_COLOUR = "var(--color-primary)";
const MULTIPLIER_COLOUR = "#6366f1";

const supplyFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2, minimumFractionDigits: 2 });
const compactFormat = new Intl.NumberFormat(undefined, { notation: "compact", maximumFractionDigits: 2 });
const multiplierFormat = new Intl.NumberFormat(undefined, { minimumFractionDigits: 4, maximumFractionDigits: 4 });

export default function SupplyChart({ points }: { points: SupplyPoint[] }) {
  const data = points.map((p) => ({
    time: p.timestamp * 1000,
    supply: chartNumber(p.totalSupply),
    multiplier: chartNumber(p.rewardMultiplier),
  }));
  const spanMs = data.length > 1 ? data[data.length - 1].time - data[0].time : 0;
  // Under two days, times of day read better than dates; under an hour (a fresh local chain), with seconds.
  const tick = (ms: number) =>
    spanMs < 2 * 86_400_000
      ? new Date(ms).toLocaleTimeString(undefined, {
          hour: "2-digit",
          minute: "2-digit",
          second: spanMs < 3_600_000 ? "2-digit" : undefined,
        })
      : new Date(ms).toLocaleDateString(undefined, { month: "short", day: "numeric" });

  return (
    <div className="h-72 w-full" role="img" aria-label={`Chart of total supply and reward multiplier over ${points.length} points in time`}>
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={data} margin={{ top: 8, right: 4, bottom: 0, left: 4 }}>
          <defs>
            <linearGradient id="supply-fill" x1="0" y1="0" x2="0" y2="1">
              <stop offset="0%" stopColor={SUPPLY_COLOUR} stopOpacity={0.25} />
              <stop offset="100%" stopColor={SUPPLY_COLOUR} stopOpacity={0} />
            </linearGradient>
          </defs>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--color-border)" vertical={false} />
          <XAxis
            dataKey="time"
            type="number"
            scale="time"
            domain={["dataMin", "dataMax"]}
            tickFormatter={tick}
            tick={{ fontSize: 12 }}
            stroke="var(--color-muted-foreground)"
            minTickGap={24}
          />
          <YAxis
            yAxisId="supply"
            tickFormatter={(v: number) => compactFormat.format(v)}
            tick={{ fontSize: 12 }}
            stroke="var(--color-muted-foreground)"
            width={56}
          />
          <YAxis
            yAxisId="multiplier"
            orientation="right"
            domain={multiplierAxisDomain(data.map((d) => d.multiplier))}
            tickFormatter={(v: number) => `${v.toFixed(3)}x`}
            tick={{ fontSize: 12 }}
            stroke="var(--color-muted-foreground)"
            width={52}
          />
          <Tooltip
            labelFormatter={(ms) => new Date(Number(ms)).toLocaleString()}
            formatter={(value, name) =>
              name === "Reward Multiplier"
                ? [`${multiplierFormat.format(Number(value))}x`, name]
                : [`${supplyFormat.format(Number(value))} USDX`, name]
            }
            contentStyle={{ borderRadius: 8, borderColor: "var(--color-border)", fontSize: 13 }}
          />
          <Legend wrapperStyle={{ fontSize: 13 }} />
          <Area
            yAxisId="supply"
            type="stepAfter"
            dataKey="supply"
            name="Total Supply"
            stroke={SUPPLY_COLOUR}
            strokeWidth={2}
            fill="url(#supply-fill)"
            isAnimationActive={false}
          />
          <Line
            yAxisId="multiplier"
            type="stepAfter"
            dataKey="multiplier"
            name="Reward Multiplier"
            stroke={MULTIPLIER_COLOUR}
            strokeWidth={2}
            dot={false}
            isAnimationActive={false}
          />
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}
