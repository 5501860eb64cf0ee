import { Router } from "express";
import { currentUser, requireUser } from "../middleware/auth";
import { authRateLimit } from "../middleware/rateLimits";
import type { Services } from "../services";
import { declaredRoutes } from "./declared";

/** Wallet sign-in (SIWE, common/api/signIn.ts): POST /api/auth/nonce, POST /api/auth/wallet-auth; GET /api/auth/me. */
export function authRoutes(services: Services): Router {
  const router = Router();
  const on = declaredRoutes(router, "/api/auth");
  const limited = authRateLimit(services.rateLimits);

  on("POST /api/auth/nonce", [limited], async () => ({ success: true, ...(await services.siwe.issueNonce()) }));
  on("POST /api/auth/wallet-auth", [limited], async ({ body }) => ({ success: true, ...(await services.siwe.signIn(body)) }));
  on("GET /api/auth/me", [requireUser(services.auth)], (_input, res) => ({ success: true, user: currentUser(res) }));

  return router;
}
