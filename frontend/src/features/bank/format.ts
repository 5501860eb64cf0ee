import { formatUsdx, groupDigits } from "@/lib/format";

export { groupDigits };

/** A dollar amount as the server writes it ("25.00") as the screen shows it: "$25.00". */
export const usd = (amount: string) => `$${groupDigits(amount)}`;

/** USDX base units as the screen shows them: "25.00 USDX". */
export const usdx = (raw: bigint | string) => `${groupDigits(formatUsdx(BigInt(raw)))} USDX`;

/** An ISO time as Unix seconds, for relativeTime. */
export const isoSeconds = (iso: string) => Date.parse(iso) / 1000;

/** Only the last four digits of a bank account are known. */
export const maskedNumber = (lastFour: string) => `••••${lastFour}`;
