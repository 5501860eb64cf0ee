/**
 * The bad inputs every form of the dashboard is fed (issue 7, item 3), the same kinds the server's
 * bad-input suite sends its endpoints. Each entry is [what it is, the text a person types or pastes].
 */

// EIP-55's own example, and the same with one letter's case flipped: right hex, wrong checksum.
export const GOOD_ADDRESS = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
export const BAD_CHECKSUM = `${GOOD_ADDRESS.slice(0, -1)}D`;

const MAX_UINT256 = 2n ** 256n - 1n;
/** The smallest whole-token amount whose base units do not fit a uint256. */
export const BEYOND_UINT256 = (MAX_UINT256 / 10n ** 18n + 1n).toString();

export type BadInput = [what: string, value: string];

/** Text that is not 0x followed by 40 hex characters (or is, with a wrong checksum). */
export const BAD_ADDRESSES: BadInput[] = [
  ["empty", ""],
  ["only spaces", "   "],
  ["a short address", "0x1234"],
  ["39 hex digits", `0x${"a".repeat(39)}`],
  ["41 hex digits", `0x${"a".repeat(41)}`],
  ["no 0x", GOOD_ADDRESS.slice(2)],
  ["0X in capitals", `0X${GOOD_ADDRESS.slice(2)}`],
  ["a non-hex letter", `0x${"g".repeat(40)}`],
  ["a wrong checksum", BAD_CHECKSUM],
  ["an ENS name", "alice.eth"],
  ["a space inside", `${GOOD_ADDRESS.slice(0, 20)} ${GOOD_ADDRESS.slice(20)}`],
  ["a Cyrillic 'а' for 'a'", GOOD_ADDRESS.replace("a", "\u0430")],
  ["fullwidth digits", `0x${"\uFF11".repeat(40)}`],
  ["an RTL override inside", `${GOOD_ADDRESS.slice(0, 10)}\u202E${GOOD_ADDRESS.slice(10)}`],
  ["a NUL after it", `${GOOD_ADDRESS}\u0000`],
  ["a zero-width space after it", `${GOOD_ADDRESS}\u200B`],
  ["an emoji", `0x${"a".repeat(38)}😀`],
  ["a spreadsheet formula", '=HYPERLINK("http://evil.example")'],
  ["10,000 characters", `0x${"a".repeat(9998)}`],
];

/** Text that is not a plain decimal greater than 0 with at most 18 decimals that a uint256 holds. */
export const BAD_AMOUNTS: BadInput[] = [
  ["empty", ""],
  ["only spaces", "   "],
  ["zero", "0"],
  ["zero with decimals", "0.000"],
  ["negative", "-5"],
  ["negative zero", "-0"],
  ["a Unicode minus", "\u22125"],
  ["an exponent", "1e3"],
  ["a negative exponent", "1e-3"],
  ["hex", "0x10"],
  ["Infinity", "Infinity"],
  ["NaN", "NaN"],
  ["a thousands separator", "1,000"],
  ["an underscore", "1_000"],
  ["a plus sign", "+5"],
  ["two points", "1.2.3"],
  ["19 decimals", "1.0000000000000000001"],
  ["19 decimals below one", "0.0000000000000000001"],
  ["beyond a uint256 in base units", BEYOND_UINT256],
  ["80 digits", "9".repeat(80)],
  ["fullwidth digits", "\uFF11\uFF12"],
  ["Arabic-Indic digits", "\u0661\u0662"],
  ["an emoji", "5💰"],
  ["letters", "abc"],
  ["a NUL", "5\u0000"],
  ["an RTL override", "\u202E5"],
  ["a spreadsheet formula", "=1+1"],
  ["a formula with @", "@5"],
];

/** Text a required free-text field must not take as filled in. */
export const BLANKS: BadInput[] = [
  ["empty", ""],
  ["only spaces", "   "],
  ["only a tab", "\t"],
];

/** Counts a file's cases by category and prints them once, for the issue's note. */
export function caseCounter(file: string) {
  const counts = new Map<string, number>();
  return {
    count(category: string) {
      counts.set(category, (counts.get(category) ?? 0) + 1);
    },
    print() {
      const total = [...counts.values()].reduce((a, b) => a + b, 0);
      console.log(`bad-input cases (${file}): ${total} (${[...counts].map(([c, n]) => `${c} ${n}`).join(", ")})`);
    },
  };
}
