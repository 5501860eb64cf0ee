import { rateLimit } from "express-rate-limit";

/** Sign-in endpoints: `perMinute` requests a minute from one address, then a JSON 429. */
export function authRateLimit(perMinute: number) {
  return rateLimit({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: "draft-8",
    legacyHeaders: false,
    handler: (_req, res) => {
      res.status(429).json({ success: false, error: "Too many sign-in requests from this address: wait a minute and try again." });
    },
  });
}
