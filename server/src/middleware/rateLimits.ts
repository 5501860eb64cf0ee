import type { Request, Response } from "express";
import { rateLimit } from "express-rate-limit";
import { sendError } from "../lib/errors";
import type { RateLimitStores } from "../services/operations/rateLimitStore";
import { currentUser } from "./auth";

// Every limit counts in the database (services/operations/rateLimitStore.ts), so it holds across replicas.
// `name` keeps each limit's count its own: two limits never share a budget. It also labels the
// limit's refusals in /api/metrics, so it is a fixed word, never anything from the request.

/** At most `perMinute` requests a minute from one address, then a JSON 429 that says what was limited. */
function perMinuteLimit(stores: RateLimitStores, name: string, perMinute: number, what: string) {
  return rateLimit({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: "draft-8",
    legacyHeaders: false,
    store: stores.store(name),
    handler: (_req, res) => {
      stores.refused(name);
      sendError(res, 429, `Too many ${what} from this address: wait a minute and try again.`);
    },
  });
}

/** Sign-in endpoints (nonce, wallet-auth). */
export const authRateLimit = (stores: RateLimitStores, perMinute: number) => perMinuteLimit(stores, "auth", perMinute, "sign-in requests");

/** CSV endpoints (batch parse, contacts import): each reads up to a megabyte of text. `name` says which (each has its own budget). */
export const csvRateLimit = (stores: RateLimitStores, name: string, perMinute: number) =>
  perMinuteLimit(stores, name, perMinute, "CSV uploads");

/**
 * At most `perMinute` requests a minute from one signed-in user (keyed on the verified uid, so a
 * user cannot spread over addresses, and users behind one address do not share a budget).
 * Mount after requireUser. `what` names the action: 'Too many {what}: wait a minute and try again.'
 */
export function perUserRateLimit(stores: RateLimitStores, name: string, perMinute: number, what: string) {
  return rateLimit({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: "draft-8",
    legacyHeaders: false,
    store: stores.store(name),
    keyGenerator: (_req: Request, res: Response) => `uid:${currentUser(res).uid}`,
    handler: (_req, res) => {
      stores.refused(name);
      sendError(res, 429, `Too many ${what}: wait a minute and try again.`);
    },
  });
}
