import { Router } from "express";
import { exactTokenAmount, parseTokenAmount } from "@common/amounts";
import { multiplierRefusal } from "@common/token";
import { currentUser, requireAdmin, requireUser } from "../middleware/auth";
import { badRequest } from "../lib/errors";
import type { Services } from "../services";
import { declaredRoutes } from "./declared";

/** POST /api/reward-multiplier (the request, audited; the change itself is the oracle's transaction) and GET /api/audit (common/api/administration.ts). */
export function adminRoutes(services: Services): Router {
  const router = Router();
  const on = declaredRoutes(router, "/api");
  const signedIn = requireUser(services.auth);

  on("POST /api/reward-multiplier", [signedIn], async ({ body }, res) => {
    let value: bigint;
    try {
      value = parseTokenAmount(body.value);
    } catch (error) {
      throw badRequest(`Invalid value: ${(error as Error).message}. Please enter a valid positive number.`);
    }
    // The contract's own rule (common/token.ts), so the audit log holds only changes it could make.
    const refusal = multiplierRefusal(body.operation, value);
    if (refusal === "not positive") throw badRequest("Invalid value: Please enter a valid positive number.");
    if (refusal === "too large")
      throw badRequest("Invalid value: the number is larger than the contract can hold (2^256 - 1 in 18-decimal units).");
    if (refusal === "below 1.0") throw badRequest("Invalid value: the reward multiplier cannot be set below 1.0.");
    const entry = await services.audit.record(currentUser(res), "reward-multiplier", {
      operation: body.operation,
      value: exactTokenAmount(value),
      valueRaw: value.toString(),
    });
    return { success: true, id: entry.id };
  });

  on("GET /api/audit", [signedIn, requireAdmin], async ({ query }) => ({
    success: true,
    entries: await services.audit.list(query.limit, query.before),
  }));

  return router;
}
