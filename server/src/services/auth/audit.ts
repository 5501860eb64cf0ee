import { desc, lt } from "drizzle-orm";
import type { Database } from "../../db/client";
import { auditLog } from "../../db/schema";
import type { SessionUser } from "./firebaseAuth";

export type { AuditEntry } from "@common/api/administration";
import type { AuditEntry } from "@common/api/administration";

/** The audit log of admin actions requested through the dashboard. */
export class AuditService {
  constructor(private readonly db: Database) {}

  async record(user: SessionUser, action: string, details: Record<string, unknown>): Promise<AuditEntry> {
    const [row] = await this.db
      .insert(auditLog)
      .values({ uid: user.uid, email: user.email, wallet: user.wallet, action, details })
      .returning();
    return { ...row, createdAt: row.createdAt.toISOString() };
  }

  /** Newest first; `before` is the id of the last entry of the previous page. */
  async list(limit: number, before?: number): Promise<AuditEntry[]> {
    const rows = await this.db
      .select()
      .from(auditLog)
      .where(before !== undefined ? lt(auditLog.id, before) : undefined)
      .orderBy(desc(auditLog.id))
      .limit(limit);
    return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
  }
}
