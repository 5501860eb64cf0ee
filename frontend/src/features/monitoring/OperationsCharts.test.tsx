import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { MonitoringPoint } from "./api/queries";
import OperationsCharts, { operationsChart } from "./components/OperationsCharts";

const sample = (at: number, p50Ms: number | null): MonitoringPoint => ({
  at,
  requestsPerSecond: 2,
  p50Ms,
  p95Ms: p50Ms,
  p99Ms: p50Ms,
  indexerLag: 0,
  rpcErrorsPerSecond: 0,
});

describe("/monitoring charts", () => {
  it("reads out each value in the chart's unit, and 'none' for an interval without one", () => {
    const spec = operationsChart("ms", [{ key: "p50Ms", name: "p50", colour: "#22c55e" }]);
    expect(spec.series[0].readout(12.345)).toBe("12.35 ms");
    expect(spec.series[0].readout(null)).toBe("none");
    expect(spec.axes).toMatchObject([{ side: "left", fromZero: true, grid: true }]);
    expect(spec.timeReadout(1_700_000_000_000)).toBe(new Date(1_700_000_000_000).toLocaleTimeString());
  });

  it("names each chart for a screen reader, with a legend where it has more than one line", () => {
    render(<OperationsCharts points={[sample(1_700_000_000_000, null), sample(1_700_000_005_000, 40)]} />);
    const latency = screen.getByRole("img", { name: "Request latency over the last 2 samples" });
    expect(
      within(latency)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(["p50", "p95", "p99"]);
    const requests = screen.getByRole("img", { name: "Requests per second over the last 2 samples" });
    expect(within(requests).queryByRole("listitem")).toBeNull();
    expect(screen.getByRole("img", { name: "Indexer lag over the last 2 samples" })).toBeInTheDocument();
    expect(screen.getByRole("img", { name: "RPC errors per second over the last 2 samples" })).toBeInTheDocument();
  });
});
