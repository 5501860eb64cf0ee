import { MULTIPLIER_BASE, TOKEN_DECIMALS } from "./token";

// Plain decimals only: no sign, no exponent, no thousands separators, at most 18 decimals.
const DECIMAL = /^(\d+)(?:\.(\d*))?$|^\.(\d+)$/;

// A plain decimal of USDX (at most its 18 decimals), surrounding spaces allowed.
const TOKEN_DECIMAL = `(?:\\d+(?:\\.\\d{0,${TOKEN_DECIMALS}})?|\\.\\d{1,${TOKEN_DECIMALS}})`;
/** The text parseTokenAmount takes (the API's declarations state it as a JSON Schema pattern). */
export const TOKEN_AMOUNT_TYPED = new RegExp(`^\\s*${TOKEN_DECIMAL}\\s*$`);
/** The same, or nothing but spaces: a field left empty. */
export const TOKEN_AMOUNT_OR_BLANK_TYPED = new RegExp(`^\\s*${TOKEN_DECIMAL}?\\s*$`);
/** The text parsePositiveTokenAmount takes: the same, with a digit other than 0 in it. */
export const POSITIVE_TOKEN_AMOUNT_TYPED = new RegExp(`^\\s*(?=[\\d.]*[1-9])${TOKEN_DECIMAL}\\s*$`);
/** A positive amount of at least 1 (a reward multiplier set: never below 1.0): a digit other than 0 before any point. */
export const AT_LEAST_ONE_TYPED = new RegExp(`^\\s*0*[1-9]\\d*(?:\\.\\d{0,${TOKEN_DECIMALS}})?\\s*$`);

/**
 * Parses a token amount a person typed ("12.5", "0.01", "1000") into base units.
 * Throws an Error saying what is wrong: empty, not a plain decimal, too many decimals.
 */
export function parseTokenAmount(input: string, decimals: number = TOKEN_DECIMALS): bigint {
  const text = input.trim();
  if (text === "") throw new Error("Amount is empty");
  const match = DECIMAL.exec(text);
  if (!match) throw new Error(`'${input}' is not a plain decimal amount (digits and at most one '.')`);
  const fraction = match[2] ?? match[3] ?? "";
  if (fraction.length > decimals) {
    throw new Error(`'${input}' has ${fraction.length} decimals; USDX has ${decimals}`);
  }
  // Digits only, so the base units are the digits with the fraction padded out (ethers'
  // parseUnits gives the same and takes ten times as long: 10,000 CSV rows notice).
  return BigInt((match[1] ?? "0") + fraction.padEnd(decimals, "0"));
}

/** Base units as the shortest exact decimal: "5", "12.5", "0.000000000000000001". */
export function exactTokenAmount(value: bigint, decimals: number = TOKEN_DECIMALS): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
}

/** Like parseTokenAmount, and also refuses zero: 'Please enter a valid amount greater than 0'. */
export function parsePositiveTokenAmount(input: string, decimals: number = TOKEN_DECIMALS): bigint {
  const value = parseTokenAmount(input, decimals);
  if (value === 0n) throw new Error("Please enter a valid amount greater than 0");
  return value;
}

/**
 * Formats base units for display with a fixed number of decimals, rounding down so a balance is
 * never shown larger than it is (spec: balances, shares and supply to 2 decimals, multiplier to 4).
 */
export function formatTokenAmount(value: bigint, places = 2, decimals: number = TOKEN_DECIMALS): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  // exactTokenAmount, not ethers' formatUnits: the same digits, and no Ethereum library on /login.
  const [whole, fraction = ""] = exactTokenAmount(abs, decimals).split(".");
  const shown = places > 0 ? `${whole}.${fraction.padEnd(places, "0").slice(0, places)}` : whole;
  return negative ? `-${shown}` : shown;
}

/**
 * What a Transfer of `value` tokens really moved at `multiplier`, with the contract's arithmetic.
 * USDX (like USDM) converts the value to shares rounding down, `value * 1e18 / multiplier`, and
 * emits the requested value even when those shares are worth less, or when no share moved at all.
 * `amount` answers "did the event claim more than moved?" to the wei: the shares are worth exactly
 * `shares * multiplier / 1e18`, and each balance moves by that rounded down or up (each balance
 * rounds on its own). While the shortfall is under one wei the event's value is one of those, so
 * `amount` is the value; from one wei on, every balance moved less, and `amount` is the shares'
 * worth rounded down (0 when no share moved). Decided in docs/architecture/token.md ("A transfer
 * worth less than one share").
 */
export function transferMoved(value: bigint, multiplier: bigint = MULTIPLIER_BASE): { shares: bigint; amount: bigint } {
  const shares = (value * MULTIPLIER_BASE) / multiplier;
  const worth = shares * multiplier; // in wei, times 1e18: exact
  const shortfall = value * MULTIPLIER_BASE - worth;
  return { shares, amount: shortfall < MULTIPLIER_BASE ? value : worth / MULTIPLIER_BASE };
}
