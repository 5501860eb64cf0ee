import { and, count, eq, lte, ne } from "drizzle-orm";
import type { NewBankAccount } from "@common/api/bankInput";
import type { BankAccount } from "@common/apiTypes";
import type { BankConfig } from "../../config";
import type { Database } from "../../db/client";
import { bankAccounts, deposits } from "../../db/schema";
import { conflict, notFound } from "../../lib/errors";
import { REMOVED, accountView, lock } from "./shared";

/** Mock bank accounts: pending, then verified once verifyAt passes; at most `maxAccounts` per user. */
export class BankAccounts {
  constructor(
    private readonly db: Database,
    private readonly options: Pick<BankConfig, "verifyMs" | "maxAccounts">,
  ) {}

  async list(uid: string): Promise<BankAccount[]> {
    await this.verifyDue(uid);
    const rows = await this.db
      .select()
      .from(bankAccounts)
      .where(and(eq(bankAccounts.uid, uid), ne(bankAccounts.status, REMOVED)))
      .orderBy(bankAccounts.createdAt, bankAccounts.id);
    return rows.map(accountView);
  }

  async add(uid: string, input: NewBankAccount): Promise<BankAccount> {
    // The numbers' digits are the declaration's to check (common/api/bankInput.ts), trimmed there.
    const name = input.name.trim();
    const { accountNumber } = input;
    const row = await this.db.transaction(async (tx) => {
      // One user's additions one at a time, so two at once cannot both take the last place.
      await lock(tx, "bankAccounts", uid);
      const [{ held }] = await tx
        .select({ held: count() })
        .from(bankAccounts)
        .where(and(eq(bankAccounts.uid, uid), ne(bankAccounts.status, REMOVED)));
      if (held >= this.options.maxAccounts) {
        throw conflict(
          `Bank Account Limit Reached: you have ${held} mock bank accounts, the most one user may keep (${this.options.maxAccounts}); remove one to add another.`,
        );
      }
      const now = new Date();
      // Only the last four digits are kept: the full numbers are never stored.
      const [inserted] = await tx
        .insert(bankAccounts)
        .values({
          uid,
          name,
          type: input.type,
          lastFour: accountNumber.slice(-4),
          status: "pending",
          createdAt: now,
          verifyAt: new Date(now.getTime() + this.options.verifyMs),
        })
        .returning();
      return inserted;
    });
    return accountView(row);
  }

  /** Removes an account; one that past deposits name is hidden instead, so their history keeps its name. */
  async remove(uid: string, id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [account] = await tx
        .select()
        .from(bankAccounts)
        .where(and(eq(bankAccounts.id, id), eq(bankAccounts.uid, uid), ne(bankAccounts.status, REMOVED)))
        .for("update");
      if (!account) throw notFound(`Bank account ${id} was not found among your bank accounts.`);
      const named = await tx.select({ id: deposits.id, status: deposits.status }).from(deposits).where(eq(deposits.bankAccountId, id));
      if (named.some((d) => d.status === "pending" || d.status === "processing")) {
        throw conflict(
          `Cannot Remove Bank Account: '${account.name}' has a deposit in progress; remove it once the deposit has completed or failed.`,
        );
      }
      if (named.length > 0) await tx.update(bankAccounts).set({ status: REMOVED }).where(eq(bankAccounts.id, id));
      else await tx.delete(bankAccounts).where(eq(bankAccounts.id, id));
    });
  }

  /** pending → verified for every account (or one user's) whose verifyAt has passed. */
  async verifyDue(uid?: string): Promise<void> {
    const now = new Date();
    await this.db
      .update(bankAccounts)
      .set({ status: "verified", verifiedAt: now })
      .where(and(eq(bankAccounts.status, "pending"), lte(bankAccounts.verifyAt, now), uid ? eq(bankAccounts.uid, uid) : undefined));
  }
}
