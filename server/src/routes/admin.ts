import { Router } from "express";
import { z } from "zod";
import { exactTokenAmount, parseTokenAmount } from "../../../common/amounts";
import { MULTIPLIER_BASE } from "../../../common/token";
import { MAX_UINT256 } from "../services/batchRecipients";
import { currentUser, requireAdmin, requireUser } from "../middleware/auth";
import { parse } from "../middleware/validate";
import { badRequest } from "../errors";
import type { Services } from "../services";

const multiplierBody = z.object({
  value: z.string().max(80),
  operation: z.enum(["set", "add"], { message: "must be 'set' or 'add'" }),
});

const auditQuery = z.object({
  limit: z.string().regex(/^\d{1,4}$/).transform(Number).pipe(z.number().min(1).max(500)).default(100),
  // An entry id: a Postgres integer, so a larger number is refused here rather than by the database (a 500).
  before: z.string().regex(/^\d{1,10}$/).transform(Number).pipe(z.number().max(2_147_483_647)).optional(),
});

/** POST /api/reward-multiplier (the request, audited; the change itself is the oracle's transaction) and GET /api/audit. */
export function adminRoutes(services: Services): Router {
  const router = Router();
  const signedIn = requireUser(services.auth);

  router.post("/reward-multiplier", signedIn, async (req, res) => {
    const body = parse(multiplierBody, req.body, "body");
    let value: bigint;
    try {
      value = parseTokenAmount(body.value);
    } catch (error) {
      throw badRequest(`Invalid value: ${(error as Error).message}. Please enter a valid positive number.`);
    }
    if (value === 0n) throw badRequest("Invalid value: Please enter a valid positive number.");
    if (value > MAX_UINT256) throw badRequest("Invalid value: the number is larger than the contract can hold (2^256 - 1 in 18-decimal units).");
    if (body.operation === "set" && value < MULTIPLIER_BASE) {
      throw badRequest("Invalid value: the reward multiplier cannot be set below 1.0.");
    }
    const entry = await services.audit.record(currentUser(res), "reward-multiplier", {
      operation: body.operation,
      value: exactTokenAmount(value),
      valueRaw: value.toString(),
    });
    res.status(201).json({ success: true, id: entry.id });
  });

  router.get("/audit", signedIn, requireAdmin, async (req, res) => {
    const query = parse(auditQuery, req.query, "query");
    res.json({ success: true, entries: await services.audit.list(query.limit, query.before) });
  });

  return router;
}
