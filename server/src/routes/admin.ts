import { Router } from "express";
import { exactTokenAmount } from "@common/amounts";
import { currentUser, requireAdmin, requireUser } from "../middleware/auth";
import { forbidden } from "../lib/errors";
import { oracleWay } from "../services/auth/oracleSessions";
import type { Services } from "../services";
import { declaredRoutes } from "./declared";

/** The 403 of a session that cannot prove it may change the multiplier (an email one never can). */
export const NOT_THE_ORACLE =
  "Only a wallet that may change the reward multiplier (one holding ORACLE_ROLE, or an owner of a Safe that holds it) can record a change: sign in with that wallet (an email account cannot prove it holds the role).";

/** POST /api/reward-multiplier (the request, audited; the change itself is the oracle's transaction) and GET /api/audit (common/api/administration.ts). */
export function adminRoutes(services: Services): Router {
  const router = Router();
  const on = declaredRoutes(router, "/api");
  const signedIn = requireUser(services.auth);

  // The value arrives in base units, within the contract's rule (common/api/administration.ts checks it).
  on("POST /api/reward-multiplier", [signedIn], async ({ body: { value, operation } }, res) => {
    // Only who may change the multiplier records that they did: the oracle's wallet, signed in as itself.
    const user = currentUser(res);
    const oracle = await oracleWay(user, services.tokenState, services.safeReader);
    if (!oracle) throw forbidden(NOT_THE_ORACLE);
    const entry = await services.audit.record(user, "reward-multiplier", {
      operation,
      value: exactTokenAmount(value),
      valueRaw: value.toString(),
      ...oracle,
    });
    return { success: true, id: entry.id };
  });

  on("GET /api/audit", [signedIn, requireAdmin], async ({ query }) => ({
    success: true,
    entries: await services.audit.list(query.limit, query.before),
  }));

  return router;
}
