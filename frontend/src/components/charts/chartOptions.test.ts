import type uPlot from "uplot";
import { describe, expect, it } from "vitest";
import { chartOptions, withOpacity, type ChartSpec, type ChartTheme } from "./chartOptions";
import { evenTicks, niceRange } from "./niceTicks";

const theme: ChartTheme = {
  text: "#596880",
  grid: "#e2e8f0",
  fontFamily: "system-ui",
  colour: (c) => (c === "var(--color-primary)" ? "#0f766e" : c),
};

const spec: ChartSpec = {
  series: [
    { label: "Total Supply", colour: "var(--color-primary)", scale: "supply", stepped: true, gradient: true, readout: String },
    { label: "Reward Multiplier", colour: "#6366f1", scale: "multiplier", readout: String },
  ],
  axes: [
    { scale: "supply", side: "left", width: 56, fromZero: true, grid: true, ticks: (v) => `${v / 1000}K` },
    { scale: "multiplier", side: "right", width: 52, range: (min, max) => (max > min ? null : [min - 1, min + 1]), ticks: (v) => `${v}x` },
  ],
  timeTick: (ms, spanMs) => `${ms}/${spanMs}`,
  timeReadout: String,
  fontSize: 12,
  tickGap: 24,
};

// The functions uPlot calls back read only what is handed here: the test DOM cannot run uPlot itself (no canvas).
const chart = { scales: { x: { min: 1000, max: 61_000 } } } as unknown as uPlot;

describe("Chart axes", () => {
  it("ends an axis on round steps that cover the data, five ticks, as the charts always have", () => {
    expect(niceRange(0, 170_000)).toEqual([0, 180_000]);
    const [low, high] = niceRange(1, 1.0143);
    expect(low).toBeCloseTo(1, 12);
    expect(high).toBeCloseTo(1.016, 12);
    expect(niceRange(0, 1.2)).toEqual([0, 1.2]);
    expect(niceRange(0, 0)).toEqual([0, 4]);
    expect(evenTicks(0, 180_000)).toEqual([0, 45_000, 90_000, 135_000, 180_000]);
  });
});

describe("Chart options", () => {
  const options = chartOptions(spec, theme);

  it("draws each series in its colour from the theme, stepped and filled where asked", () => {
    const [, supply, multiplier] = options.series;
    expect(supply).toMatchObject({ label: "Total Supply", scale: "supply", stroke: "#0f766e", width: 2, points: { show: false } });
    expect(supply.paths).toBeTypeOf("function");
    expect(supply.fill).toBeTypeOf("function");
    expect(multiplier).toMatchObject({ label: "Reward Multiplier", scale: "multiplier", stroke: "#6366f1" });
    expect(multiplier.paths).toBeUndefined();
    expect(multiplier.fill).toBeUndefined();
  });

  it("fades the fill from a quarter of the line's colour to nothing", () => {
    expect(withOpacity("#0f766e", 0.25)).toBe("rgba(15, 118, 110, 0.25)");
    expect(withOpacity("#fff", 0)).toBe("rgba(255, 255, 255, 0)");
    expect(withOpacity("oklch(0.6 0.1 180)", 0.25)).toBe("color-mix(in srgb, oklch(0.6 0.1 180) 25%, transparent)");
  });

  it("ranges the y scales: from zero on round steps, or the spec's fixed range", () => {
    const range = (key: string) => options.scales?.[key].range as (u: uPlot, min: number, max: number) => [number, number];
    expect(options.scales?.x.time).toBe(true);
    expect(range("supply")(chart, 100_000, 170_000)).toEqual([0, 180_000]);
    expect(range("multiplier")(chart, 1, 1)).toEqual([0, 2]);
    const [low, high] = range("multiplier")(chart, 1, 1.0143);
    expect([low, high].map((v) => v.toFixed(3))).toEqual(["1.000", "1.016"]);
  });

  it("puts a y-axis on each side with five labelled ticks, and dashed grid lines from the one that asks", () => {
    const [time, left, right] = options.axes ?? [];
    expect(left).toMatchObject({ scale: "supply", side: 3, size: 56, stroke: "#596880", font: "12px system-ui" });
    expect(left.grid).toEqual({ stroke: "#e2e8f0", width: 1, dash: [3, 3] });
    expect(right).toMatchObject({ scale: "multiplier", side: 1, size: 52, grid: { show: false } });
    const splits = (left.splits as (u: uPlot, i: number, min: number, max: number) => number[])(chart, 1, 0, 180_000);
    expect(splits).toEqual([0, 45_000, 90_000, 135_000, 180_000]);
    expect((left.values as uPlot.Axis.DynamicValues)(chart, splits, 1, 0, 0)).toEqual(["0K", "45K", "90K", "135K", "180K"]);
    // Time labels know the span of the axis (60 s here), for the spec to choose dates or times of day.
    expect((time.values as uPlot.Axis.DynamicValues)(chart, [1000, 31_000], 0, 0, 0)).toEqual(["1000/60000", "31000/60000"]);
    expect(time.grid).toEqual({ show: false });
  });

  it("follows the pointer with a vertical line and never zooms on a drag", () => {
    expect(options.cursor).toMatchObject({ y: false, drag: { x: false, y: false, setScale: false } });
    expect(options.legend).toEqual({ show: false });
    expect(options.ms).toBe(1);
  });
});
