import { afterAll, describe, expect, it } from "vitest";
import { caseCounter } from "@/test/badInputs";
import { checkFilter } from "./filters";

/**
 * The Contract Events filter's From Block and To Block against the table of bad inputs (issue 7,
 * item 3): each is refused with the sentence for its field, so no request with it is ever built.
 * (events.test.tsx checks that a refused filter shows its sentence and sends nothing.)
 */
const cases = caseCounter("events filter");
afterAll(() => cases.print());

const NOT_WHOLE: [string, string][] = [
  ["negative", "-1"],
  ["an exponent", "1e3"],
  ["a fraction", "1.5"],
  ["hex", "0x10"],
  ["letters", "abc"],
  ["a plus sign", "+5"],
  ["a space inside", "1 2"],
  ["a thousands separator", "1,000"],
  ["Infinity", "Infinity"],
  ["fullwidth digits", "\uFF11\uFF12"],
  ["Arabic-Indic digits", "\u0661\u0662"],
  ["an emoji", "5😀"],
  ["a NUL", "5\u0000"],
  ["an RTL override", "\u202E5"],
  ["a spreadsheet formula", "=1+1"],
];

describe.each([
  ["From Block", "fromBlock"],
  ["To Block", "toBlock"],
] as const)("%s", (label, key) => {
  it.each(NOT_WHOLE)("refuses %s", (_what, value) => {
    cases.count("not a whole number");
    expect(checkFilter({ label: "All Events", fromBlock: "", toBlock: "", [key]: value })).toEqual({
      ok: false,
      problems: { [key]: `${label} must be a whole number (digits only, like 1200).` },
    });
  });

  it.each([
    ["16 digits", "1".repeat(16)],
    ["80 digits", "9".repeat(80)],
  ])("refuses %s: too large", (_what, value) => {
    cases.count("huge");
    expect(checkFilter({ label: "All Events", fromBlock: "", toBlock: "", [key]: value })).toEqual({
      ok: false,
      problems: { [key]: `${label} is too large: at most 15 digits.` },
    });
  });
});
