import { formatTokenAmount } from "@common/amounts";
import type { BankAccount, BankAccountType, Deposit, DepositStatus } from "@common/apiTypes";
import { TOKEN_DECIMALS } from "@common/token";
import type { Database } from "../../db/client";
import { xactLock } from "../../db/locks";
import { bankAccounts, bankWallets, deposits } from "../../db/schema";

/** PRODUCT.md section 9: no fee, 1 USD = 1 USDX. */
export const DEPOSIT_FEE = "0.00";
export const USD_PER_USDX = "1";
export const USD_IN_BASE_UNITS = 10n ** BigInt(TOKEN_DECIMALS);

/** Removed accounts that deposits still name stay as rows with this status, out of every list. */
export const REMOVED = "removed";

export type AccountRow = typeof bankAccounts.$inferSelect;
export type WalletRow = typeof bankWallets.$inferSelect;
export type DepositRow = typeof deposits.$inferSelect;
export type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** Base units as dollars and cents with thousands separators: '1,000.00' (rounded down). */
export function dollars(baseUnits: bigint): string {
  const [whole, cents] = formatTokenAmount(baseUnits, 2).split(".");
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}.${cents}`;
}

/** A transaction-scoped lock of `kind` on `key` (db/locks.ts): held until the transaction ends. */
export async function lock(tx: Tx, kind: "bankAccounts" | "bankWallets" | "bankFaucet", key?: string): Promise<void> {
  await tx.execute(xactLock(kind, key));
}

export function accountView(row: AccountRow): BankAccount {
  return {
    id: row.id,
    name: row.name,
    type: row.type as BankAccountType,
    lastFour: row.lastFour,
    status: row.status as "pending" | "verified",
    createdAt: row.createdAt.toISOString(),
    verifyAt: row.verifyAt.toISOString(),
    verifiedAt: row.verifiedAt?.toISOString() ?? null,
  };
}

export function depositView(row: DepositRow, account: AccountRow): Deposit {
  const raw = BigInt(row.amount);
  return {
    id: row.id,
    amount: formatTokenAmount(raw, 2),
    amountRaw: row.amount,
    fee: DEPOSIT_FEE,
    rate: USD_PER_USDX,
    status: row.status as DepositStatus,
    timestamp: row.createdAt.toISOString(),
    processingAt: row.processingAt.toISOString(),
    completeAt: row.completeAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
    walletAddress: row.walletAddress,
    txHash: row.txHash,
    error: row.error,
    bankAccount: { id: account.id, name: account.name, lastFour: account.lastFour },
  };
}
