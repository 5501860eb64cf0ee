import { Router } from "express";
import { requireUser } from "../middleware/auth";
import type { Services } from "../services";
import { declaredRoutes } from "./declared";

/** /api/holders and /api/rewards (common/api/holders.ts; the export is routes/exports.ts'): signed-in users only. Mounted at /api beside other groups, so sign-in is per route. */
export function holderRoutes(services: Services): Router {
  const router = Router();
  const on = declaredRoutes(router, "/api");
  const signedIn = requireUser(services.auth);

  on("GET /api/holders", [signedIn], ({ query }) => services.holders.page(query));

  on("GET /api/rewards/:address", [signedIn], ({ params }) => services.rewards.rewards(params.address));

  return router;
}
