import { exactTokenAmount } from "@common/amounts";
import type { MultiplierOperation } from "@common/token";
import { call } from "@/lib/api";

/**
 * POST /api/reward-multiplier {value, operation}: the audit entry PRODUCT.md section 7 sends before
 * the on-chain update, from the Dashboard's dialog and quick add and the Admin Panel alike. Its
 * answer is ignored: the oracle's transaction, not the audit log, changes the multiplier, so a
 * server that is down or refuses must not stop it.
 */
export async function recordMultiplierRequest(operation: MultiplierOperation, value: bigint): Promise<void> {
  try {
    await call("POST /api/reward-multiplier", { body: { value: exactTokenAmount(value), operation } });
  } catch {
    /* ignored, as specified */
  }
}
