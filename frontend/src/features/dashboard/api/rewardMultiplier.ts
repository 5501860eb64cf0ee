import { exactTokenAmount } from "@common/amounts";
import { call } from "@/lib/api";

/**
 * PRODUCT.md section 7: POST /api/reward-multiplier {value, operation} goes to the server before the
 * on-chain update, and its result is ignored (PRODUCT.md section 7: it is an audit entry; the change itself
 * is the oracle's transaction, so a server that is down must not stop it).
 */
export async function recordMultiplierRequest(operation: "set" | "add", value: bigint): Promise<void> {
  try {
    await call("POST /api/reward-multiplier", { body: { value: exactTokenAmount(value), operation } });
  } catch {
    /* ignored, as the spec says */
  }
}
