import { and, desc, eq, lte, ne } from "drizzle-orm";
import type { NewDeposit } from "@common/api/bankInput";
import type { Deposit } from "@common/apiTypes";
import type { BankConfig } from "../../config";
import type { Database } from "../../db/client";
import { bankAccounts, bankWallets, deposits } from "../../db/schema";
import { badRequest, forbidden, notFound } from "../../lib/errors";
import type { SessionUser } from "../auth/firebaseAuth";
import type { FaucetLimits } from "./faucet";
import { REMOVED, type WalletRow, depositView } from "./shared";
import { isProved } from "./wallets";

const DEPOSIT_LIST_LIMIT = 500;

/**
 * Deposits: pending, processing after processingMs, then minted by the worker once completeAt
 * passes. In faucet mode a deposit goes only to a proved wallet and within the daily caps.
 */
export class Deposits {
  constructor(
    private readonly db: Database,
    private readonly options: Pick<BankConfig, "mode" | "processingMs" | "completeMs">,
    /** The faucet's caps; null outside faucet mode. */
    private readonly faucet: FaucetLimits | null,
  ) {}

  async list(uid: string): Promise<Deposit[]> {
    await this.startDue(uid);
    const rows = await this.db
      .select({ deposit: deposits, account: bankAccounts })
      .from(deposits)
      .innerJoin(bankAccounts, eq(bankAccounts.id, deposits.bankAccountId))
      .where(eq(deposits.uid, uid))
      .orderBy(desc(deposits.createdAt), desc(deposits.id))
      .limit(DEPOSIT_LIST_LIMIT);
    return rows.map((r) => depositView(r.deposit, r.account));
  }

  async get(uid: string, id: number): Promise<Deposit> {
    await this.startDue(uid);
    const [row] = await this.db
      .select({ deposit: deposits, account: bankAccounts })
      .from(deposits)
      .innerJoin(bankAccounts, eq(bankAccounts.id, deposits.bankAccountId))
      .where(and(eq(deposits.id, id), eq(deposits.uid, uid)));
    if (!row) throw notFound(`Deposit ${id} was not found among your deposits.`);
    return depositView(row.deposit, row.account);
  }

  /**
   * Requests a deposit; the worker mints it once its completion time comes. The caller has verified
   * due accounts and adopted the sign-in wallet first.
   */
  async create(user: SessionUser, input: NewDeposit, clientIp: string): Promise<Deposit> {
    // In USDX base units: the declaration checked the dollars and converted them (common/api/bankInput.ts).
    const { amount } = input;
    const uid = user.uid;
    const { row, account } = await this.db.transaction(async (tx) => {
      // Locked so the account cannot be removed while this deposit is being added.
      const [account] = await tx
        .select()
        .from(bankAccounts)
        .where(and(eq(bankAccounts.id, input.bankAccountId), eq(bankAccounts.uid, uid), ne(bankAccounts.status, REMOVED)))
        .for("update");
      if (!account) throw notFound(`Invalid Deposit: bank account ${input.bankAccountId} was not found among your bank accounts.`);
      if (account.status !== "verified") {
        throw badRequest(
          `Invalid Deposit: the bank account '${account.name}' is not verified yet; you can deposit from it once it is verified, a few seconds after it was added.`,
        );
      }
      let wallet: WalletRow | undefined;
      if (input.walletId !== undefined) {
        [wallet] = await tx
          .select()
          .from(bankWallets)
          .where(and(eq(bankWallets.id, input.walletId), eq(bankWallets.uid, uid)));
        if (!wallet) throw notFound(`Invalid Deposit: wallet ${input.walletId} was not found among your wallets.`);
      } else {
        [wallet] = await tx
          .select()
          .from(bankWallets)
          .where(and(eq(bankWallets.uid, uid), eq(bankWallets.isPrimary, true)));
        if (!wallet) throw badRequest("Invalid Deposit: you have no wallet to receive the USDX; add one under My Wallets first.");
      }
      const now = new Date();
      if (this.faucet) {
        if (!isProved(wallet, user)) {
          throw forbidden(
            `Invalid Deposit: the wallet '${wallet.name}' (${wallet.address}) is not verified. The test faucet mints only to wallets you have proved you control: verify it under My Wallets by signing a message with it, or deposit to your sign-in wallet.`,
          );
        }
        // Last, just before the insert: the caps' lock is held from here until the commit.
        await this.faucet.check(tx, { uid, ip: clientIp }, amount, now);
      }
      const [row] = await tx
        .insert(deposits)
        .values({
          uid,
          bankAccountId: account.id,
          walletAddress: wallet.address,
          amount: amount.toString(),
          clientIp,
          status: "pending",
          createdAt: now,
          processingAt: new Date(now.getTime() + this.options.processingMs),
          completeAt: new Date(now.getTime() + this.options.completeMs),
        })
        .returning();
      return { row, account };
    });
    return depositView(row, account);
  }

  /** pending → processing for every deposit (or one user's) whose processingAt has passed. */
  async startDue(uid?: string): Promise<void> {
    await this.db
      .update(deposits)
      .set({ status: "processing" })
      .where(and(eq(deposits.status, "pending"), lte(deposits.processingAt, new Date()), uid ? eq(deposits.uid, uid) : undefined));
  }
}
