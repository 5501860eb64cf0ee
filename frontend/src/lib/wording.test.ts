import { describe, expect, it } from "vitest";
import { shortAddress as addressesShortAddress } from "@common/addresses";
import { count, plural, shortAddress, shortHash } from "@common/wording";
import * as format from "./format";

// common/wording.ts: the one place the dashboard, the server and the scripts word counts, plurals and short hashes.
describe("wording (common/wording.ts)", () => {
  it("counts with en-US thousands separators, whatever the locale", () => {
    expect(count(0)).toBe("0");
    expect(count(999)).toBe("999");
    expect(count(1128)).toBe("1,128");
    expect(count(2_500_000)).toBe("2,500,000");
    expect(count(-1234)).toBe("-1,234");
  });

  it("says the count with the word, singular for exactly one and plural otherwise (zero too)", () => {
    expect(plural(1, "row")).toBe("1 row");
    expect(plural(0, "row")).toBe("0 rows");
    expect(plural(3, "row")).toBe("3 rows");
    expect(plural(1234, "recipient")).toBe("1,234 recipients");
    expect(plural(-1, "block")).toBe("-1 blocks");
  });

  it("takes the plural word when adding an s is wrong", () => {
    expect(plural(1, "address", "addresses")).toBe("1 address");
    expect(plural(2, "address", "addresses")).toBe("2 addresses");
    expect(plural(1, "match", "matches")).toBe("1 match");
    expect(plural(5, "delivery", "deliveries")).toBe("5 deliveries");
  });

  it("shortens a transaction hash to its first 10 and last 6 characters; 18 characters or fewer stay whole", () => {
    const hash = "0x1234abcd00000000000000000000000000000000000000000000000000009f8e";
    expect(shortHash(hash)).toBe("0x1234abcd...009f8e");
    expect(shortHash("0x1234567890abcdef")).toBe("0x1234567890abcdef");
    expect(shortHash("0x1234567890abcdef1")).toBe("0x12345678...bcdef1");
  });

  it("shortens an address to its first 6 and last 4 characters; 10 or fewer stay whole; empty stays empty", () => {
    expect(shortAddress("0x70997970C51812dc3A010C7d01b50e0d17dc79C8")).toBe("0x7099...79C8");
    expect(shortAddress("0x12345678")).toBe("0x12345678");
    expect(shortAddress("0x123456789")).toBe("0x1234...6789");
    expect(shortAddress("")).toBe("");
  });

  it("is the one implementation: the dashboard's format module and common/addresses hand out the same functions", () => {
    expect(format.count).toBe(count);
    expect(format.plural).toBe(plural);
    expect(format.shortHash).toBe(shortHash);
    expect(format.shortAddress).toBe(shortAddress);
    expect(addressesShortAddress).toBe(shortAddress);
  });
});
