import { desc, inArray } from "drizzle-orm";
import type { Database } from "../../db/client";
import { auditLog } from "../../db/schema";
import type { Logger } from "../../lib/logger";
import type { AuditService } from "./audit";
import type { AuthProvider } from "./firebaseAuth";
import { ADMIN_REMOVED, ADMIN_SIGNED_IN, walletUid } from "./walletSessions";

/**
 * At start: every wallet that signed in as an admin (the audit log's admin sign-ins) and is no
 * longer in ADMIN_WALLETS has its refresh tokens revoked, so its sessions end everywhere (the auth
 * middleware refuses revoked ID tokens), and an 'admin-removed' entry says so. A wallet whose
 * revocation fails keeps its sign-in as the latest entry and is tried again at the next start;
 * meanwhile the per-request check (isListedAdmin) already refuses it every admin route.
 * Answers the wallets whose sessions were ended.
 */
export async function endRemovedAdminSessions(
  db: Database,
  auth: AuthProvider,
  audit: AuditService,
  adminWallets: readonly string[],
  log: Logger,
): Promise<string[]> {
  // The latest of the two actions per wallet: admin-sign-in means its sessions may still hold the claim.
  const latest = await db
    .selectDistinctOn([auditLog.wallet], { wallet: auditLog.wallet, action: auditLog.action })
    .from(auditLog)
    .where(inArray(auditLog.action, [ADMIN_SIGNED_IN, ADMIN_REMOVED]))
    .orderBy(auditLog.wallet, desc(auditLog.id));
  const listed = new Set(adminWallets.map((wallet) => wallet.toLowerCase()));
  const removed = latest.flatMap(({ wallet, action }) =>
    wallet && action === ADMIN_SIGNED_IN && !listed.has(wallet.toLowerCase()) ? [wallet] : [],
  );
  const ended: string[] = [];
  for (const wallet of removed) {
    const uid = walletUid(wallet);
    try {
      await auth.revokeSessions(uid);
    } catch (error) {
      log.error(
        { wallet, err: (error as Error).message },
        "Could not end the sessions of a wallet removed from ADMIN_WALLETS: tried again at the next start",
      );
      continue;
    }
    await audit.record({ uid, email: null, wallet, admin: false }, ADMIN_REMOVED, {
      reason: "no longer in ADMIN_WALLETS",
      sessionsRevoked: true,
    });
    log.warn({ wallet }, "A wallet removed from ADMIN_WALLETS: its sessions were ended");
    ended.push(wallet);
  }
  return ended;
}
