import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { SupplyPoint } from "../api/queries";
import SupplyChart, { supplyChart, supplyChartData, supplyTimeTick } from "./SupplyChart";

const point = (timestamp: number, totalSupply: string, rewardMultiplier: string): SupplyPoint => ({
  blockNumber: timestamp,
  timestamp,
  totalSupply,
  totalShares: totalSupply,
  rewardMultiplier,
});

describe("Supply chart", () => {
  it("plots supply and the multiplier as numbers at each point's time in ms", () => {
    const points = [point(1_700_000_000, "100000.0", "1.0"), point(1_700_000_012, "170000000000000000000000", "1.0125")];
    expect(supplyChartData(points)).toEqual([
      [1_700_000_000_000, 1_700_000_012_000],
      [100_000, 170_000],
      [1, 1.0125],
    ]);
  });

  it("draws Total Supply as a filled step on the left axis and Reward Multiplier as a step on the right", () => {
    const [supply, multiplier] = supplyChart.series;
    expect(supply).toMatchObject({ label: "Total Supply", colour: "var(--color-primary)", scale: "supply", stepped: true, gradient: true });
    expect(multiplier).toMatchObject({ label: "Reward Multiplier", scale: "multiplier", stepped: true });
    expect(multiplier.gradient).toBeFalsy();
    const [left, right] = supplyChart.axes;
    expect(left).toMatchObject({ scale: "supply", side: "left", fromZero: true, grid: true });
    expect(right).toMatchObject({ scale: "multiplier", side: "right" });
    expect(left.ticks(180_000)).toBe("180K");
    expect(right.ticks(1.016)).toBe("1.016x");
    // A multiplier that never changed: a percent either side, not the chart's own padding.
    expect(right.range?.(1, 1)?.map((v) => v.toFixed(2))).toEqual(["0.99", "1.01"]);
    expect(right.range?.(1, 1.02)).toBeNull();
  });

  it("reads out exact formatted values on hover, and the date and time", () => {
    const [supply, multiplier] = supplyChart.series;
    expect(supply.readout(100_000)).toBe("100,000.00 USDX");
    expect(multiplier.readout(1.0125)).toBe("1.0125x");
    expect(supplyChart.timeReadout(1_700_000_000_000)).toBe(new Date(1_700_000_000_000).toLocaleString());
  });

  it("labels time with seconds under an hour, times of day under two days, dates beyond", () => {
    const at = 1_700_000_000_000;
    const colons = (label: string) => label.split(":").length - 1;
    expect(colons(supplyTimeTick(at, 30 * 60_000))).toBe(2);
    expect(colons(supplyTimeTick(at, 5 * 3_600_000))).toBe(1);
    expect(supplyTimeTick(at, 3 * 86_400_000)).toBe(new Date(at).toLocaleDateString(undefined, { month: "short", day: "numeric" }));
  });

  it("is an image named for what it shows, with the series' names in its legend", () => {
    render(<SupplyChart points={[point(1_700_000_000, "100.0", "1.0"), point(1_700_000_012, "105.0", "1.05")]} />);
    const chart = screen.getByRole("img", { name: "Chart of total supply and reward multiplier over 2 points in time" });
    expect(chart).toHaveClass("h-72", "w-full");
    expect(
      within(chart)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(["Total Supply", "Reward Multiplier"]);
  });
});
