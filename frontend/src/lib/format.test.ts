import { describe, expect, it } from "vitest";
import { formatMultiplier, formatUsdx, movedNote, relativeTime, shortAddress } from "./format";

describe("formatting (PRODUCT.md section 9)", () => {
  it("shows balances to 2 decimals and the multiplier to 4, rounding down, without floating point", () => {
    expect(formatUsdx(123_456789012345678901n)).toBe("123.45");
    expect(formatUsdx(10n ** 30n + 9n)).toBe("1000000000000.00");
    expect(formatMultiplier(1_015000000000000000n)).toBe("1.0150");
  });

  it("shortens addresses to the first 6 and last 4 characters; empty stays empty", () => {
    expect(shortAddress("0x70997970C51812dc3A010C7d01b50e0d17dc79C8")).toBe("0x7099...79C8");
    expect(shortAddress("")).toBe("");
  });

  it("says how long ago, in the spec's words", () => {
    const now = 1_700_000_000_000;
    const at = (secondsAgo: number) => relativeTime(now / 1000 - secondsAgo, now);
    expect(at(59)).toBe("Just now");
    expect(at(60)).toBe("1 minute ago");
    expect(at(150)).toBe("2 minutes ago");
    expect(at(3600)).toBe("1 hour ago");
    expect(at(7300)).toBe("2 hours ago");
    expect(at(86400)).toBe(new Date((now / 1000 - 86400) * 1000).toLocaleString());
    expect(relativeTime(undefined)).toBe("Unknown");
  });
});

describe("movedNote: a Transfer that moved less than its event says", () => {
  it("says nothing when what moved is what the event says, or the server did not say", () => {
    expect(movedNote("2000", "2000")).toBeNull();
    expect(movedNote("2000", undefined)).toBeNull();
  });

  it("says what the event said and what moved, exactly, when rounding to whole shares lost some", () => {
    expect(movedNote("2", "1")).toEqual({
      moved: 1n,
      noShares: false,
      text: "The event says 0.000000000000000002 USDX; 0.000000000000000001 USDX moved (rounded down to whole shares).",
    });
    expect(movedNote(1234567000000000000001n, "1234567000000000000000")?.text).toBe(
      "The event says 1,234.567000000000000001 USDX; 1,234.567 USDX moved (rounded down to whole shares).",
    );
  });

  it("says no shares moved when the amount is worth less than one share", () => {
    expect(movedNote("1", "0")).toEqual({ moved: 0n, noShares: true, text: "No shares moved: the amount is worth less than one share." });
  });
});
