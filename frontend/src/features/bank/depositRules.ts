import { parseTokenAmount } from "@common/amounts";
import { TOKEN_DECIMALS } from "@common/token";
import type { Problem } from "@/lib/validation";
import type { BankAccount, BankTerms } from "./api";
import { usd } from "./format";

/** US dollars have cents: two decimals. */
const USD_DECIMALS = 2;
const CENT_IN_BASE_UNITS = 10n ** BigInt(TOKEN_DECIMALS - USD_DECIMALS);

const invalid = (description: string): { ok: false; problem: Problem } => ({
  ok: false,
  problem: { title: "Invalid Deposit", description },
});

/** An amount a person typed, in cents; null when it is not a plain dollar amount. */
export function parseCents(input: string): bigint | null {
  try {
    return parseTokenAmount(input, USD_DECIMALS);
  } catch {
    return null;
  }
}

/**
 * PRODUCT.md section 5, Mock deposit: a verified source account and an amount greater than 0 ('Invalid
 * Deposit'). The dollar format and the limit come from the server's terms, which checks them again.
 */
export function checkDeposit(
  account: BankAccount | undefined,
  amountInput: string,
  terms: Pick<BankTerms, "maxDeposit"> | undefined,
): { ok: true; value: { account: BankAccount; amount: string } } | { ok: false; problem: Problem } {
  if (!account) return invalid("Please choose the bank account to deposit from.");
  if (account.status !== "verified") return invalid(`${account.name} is still being verified; you can deposit from it in a few seconds.`);
  const text = amountInput.trim();
  if (!text) return invalid("Please enter the amount to deposit, in US dollars.");
  const cents = parseCents(text);
  if (cents === null) {
    return invalid(
      /^\d*\.\d{3,}$/.test(text)
        ? "A US dollar amount has at most 2 decimals (cents)."
        : "Please enter an amount greater than 0, such as 125.50.",
    );
  }
  if (cents === 0n) return invalid("Please enter an amount greater than 0.");
  const max = terms ? parseCents(terms.maxDeposit) : null;
  if (max !== null && cents > max) return invalid(`A mock deposit is at most ${usd(terms!.maxDeposit)}.`);
  return { ok: true, value: { account, amount: text } };
}

/** What the wallet receives for `amountInput` dollars under the terms: (amount - fee) x rate, in USDX base units. */
export function receivedUsdx(amountInput: string, terms: Pick<BankTerms, "fee" | "rate">): bigint | null {
  const cents = parseCents(amountInput);
  const fee = parseCents(terms.fee);
  if (cents === null || fee === null || cents <= fee) return cents === null ? null : 0n;
  const rate = parseTokenAmount(terms.rate);
  return ((cents - fee) * CENT_IN_BASE_UNITS * rate) / 10n ** BigInt(TOKEN_DECIMALS);
}
