import type { Request, Response } from "express";
import { ipKeyGenerator, rateLimit } from "express-rate-limit";
import { sendError } from "../lib/errors";
import type { RateLimitName, RateLimitStores } from "../services/operations/rateLimitStore";
import { currentUser } from "./auth";

// Every limit counts in the database (services/operations/rateLimitStore.ts), so it holds across replicas.
// `name` keeps each limit's count its own: two limits never share a budget. It also labels the
// limit's refusals in /api/metrics, so it is a fixed word, never anything from the request. How
// many requests a minute it allows is the stores' (set at start from the settings).

/**
 * The client's address as every per-address limit keys it: Express's req.ip (TRUST_PROXY decides
 * whose X-Forwarded-For names it), an IPv6 address by its /56 like express-rate-limit's own keys,
 * so one host cannot walk through its subnet.
 */
export const clientAddress = (req: Request): string => ipKeyGenerator(req.ip ?? "");

/** At most the limit's requests a minute from one address, then a JSON 429 that says what was limited. */
function perMinuteLimit(stores: RateLimitStores, name: RateLimitName, what: string) {
  return rateLimit({
    windowMs: 60_000,
    limit: stores.perMinute(name),
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
export const authRateLimit = (stores: RateLimitStores) => perMinuteLimit(stores, "auth", "sign-in requests");

/** CSV endpoints (batch parse, contacts import): each reads up to a megabyte of text. `name` says which (each has its own budget). */
export const csvRateLimit = (stores: RateLimitStores, name: "csv-batch" | "csv-contacts") => perMinuteLimit(stores, name, "CSV uploads");

/**
 * At most the limit's requests a minute from one signed-in user (keyed on the verified uid, so a
 * user cannot spread over addresses, and users behind one address do not share a budget).
 * Mount after requireUser. `what` names the action: 'Too many {what}: wait a minute and try again.'
 */
export function perUserRateLimit(stores: RateLimitStores, name: RateLimitName, what: string) {
  return rateLimit({
    windowMs: 60_000,
    limit: stores.perMinute(name),
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
