import { Router } from "express";
import type { Services } from "../services";
import { declaredRoutes } from "./declared";

/** Reads of the token and its events (common/api/token.ts): GET /api/token, /events, /accounts/:address/history, /roles, /blocklist, /stats/supply. */
export function chainReadRoutes(services: Services): Router {
  const router = Router();
  const on = declaredRoutes(router, "/api");

  on("GET /api/token", [], () => services.tokenState.token());

  on("GET /api/events", [], ({ query }) => services.events.list({ ...query, eventName: query.eventName ?? null }));

  // The address is checked before the query (path parameters come first), by the one address rule (common/api/schemas.ts).
  on("GET /api/accounts/:address/history", [], ({ params, query }) => services.events.history(params.address, query.limit, query.cursor));

  on("GET /api/roles", [], async () => ({ roles: await services.tokenState.roles() }));
  on("GET /api/blocklist", [], async () => ({ blocked: await services.tokenState.blocklist() }));
  on("GET /api/stats/supply", [], async ({ query }) => ({ points: await services.tokenState.supplyHistory(query.points) }));

  return router;
}
