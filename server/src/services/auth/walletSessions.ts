/** Who a wallet session is, and whether it is an admin's: shared by sign-in, token checks and the start. */

/** The uid of a wallet's Firebase account: one account per address, whatever its letter case. */
export function walletUid(address: string): string {
  return `wallet:${address.toLowerCase()}`;
}

/** Audit actions that say who held the admin claim: a listed wallet's sign-in, and its sessions ended once it was no longer listed. */
export const ADMIN_SIGNED_IN = "admin-sign-in";
export const ADMIN_REMOVED = "admin-removed";

/**
 * Whether a session is an admin's now: a wallet sign-in (the uid SIWE gives that wallet) whose
 * wallet the running server's ADMIN_WALLETS lists. The token's own `admin` claim is not asked: it
 * was set at sign-in and outlives a wallet's removal from the list.
 */
export function isListedAdmin(uid: string, wallet: string | null, adminWallets: readonly string[]): boolean {
  if (!wallet || uid !== walletUid(wallet)) return false;
  return adminWallets.some((listed) => listed.toLowerCase() === wallet.toLowerCase());
}
