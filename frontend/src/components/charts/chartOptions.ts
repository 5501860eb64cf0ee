import uPlot from "uplot";
import { evenTicks, niceRange } from "./niceTicks";

/**
 * What a time-series chart shows, in the dashboard's words, and the uPlot options that draw it.
 * Kept apart from the component so a test can read what would be drawn: the test DOM has no canvas.
 */

export interface ChartSeries {
  /** The name in the legend and the hover read-out. */
  label: string;
  /** A CSS colour, or `var(--name)` of the theme (read off the page: a canvas cannot resolve var()). */
  colour: string;
  /** The y scale it is drawn against (a ChartAxis's scale). */
  scale: string;
  /** Holds each value until the next point, as a balance does between two events. */
  stepped?: boolean;
  /** Fills the area under the line with the line's colour, fading downwards. */
  gradient?: boolean;
  /** The hover read-out of one value; null where the series has no value at that time. */
  readout: (value: number | null) => string;
}

export interface ChartAxis {
  scale: string;
  side: "left" | "right";
  /** Room for the tick labels, in CSS pixels. */
  width: number;
  ticks: (value: number) => string;
  /** Starts at zero, as a total or a rate reads best; otherwise the range hugs the data. */
  fromZero?: boolean;
  /** A fixed range for these data, or null for the chart's own. */
  range?: (min: number, max: number) => [number, number] | null;
  /** Dashed horizontal lines at this axis's ticks. */
  grid?: boolean;
}

export interface ChartSpec {
  series: ChartSeries[];
  axes: ChartAxis[];
  /** A time tick's label, given the span of the time axis (ms). */
  timeTick: (ms: number, spanMs: number) => string;
  /** The time at the top of the hover read-out. */
  timeReadout: (ms: number) => string;
  /** Tick label size in CSS pixels. */
  fontSize: number;
  /** Least room between two time labels, in CSS pixels. */
  tickGap: number;
}

/** Times in ms, then one array of values per series, in the spec's order (null: no value then). */
export type ChartData = [times: number[], ...series: (number | null)[][]];

/** The page's colours and font, as the canvas needs them: plain values, no var(). */
export interface ChartTheme {
  /** Axis lines and tick labels. */
  text: string;
  /** Grid lines. */
  grid: string;
  fontFamily: string;
  colour: (colour: string) => string;
}

/** The line and the legend's mark: 2 px as before. */
const LINE_WIDTH = 2;
const TICK_LENGTH = 6;
/** The time axis's height: tick, gap and one line of labels. */
const TIME_AXIS_HEIGHT = 30;
/** Opacity of the area fill at the line; it fades to nothing at the bottom. */
const FILL_OPACITY = 0.25;

/** A colour at the given opacity, for the area fill's gradient. */
export function withOpacity(colour: string, opacity: number): string {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(colour)?.[1];
  if (hex) {
    const full = hex.length === 3 ? [...hex].map((d) => d + d).join("") : hex;
    const [r, g, b] = [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16));
    return `rgba(${r}, ${g}, ${b}, ${opacity})`;
  }
  return `color-mix(in srgb, ${colour} ${opacity * 100}%, transparent)`;
}

const stepAfter = () => uPlot.paths.stepped?.({ align: 1 });

function gradientFill(colour: string): uPlot.Series.Fill {
  return (u) => {
    const { top, height } = u.bbox;
    const gradient = u.ctx.createLinearGradient(0, top, 0, top + height);
    gradient.addColorStop(0, withOpacity(colour, FILL_OPACITY));
    gradient.addColorStop(1, withOpacity(colour, 0));
    return gradient;
  };
}

function yRange(axis: ChartAxis): uPlot.Scale.Range {
  return (_u, min, max) => {
    const fixed = axis.range?.(min, max);
    if (fixed) return fixed;
    return niceRange(axis.fromZero ? Math.min(0, min) : min, max);
  };
}

/** uPlot's options for the spec, without the size (the component measures its box). */
export function chartOptions(spec: ChartSpec, theme: ChartTheme): Omit<uPlot.Options, "width" | "height"> {
  const font = `${spec.fontSize}px ${theme.fontFamily}`;
  const line = { stroke: theme.text, width: 1 };
  const span = (u: uPlot) => (u.scales.x.max ?? 0) - (u.scales.x.min ?? 0);
  return {
    // Times are in milliseconds, as Date takes them.
    ms: 1,
    padding: [8, 8, 0, 4],
    legend: { show: false },
    // A vertical line and the points under the pointer; no drag-to-zoom, which the chart never had.
    cursor: { y: false, drag: { x: false, y: false, setScale: false }, points: { size: 8 } },
    scales: {
      x: { time: true },
      ...Object.fromEntries(spec.axes.map((axis) => [axis.scale, { range: yRange(axis) }])),
    },
    series: [
      {},
      ...spec.series.map((s) => ({
        label: s.label,
        scale: s.scale,
        stroke: theme.colour(s.colour),
        width: LINE_WIDTH,
        points: { show: false },
        paths: s.stepped ? stepAfter() : undefined,
        fill: s.gradient ? gradientFill(theme.colour(s.colour)) : undefined,
      })),
    ],
    axes: [
      {
        size: TIME_AXIS_HEIGHT,
        stroke: theme.text,
        font,
        grid: { show: false },
        ticks: { ...line, size: TICK_LENGTH },
        border: { show: true, ...line },
        // Room for the widest label, measured, plus the gap (save/restore: uPlot keeps track of its own font).
        space: (u) => {
          u.ctx.save();
          u.ctx.font = font;
          const width = u.ctx.measureText(spec.timeTick(u.scales.x.max ?? 0, span(u))).width;
          u.ctx.restore();
          return width + spec.tickGap;
        },
        values: (u, splits) => splits.map((ms) => spec.timeTick(ms, span(u))),
      },
      ...spec.axes.map((axis): uPlot.Axis => ({
        scale: axis.scale,
        side: axis.side === "left" ? 3 : 1,
        size: axis.width,
        stroke: theme.text,
        font,
        grid: axis.grid ? { stroke: theme.grid, width: 1, dash: [3, 3] } : { show: false },
        ticks: { ...line, size: TICK_LENGTH },
        border: { show: true, ...line },
        splits: (_u, _i, min, max) => evenTicks(min, max),
        values: (_u, splits) => splits.map(axis.ticks),
      })),
    ],
  };
}
