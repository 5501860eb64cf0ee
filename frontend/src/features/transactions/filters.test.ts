import { describe, expect, it } from "vitest";
import { eventsUrl } from "./api/events";
import { exactUsdx, shownArgs } from "./display";
import { checkFilter, narrowRange } from "./filters";

describe("Contract Events filter", () => {
  it("builds GET /api/events with the range, limit 10, and eventName only for a filter", () => {
    expect(eventsUrl({ label: "All Events" })).toBe("/api/events?limit=10");
    expect(eventsUrl({ label: "RewardMultiplierUpdated", fromBlock: 0, toBlock: 9 })).toBe(
      "/api/events?fromBlock=0&toBlock=9&limit=10&eventName=RewardMultiplier",
    );
    expect(eventsUrl({ label: "Blocked", toBlock: 9 })).toBe("/api/events?toBlock=9&limit=10&eventName=AccountBlocked");
  });

  it("accepts empty or whole-number blocks, and says what is wrong otherwise", () => {
    expect(checkFilter({ label: "Transfer", fromBlock: " 7 ", toBlock: "" })).toEqual({
      ok: true,
      filter: { label: "Transfer", fromBlock: 7, toBlock: undefined },
    });
    expect(checkFilter({ label: "Transfer", fromBlock: "7", toBlock: "7" }).ok).toBe(true);
    expect(checkFilter({ label: "All Events", fromBlock: "-1", toBlock: "1e3" })).toEqual({
      ok: false,
      problems: {
        fromBlock: "From Block must be a whole number (digits only, like 1200).",
        toBlock: "To Block must be a whole number (digits only, like 1200).",
      },
    });
    expect(checkFilter({ label: "All Events", fromBlock: "1".repeat(16), toBlock: "" })).toEqual({
      ok: false,
      problems: { fromBlock: "From Block is too large: at most 15 digits." },
    });
    expect(checkFilter({ label: "All Events", fromBlock: "10", toBlock: "9" })).toEqual({
      ok: false,
      problems: { fromBlock: "From Block (10) must not be after To Block (9)." },
    });
  });

  it("narrows a timed-out range to its last 1,000 blocks, or halves one already smaller", () => {
    expect(narrowRange(0, 50_000)).toEqual({ fromBlock: 49_001, toBlock: 50_000 });
    expect(narrowRange(49_001, 50_000)).toEqual({ fromBlock: 49_501, toBlock: 50_000 });
    expect(narrowRange(10, 10)).toEqual({ fromBlock: 10, toBlock: 10 });
  });
});

describe("Amounts and event arguments as shown", () => {
  it("shows USDX exactly, with at least two decimals and grouped thousands", () => {
    expect(exactUsdx(1234567n * 10n ** 18n)).toBe("1,234,567.00");
    expect(exactUsdx(125n * 10n ** 17n)).toBe("12.50");
    expect(exactUsdx(1n)).toBe("0.000000000000000001");
  });

  it("orders arguments as the contract declares them and names what they are", () => {
    const me = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    expect(shownArgs("Approval", { value: "5000000000000000000", spender: me, owner: me })).toEqual([
      { name: "owner", kind: "address", address: me },
      { name: "spender", kind: "address", address: me },
      { name: "value", kind: "text", text: "5.00 USDX" },
    ]);
    expect(shownArgs("RoleGranted", { role: `0x${"0".repeat(64)}`, account: me, sender: me })[0]).toEqual({
      name: "role",
      kind: "text",
      text: "DEFAULT_ADMIN_ROLE",
      title: `0x${"0".repeat(64)}`,
    });
    expect(shownArgs("Initialized", { version: "1" })).toEqual([{ name: "version", kind: "text", text: "1" }]);
  });
});
