import { getAddress } from "ethers";
import type { SessionUser } from "./firebaseAuth";
import type { SafeReader } from "../safes/reader";
import type { TokenStateService } from "../indexing/tokenState";
import { walletUid } from "./walletSessions";

/** How a session's wallet may change the reward multiplier: it holds ORACLE_ROLE, or owns a Safe that does. */
export type OracleWay = { wallet: string; via: "ORACLE_ROLE" } | { wallet: string; via: "Safe"; safe: string };

/**
 * Whether the session is the oracle's: a wallet sign-in (the uid SIWE gives that wallet, as
 * isListedAdmin asks) whose wallet holds ORACLE_ROLE now (the index's holders, confirmed on chain)
 * or owns a Safe that holds it (read at the latest block). An email session proves no wallet: null.
 */
export async function oracleWay(
  user: SessionUser,
  tokenState: Pick<TokenStateService, "roles">,
  safes: Pick<SafeReader, "list">,
): Promise<OracleWay | null> {
  if (!user.wallet || user.uid !== walletUid(user.wallet)) return null;
  const wallet = getAddress(user.wallet.toLowerCase());
  const same = (a: string) => a.toLowerCase() === wallet.toLowerCase();
  const oracles = (await tokenState.roles()).find((role) => role.roleName === "ORACLE_ROLE")?.holders ?? [];
  if (oracles.some(same)) return { wallet, via: "ORACLE_ROLE" };
  const owned = (await safes.list()).find((safe) => safe.roles.includes("ORACLE_ROLE") && safe.owners.some(same));
  return owned ? { wallet, via: "Safe", safe: owned.address } : null;
}
