import { describe, expect, it } from "vitest";
import { checkAddress, checkAmount, checkMultiplier, checkRole, checkTransferAmount } from "./validation";

describe("PRODUCT.md section 5's form rules", () => {
  it("accepts 0x and exactly 40 hex characters, answering the checksummed address", () => {
    expect(checkAddress("0x14dc79964da2c08b23698b3d3cc7ca32193d9955")).toEqual({
      ok: true,
      value: "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955",
    });
    for (const bad of ["", "0x123", "14dc79964da2c08b23698b3d3cc7ca32193d9955", "0x14dc79964da2c08b23698b3d3cc7ca32193d995g"]) {
      expect(checkAddress(bad)).toEqual({
        ok: false,
        problem: { title: "Invalid address", description: "Please enter a valid Ethereum address" },
      });
    }
  });

  it("catches a typo in a checksummed address", () => {
    const result = checkAddress("0x14dC79964da2C08b23698B3D3cc7Ca32193d9956");
    expect(result.ok).toBe(false);
  });

  it("parses amounts exactly to 18 decimals, with no floating point", () => {
    expect(checkAmount("0.1")).toEqual({ ok: true, value: 100000000000000000n });
    expect(checkAmount("123456789.123456789123456789")).toEqual({ ok: true, value: 123456789123456789123456789n });
    for (const bad of ["", "0", "0.000", "-1", "1e3", "abc", "0.0000000000000000001"]) {
      expect(checkAmount(bad)).toEqual({
        ok: false,
        problem: { title: "Invalid amount", description: "Please enter a valid amount greater than 0" },
      });
    }
  });

  it("refuses a transfer above the balance with 'You only have {balance} USDX available'", () => {
    expect(checkTransferAmount("10.01", 10n * 10n ** 18n, "10.00")).toEqual({
      ok: false,
      problem: { title: "Insufficient balance", description: "You only have 10.00 USDX available" },
    });
    expect(checkTransferAmount("10", 10n * 10n ** 18n, "10.00")).toEqual({ ok: true, value: 10n * 10n ** 18n });
  });

  it("wants a positive multiplier value ('Invalid value')", () => {
    expect(checkMultiplier("1.05")).toEqual({ ok: true, value: 1050000000000000000n });
    expect(checkMultiplier("0")).toEqual({
      ok: false,
      problem: { title: "Invalid value", description: "Please enter a valid positive number" },
    });
  });

  it("names an unknown role 'Invalid role: {role}'", () => {
    expect(checkRole("minter")).toEqual({ ok: true, value: "MINTER_ROLE" });
    expect(checkRole("KING_ROLE")).toEqual({ ok: false, problem: { title: "Invalid role", description: "Invalid role: KING_ROLE" } });
  });
});
