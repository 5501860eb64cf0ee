import { Router, type RequestHandler } from "express";
import { currentUser, requireUser } from "../middleware/auth";
import { perUserRateLimit } from "../middleware/rateLimits";
import type { Services } from "../services";
import { declaredRoutes, VALIDATE } from "./declared";

/**
 * /api/safes (common/api/safes.ts): writes proposed to Safes that hold USDX roles, owners'
 * approvals, and what became of each. Signed-in users only; the signatures, not the sign-in, say
 * which owner acts. The server stores and counts; an owner's wallet executes.
 */
export function safeRoutes(services: Services): Router {
  const router = Router();
  const on = declaredRoutes(router, "/api/safes");
  const signedIn = requireUser(services.auth);
  const { safes } = services;
  // Each write costs a dozen chain reads and a simulation: one budget for both, per user.
  const perMinute = services.rateLimits.perMinute("safe-writes");
  const writeLimit = perUserRateLimit(services.rateLimits, "safe-writes", `Safe proposals and approvals (at most ${perMinute} a minute)`);

  on("GET /api/safes", [signedIn], async () => ({ success: true, safes: await safes.safes() }));

  // The Safes the dashboard shows are read from the shared cache; any other address is a fresh chain
  // read (a cache keyed by address does not hold against many addresses), so those count per user.
  const lookups = perUserRateLimit(
    services.rateLimits,
    "safe-lookups",
    `reads of addresses that are no Safe the dashboard shows (at most ${services.rateLimits.perMinute("safe-lookups")} a minute)`,
  );
  const lookupLimit: RequestHandler = (req, res, next) => {
    safes
      .known(String(req.params.safe))
      .then((known) => (known ? next() : lookups(req, res, next)))
      .catch(next);
  };

  on("GET /api/safes/:safe/proposals", [signedIn, VALIDATE, lookupLimit], async ({ params }) => ({
    success: true,
    ...(await safes.proposals(params.safe)),
  }));

  // Checked before the limit: a malformed body costs nothing and is not counted.
  on("POST /api/safes/:safe/proposals", [signedIn, VALIDATE, writeLimit], async ({ params, body }, res) => ({
    success: true,
    proposal: await safes.propose(currentUser(res), params.safe, body),
  }));

  on("POST /api/safes/:safe/proposals/:hash/approvals", [signedIn, VALIDATE, writeLimit], async ({ params, body }, res) => ({
    success: true,
    proposal: await safes.approve(currentUser(res), params.safe, params.hash, body.signature),
  }));

  return router;
}
