import { formatUsdx, groupDigits } from "@/lib/format";
import { exactTokenAmount } from "@common/amounts";

/** A balance as the table shows it: two decimals (rounded down), grouped. */
export const shownBalance = (baseUnits: string) => groupDigits(formatUsdx(BigInt(baseUnits)));

/** The exact balance, for a cell's title. */
export const exactBalance = (baseUnits: string) => `${groupDigits(exactTokenAmount(BigInt(baseUnits)))} USDX`;

/**
 * The server's share of supply (a fraction with up to 8 decimals, "0.0125") as a percentage with
 * 4 decimals, rounded down ("1.2500%"); a share too small to show reads "<0.0001%", not "0.0000%".
 */
export function shownShare(fraction: string): string {
  const [whole, decimals = ""] = fraction.split(".");
  const hundredMillionths = BigInt(whole) * 10n ** 8n + BigInt(decimals.padEnd(8, "0").slice(0, 8) || "0");
  const tenThousandthsOfPercent = hundredMillionths / 100n; // percent with 4 decimals, as a whole number
  if (tenThousandthsOfPercent === 0n) return hundredMillionths === 0n ? "0%" : "<0.0001%";
  const digits = tenThousandthsOfPercent.toString().padStart(5, "0");
  return `${digits.slice(0, -4)}.${digits.slice(-4)}%`;
}
