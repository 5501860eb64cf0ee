import { describe, expect, it } from "vitest";
import { boundOf, guardMultiplier } from "./multiplierGuard";

const ONE = 10n ** 18n;
const m = (hundredths: bigint) => (ONE * hundredths) / 100n;

describe("the multiplier guard (the dashboard's forms)", () => {
  it("shows the change to every balance, and lets a rise within the bound go as it is", () => {
    expect(guardMultiplier(m(100n), m(101n), "1.01", "", 100)).toEqual({
      change: "+1.00% to every balance",
      warning: null,
      blocked: false,
    });
    expect(guardMultiplier(m(200n), m(201n), "2.01", "", 100)).toEqual({
      change: "+0.50% to every balance",
      warning: null,
      blocked: false,
    });
  });

  it("blocks a rise above the bound, or any decrease, until the value is typed again exactly", () => {
    const above = guardMultiplier(m(100n), m(102n), "1.02", "", 100);
    expect(above).toMatchObject({ change: "+2.00% to every balance", blocked: true });
    expect(above.warning).toContain("more than the 1% one change may move it");
    expect(guardMultiplier(m(100n), m(102n), "1.02", "1.020", 100).blocked).toBe(true);
    expect(guardMultiplier(m(100n), m(102n), "1.02", "1.02", 100).blocked).toBe(false);

    const down = guardMultiplier(m(125n), m(110n), "1.1", "", 100);
    expect(down).toMatchObject({ change: "\u221212.00% to every balance", blocked: true });
    expect(down.warning).toBe("This lowers the multiplier, so every holder's balance goes down (\u221212.00%).");
    expect(guardMultiplier(m(125n), m(110n), "1.1", "1.1", 100).blocked).toBe(false);
  });

  it("follows the deployment's bound, and shows nothing for a field without a valid value", () => {
    expect(guardMultiplier(m(100n), m(101n), "1.01", "", boundOf(0.5)).blocked).toBe(true);
    expect(guardMultiplier(m(100n), m(102n), "1.02", "", boundOf(2.25)).blocked).toBe(false);
    expect(guardMultiplier(m(100n), null, "abc", "", 100)).toEqual({ change: null, warning: null, blocked: false });
  });
});
