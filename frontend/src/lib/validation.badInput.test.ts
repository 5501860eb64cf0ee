import { afterAll, describe, expect, it } from "vitest";
import { BAD_ADDRESSES, BAD_AMOUNTS, BAD_CHECKSUM, caseCounter, GOOD_ADDRESS } from "@/test/badInputs";
import { checkAddress, checkAmount, checkMultiplier, checkRole, checkTransferAmount } from "./validation";

/**
 * PRODUCT.md section 5's rules (lib/validation.ts) against the table of bad inputs: each is refused with
 * the spec's exact toast. The forms' own tests check that the same refusals reach the screen.
 */
const cases = caseCounter("lib/validation");
afterAll(() => cases.print());

const INVALID_ADDRESS = { title: "Invalid address", description: "Please enter a valid Ethereum address" };
const INVALID_AMOUNT = { title: "Invalid amount", description: "Please enter a valid amount greater than 0" };
const INVALID_VALUE = { title: "Invalid value", description: "Please enter a valid positive number" };

describe("checkAddress refuses every bad address", () => {
  it.each(BAD_ADDRESSES)("%s", (_what, value) => {
    cases.count("address");
    const checked = checkAddress(value);
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    // A wrong checksum says what is wrong with it; everything else gets the spec's sentence.
    if (value === BAD_CHECKSUM)
      expect(checked.problem).toEqual({ title: "Invalid address", description: expect.stringMatching(/has a wrong checksum/) });
    else expect(checked.problem).toEqual(INVALID_ADDRESS);
  });

  it("and still takes the good one in any case, checksummed", () => {
    for (const typed of [GOOD_ADDRESS, GOOD_ADDRESS.toLowerCase(), `  ${GOOD_ADDRESS}  `])
      expect(checkAddress(typed)).toEqual({ ok: true, value: GOOD_ADDRESS });
  });
});

describe("checkAmount and checkTransferAmount refuse every bad amount with 'Invalid amount'", () => {
  it.each(BAD_AMOUNTS)("%s", (_what, value) => {
    cases.count("amount");
    expect(checkAmount(value)).toEqual({ ok: false, problem: INVALID_AMOUNT });
    // Checked before the balance, so a huge balance does not let a bad amount through.
    expect(checkTransferAmount(value, 2n ** 256n - 1n, "lots")).toEqual({ ok: false, problem: INVALID_AMOUNT });
  });

  it("and takes the largest amount a uint256 holds", () => {
    const max = 2n ** 256n - 1n;
    const text = `${max / 10n ** 18n}.${(max % 10n ** 18n).toString().padStart(18, "0")}`;
    expect(checkAmount(text)).toEqual({ ok: true, value: max });
  });
});

describe("checkMultiplier refuses every bad value with 'Invalid value'", () => {
  it.each(BAD_AMOUNTS)("%s", (_what, value) => {
    cases.count("multiplier");
    expect(checkMultiplier(value)).toEqual({ ok: false, problem: INVALID_VALUE });
  });
});

describe("checkRole refuses anything but a known role name: 'Invalid role: {role}'", () => {
  const BAD_ROLES: [string, string][] = [
    ["empty", ""],
    ["only spaces", "   "],
    ["an unknown role", "KING_ROLE"],
    ["a dotless i that upper-cases to MINTER", "m\u0131nter"],
    ["a long s that upper-cases to PAUSE", "pau\u017Fe"],
    ["a NUL after a role", "MINTER_ROLE\u0000"],
    ["a zero-width space after a role", "MINTER_ROLE\u200B"],
    ["an RTL override", "\u202EMINTER_ROLE"],
    ["a formula", "=MINTER_ROLE"],
    ["a space inside", "MINTER ROLE"],
    ["an emoji", "😀"],
    ["twice suffixed", "MINTER_ROLE_ROLE"],
  ];
  it.each(BAD_ROLES)("%s", (_what, value) => {
    cases.count("role");
    expect(checkRole(value)).toEqual({ ok: false, problem: { title: "Invalid role", description: `Invalid role: ${value}` } });
  });
});
