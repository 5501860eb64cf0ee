import { Router } from "express";
import { isValidAddress } from "@common/addresses";
import { EVENT_FILTERS, resolveEventName } from "@common/events";
import { quoted } from "../middleware/errorHandler";
import { badRequest } from "../errors";
import type { Services } from "../services";
import { declaredRoutes } from "./declared";

/** Reads of the token and its events (common/api/token.ts): GET /api/token, /events, /accounts/:address/history, /roles, /blocklist, /stats/supply. */
export function chainReadRoutes(services: Services): Router {
  const router = Router();
  const on = declaredRoutes(router, "/api");

  on("GET /api/token", [], () => services.tokenState.token());

  on("GET /api/events", [], ({ query }) => {
    let eventName: string | null = null;
    if (query.eventName !== undefined) {
      const resolved = resolveEventName(query.eventName);
      if (resolved === undefined) {
        throw badRequest(`Unknown eventName '${query.eventName}': use one of ${EVENT_FILTERS.map((f) => f.label).join(", ")}.`);
      }
      eventName = resolved;
    }
    return services.events.list({ ...query, eventName });
  });

  on(
    "GET /api/accounts/:address/history",
    [
      // The address is checked before the query, in words of its own.
      (req, _res, next) => {
        const address = String(req.params.address);
        next(isValidAddress(address) ? undefined : badRequest(`'${quoted(address, 100)}' is not a valid address: it must be 0x followed by 40 hex characters.`));
      },
    ],
    ({ params, query }) => services.events.history(params.address, query.limit, query.cursor),
  );

  on("GET /api/roles", [], async () => ({ roles: await services.tokenState.roles() }));
  on("GET /api/blocklist", [], async () => ({ blocked: await services.tokenState.blocklist() }));
  on("GET /api/stats/supply", [], async ({ query }) => ({ points: await services.tokenState.supplyHistory(query.points) }));

  return router;
}
