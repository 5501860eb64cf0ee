import { Router } from "express";
import { EVENT_FILTERS, resolveEventName } from "@common/events";
import { badRequest } from "../lib/errors";
import type { Services } from "../services";
import { declaredRoutes } from "./declared";

/** Reads of the token and its events (common/api/token.ts): GET /api/token, /events, /accounts/:address/history, /roles, /blocklist, /stats/supply. */
export function chainReadRoutes(services: Services): Router {
  const router = Router();
  const on = declaredRoutes(router, "/api");

  on("GET /api/token", [], () => services.tokenState.token());

  on("GET /api/events", [], ({ query }) => services.events.list({ ...query, eventName: eventNameOf(query.eventName) }));

  // The address is checked before the query (path parameters come first), by the one address rule (common/api/schemas.ts).
  on("GET /api/accounts/:address/history", [], ({ params, query }) => services.events.history(params.address, query.limit, query.cursor));

  on("GET /api/roles", [], async () => ({ roles: await services.tokenState.roles() }));
  on("GET /api/blocklist", [], async () => ({ blocked: await services.tokenState.blocklist() }));
  on("GET /api/stats/supply", [], async ({ query }) => ({ points: await services.tokenState.supplyHistory(query.points) }));

  return router;
}

/** The stored event name for a filter label or event name (null: every event), or a 400 listing the filters; GET /api/events and its export read it alike. */
export function eventNameOf(input: string | undefined): string | null {
  if (input === undefined) return null;
  const resolved = resolveEventName(input);
  if (resolved === undefined) throw badRequest(`Unknown eventName '${input}': use one of ${EVENT_FILTERS.map((f) => f.label).join(", ")}.`);
  return resolved;
}
