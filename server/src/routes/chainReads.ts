import { Router } from "express";
import { z } from "zod";
import { isValidAddress } from "../../../common/addresses";
import {
  EVENT_FILTERS,
  EVENTS_DEFAULT_LIMIT,
  EVENTS_MAX_LIMIT,
  HISTORY_DEFAULT_LIMIT,
  HISTORY_MAX_LIMIT,
  resolveEventName,
} from "../../../common/events";
import { quoted } from "../middleware/errorHandler";
import { parse } from "../middleware/validate";
import { badRequest } from "../errors";
import type { Services } from "../services";

const blockNumber = z.string().regex(/^\d{1,15}$/, "must be a block number (digits only)").transform(Number);
const limit = (fallback: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,6}$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().min(1, "must be at least 1").max(max, `must be at most ${max}`))
    .default(fallback);

const eventsQuery = z.object({
  fromBlock: blockNumber.optional(),
  toBlock: blockNumber.optional(),
  limit: limit(EVENTS_DEFAULT_LIMIT, EVENTS_MAX_LIMIT),
  eventName: z.string().max(64).optional(),
  cursor: z.string().max(40).optional(),
});

const historyQuery = z.object({
  limit: limit(HISTORY_DEFAULT_LIMIT, HISTORY_MAX_LIMIT),
  cursor: z.string().max(40).optional(),
});

const supplyQuery = z.object({ points: limit(500, 5000) });

/** Reads of the token and its events: GET /api/token, /events, /accounts/:address/history, /roles, /blocklist, /stats/supply. */
export function chainReadRoutes(services: Services): Router {
  const router = Router();

  router.get("/token", async (_req, res) => {
    res.json(await services.tokenState.token());
  });

  router.get("/events", async (req, res) => {
    const query = parse(eventsQuery, req.query, "query");
    let eventName: string | null = null;
    if (query.eventName !== undefined) {
      const resolved = resolveEventName(query.eventName);
      if (resolved === undefined) {
        throw badRequest(`Unknown eventName '${query.eventName}': use one of ${EVENT_FILTERS.map((f) => f.label).join(", ")}.`);
      }
      eventName = resolved;
    }
    res.json(await services.events.list({ ...query, eventName }));
  });

  router.get("/accounts/:address/history", async (req, res) => {
    const address = String(req.params.address);
    if (!isValidAddress(address)) throw badRequest(`'${quoted(address, 100)}' is not a valid address: it must be 0x followed by 40 hex characters.`);
    const query = parse(historyQuery, req.query, "query");
    res.json(await services.events.history(address, query.limit, query.cursor));
  });

  router.get("/roles", async (_req, res) => {
    res.json({ roles: await services.tokenState.roles() });
  });

  router.get("/blocklist", async (_req, res) => {
    res.json({ blocked: await services.tokenState.blocklist() });
  });

  router.get("/stats/supply", async (req, res) => {
    const query = parse(supplyQuery, req.query, "query");
    res.json({ points: await services.tokenState.supplyHistory(query.points) });
  });

  return router;
}
