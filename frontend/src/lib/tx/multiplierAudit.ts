import { exactTokenAmount } from "@common/amounts";
import type { MultiplierOperation } from "@common/token";
import { call } from "@/lib/api";
import { useSession } from "@/lib/auth/session";
import { useWallet } from "@/lib/wallet/store";

/**
 * Whether this session may record the change: a wallet sign-in (SIWE) whose wallet is the
 * connected one about to send. The server records only the oracle's wallet session (it holds
 * ORACLE_ROLE, or owns a Safe that does) and refuses any other with a 403; an email session
 * proves no wallet, so it is not asked at all (a refusal would only be noise in the console).
 */
export function sessionMayRecord(): boolean {
  const wallet = useSession.getState().user?.wallet;
  const connected = useWallet.getState().address;
  return !!wallet && !!connected && wallet.toLowerCase() === connected.toLowerCase();
}

/**
 * POST /api/reward-multiplier {value, operation}: the audit entry PRODUCT.md section 7 sends before
 * the on-chain update, from the Dashboard's dialog and quick add and the Admin Panel alike, when
 * the session is the sending wallet's (sessionMayRecord). Its answer is ignored: the oracle's
 * transaction, not the audit log, changes the multiplier, so a server that is down or refuses
 * must not stop it.
 */
export async function recordMultiplierRequest(operation: MultiplierOperation, value: bigint): Promise<void> {
  if (!sessionMayRecord()) return;
  try {
    await call("POST /api/reward-multiplier", { body: { value: exactTokenAmount(value), operation } });
  } catch {
    /* ignored, as specified */
  }
}
