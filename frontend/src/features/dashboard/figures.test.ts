import { describe, expect, it } from "vitest";
import { chartNumber, errorText, groupDigits, multiplierAxisRange, shownMultiplier, shownUsdx } from "./figures";

describe("Dashboard figures", () => {
  it("groups thousands without touching the decimals", () => {
    expect(groupDigits("1234567.89")).toBe("1,234,567.89");
    expect(groupDigits("999.00")).toBe("999.00");
    expect(groupDigits("-1000")).toBe("-1,000");
  });

  it("shows USDX to 2 decimals rounded down and the multiplier to 4 with x", () => {
    expect(shownUsdx(1_234_999_999_999_999_999_999n)).toBe("1,234.99");
    expect(shownUsdx(0n)).toBe("0.00");
    expect(shownMultiplier(10n ** 18n)).toBe("1.0000x");
    expect(shownMultiplier(1_234_56n * 10n ** 13n)).toBe("1.2345x");
  });

  it("reads chart values from decimal strings or base units", () => {
    expect(chartNumber("1000.5")).toBe(1000.5);
    expect(chartNumber("1500000000000000000")).toBe(1.5);
  });

  it("leaves the multiplier axis to the chart unless the multiplier never changed; then a percent either side, not -1x to 3x", () => {
    expect(multiplierAxisRange(1, 1.015)).toBeNull();
    const [low, high] = multiplierAxisRange(1, 1) as [number, number];
    expect(low).toBeCloseTo(0.99, 12);
    expect(high).toBeCloseTo(1.01, 12);
  });

  it("words a failed read as the spec's generic card does", () => {
    expect(errorText(new Error("boom"))).toBe("Error: boom");
    expect(errorText({ shortMessage: "could not detect network", message: "could not detect network (long details)" })).toBe(
      "Error: could not detect network",
    );
    expect(errorText(undefined)).toBe("An unknown error occurred");
    expect(errorText(new Error(""))).toBe("An unknown error occurred");
  });
});
