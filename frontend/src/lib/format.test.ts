import { describe, expect, it } from "vitest";
import { formatMultiplier, formatUsdx, relativeTime, shortAddress } from "./format";

describe("formatting (spec section 9)", () => {
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
