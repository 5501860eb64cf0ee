import { Router } from "express";
import { z } from "zod";
import { isValidAddress, parseAddress } from "../../../common/addresses";
import { currentUser, requireUser } from "../middleware/auth";
import { authRateLimit } from "../middleware/rateLimits";
import { parse } from "../middleware/validate";
import type { Services } from "../services";

const walletAuthBody = z.object({
  address: z
    .string()
    .refine(isValidAddress, "must be 0x followed by 40 hex characters")
    // Mixed case must be a right EIP-55 checksum; the service's getAddress would throw (a 500) on a wrong one.
    .refine((a) => !isValidAddress(a) || hasValidChecksum(a), "has a wrong checksum (mixed upper and lower case that does not match)"),
  message: z.string().min(1, "is empty").max(4000, "is longer than a sign-in message can be"),
  signature: z.string().regex(/^0x[0-9a-fA-F]{130}$/, "must be a 65-byte hex signature"),
});

function hasValidChecksum(address: string): boolean {
  try {
    parseAddress(address);
    return true;
  } catch {
    return false;
  }
}

/** Wallet sign-in (SIWE): POST /api/auth/nonce, POST /api/auth/wallet-auth; GET /api/auth/me. */
export function authRoutes(services: Services): Router {
  const router = Router();
  const limited = authRateLimit(services.rateLimits, services.config.rateLimits.authPerMinute);

  router.post("/nonce", limited, async (_req, res) => {
    res.json({ success: true, ...(await services.siwe.issueNonce()) });
  });

  router.post("/wallet-auth", limited, async (req, res) => {
    const body = parse(walletAuthBody, req.body, "body");
    res.json({ success: true, ...(await services.siwe.signIn(body)) });
  });

  router.get("/me", requireUser(services.auth), (_req, res) => {
    res.json({ success: true, user: currentUser(res) });
  });

  return router;
}
