import { rateLimit } from "express-rate-limit";

/** At most `perMinute` requests a minute from one address, then a JSON 429 that says what was limited. */
function perMinuteLimit(perMinute: number, what: string) {
  return rateLimit({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: "draft-8",
    legacyHeaders: false,
    handler: (_req, res) => {
      res.status(429).json({ success: false, error: `Too many ${what} from this address: wait a minute and try again.` });
    },
  });
}

/** Sign-in endpoints (nonce, wallet-auth). */
export const authRateLimit = (perMinute: number) => perMinuteLimit(perMinute, "sign-in requests");

/** CSV endpoints (batch parse, contacts import): each reads up to a megabyte of text. */
export const csvRateLimit = (perMinute: number) => perMinuteLimit(perMinute, "CSV uploads");
