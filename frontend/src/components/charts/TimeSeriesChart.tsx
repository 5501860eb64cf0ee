import { useEffect, useLayoutEffect, useRef, useState } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { cn } from "@/lib/utils";
import { chartOptions, type ChartData, type ChartSpec, type ChartTheme } from "./chartOptions";

/**
 * A time-series chart drawn by uPlot on a canvas (about a fifth of recharts' weight), filling its
 * box and following its size. Import it only from a lazily loaded module: it is the chart chunk.
 * The legend and the hover read-out are HTML, in the page's own type.
 */

/** The page's theme colours and type on `element`, resolved for the canvas. */
export function readChartTheme(element: Element): ChartTheme {
  const style = getComputedStyle(element);
  const colour = (value: string) => {
    const name = /^var\((--[\w-]+)\)$/.exec(value.trim())?.[1];
    return name ? style.getPropertyValue(name).trim() || "currentColor" : value;
  };
  return {
    text: colour("var(--color-muted-foreground)"),
    grid: colour("var(--color-border)"),
    fontFamily: style.fontFamily || "sans-serif",
    colour,
  };
}

/**
 * Whether this browser can draw the chart: the unit tests' DOMs (happy-dom, jsdom) have no 2D canvas
 * and no Path2D, and show the legend alone. Asking for the types, not a context, keeps jsdom from
 * complaining.
 */
const canvasDraws = () => typeof CanvasRenderingContext2D !== "undefined" && typeof Path2D !== "undefined";

interface Hover {
  idx: number;
  /** The pointer, in CSS pixels from the chart box's top left. */
  left: number;
  top: number;
}

/** Room between the pointer and the read-out. */
const READOUT_OFFSET = 12;

function hoverOf(u: uPlot): Hover | null {
  const { idx, left = -1, top = -1 } = u.cursor;
  if (idx == null || left < 0 || top < 0) return null;
  return { idx, left: u.over.offsetLeft + left, top: u.over.offsetTop + top };
}

/** Beside the pointer (right, else left; below, else above) and inside the box, as far as it fits. */
function placeReadout(readout: HTMLElement, box: HTMLElement, hover: Hover) {
  const place = (at: number, size: number, room: number) => {
    const after = at + READOUT_OFFSET;
    const spot = after + size <= room ? after : at - READOUT_OFFSET - size;
    return Math.max(0, Math.min(spot, room - size));
  };
  readout.style.left = `${place(hover.left, readout.offsetWidth, box.clientWidth)}px`;
  readout.style.top = `${place(hover.top, readout.offsetHeight, box.clientHeight)}px`;
}

/** A line through a ring, in the series' colour (currentColor), as the legend has always shown. */
const legendMark = (
  <svg aria-hidden width={14} height={14} viewBox="0 0 32 32" fill="none" stroke="currentColor" strokeWidth={4}>
    <path d="M0 16h10.67A5.33 5.33 0 1 1 21.33 16H32M21.33 16a5.33 5.33 0 1 1-10.66 0" />
  </svg>
);

export interface TimeSeriesChartProps {
  /** What is drawn; keep the same object while it does not change (a new one builds a new chart). */
  spec: ChartSpec;
  data: ChartData;
  /** What the chart shows, for a screen reader (the canvas has no text). */
  label: string;
  className?: string;
  /** The series' names below the chart; leave it out for a single series that the title names. */
  legend?: boolean;
}

export function TimeSeriesChart({ spec, data, label, className, legend = true }: TimeSeriesChartProps) {
  const box = useRef<HTMLDivElement>(null);
  // uPlot's own element, apart from the nodes React renders.
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const latestData = useRef(data);
  const readout = useRef<HTMLDivElement>(null);
  const [hover, setHover] = useState<Hover | null>(null);

  // New figures redraw the chart in place (a hover read-out stays where it is).
  useEffect(() => {
    latestData.current = data;
    plot.current?.setData(data);
  }, [data]);

  useEffect(() => {
    const element = box.current;
    if (!element || !host.current || !canvasDraws()) return;
    const options: uPlot.Options = {
      ...chartOptions(spec, readChartTheme(element)),
      width: element.clientWidth,
      height: element.clientHeight,
      hooks: { setCursor: [(u) => setHover(hoverOf(u))] },
    };
    const u = new uPlot(options, latestData.current, host.current);
    plot.current = u;
    const resize = new ResizeObserver(() => u.setSize({ width: element.clientWidth, height: element.clientHeight }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      u.destroy();
      plot.current = null;
      setHover(null);
    };
  }, [spec]);

  // Placed once rendered, when its size is known; before the browser paints it.
  useLayoutEffect(() => {
    if (hover && readout.current && box.current) placeReadout(readout.current, box.current, hover);
  }, [hover]);

  const time = hover ? data[0][hover.idx] : undefined;
  return (
    <div className={cn("flex flex-col", className)} role="img" aria-label={label}>
      <div ref={box} className="relative min-h-0 min-w-0 flex-1">
        <div ref={host} />
        {hover && time !== undefined && (
          <div
            ref={readout}
            className="pointer-events-none absolute z-10 rounded-lg border border-border bg-card px-2.5 py-2 text-[13px] whitespace-nowrap shadow-sm"
          >
            <p className="mb-1">{spec.timeReadout(time)}</p>
            {spec.series.map((s, i) => (
              <p key={s.label} className="flex items-center gap-1.5">
                <span aria-hidden className="inline-block size-2 shrink-0 rounded-full" style={{ backgroundColor: s.colour }} />
                {s.label} : {s.readout(data[i + 1][hover.idx] ?? null)}
              </p>
            ))}
          </div>
        )}
      </div>
      {legend && (
        // A point larger than the tick labels, as before.
        <ul className="flex flex-wrap justify-center gap-x-4 gap-y-1 pt-2" style={{ fontSize: spec.fontSize + 1 }}>
          {spec.series.map((s) => (
            <li key={s.label} className="flex items-center gap-1">
              {/* The series' colour on its mark; the name in the text colour, readable on the card
                  whatever the line's colour (a #22c55e name would be 2.3:1 on white). */}
              <span className="flex" style={{ color: s.colour }}>
                {legendMark}
              </span>
              {s.label}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
