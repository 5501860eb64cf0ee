import { Router } from "express";
import { getAddress } from "ethers";
import { currentUser, requireUser } from "../middleware/auth";
import { exportGuards } from "../middleware/exportLimits";
import type { Services } from "../services";
import { sendCsv } from "../lib/csv";
import { declaredRoutes, VALIDATE } from "./declared";

/**
 * Every CSV export (common/api/exports.ts, and the holders' in common/api/holders.ts) behind the
 * export limits (middleware/exportLimits.ts, shared with the contacts export): requests a minute,
 * exports at once and rows a minute, since each may read the whole index. Input is checked before
 * the limits, so a malformed request costs nothing and is not counted.
 */
export function exportRoutes(services: Services): Router {
  const router = Router();
  const on = declaredRoutes(router, "/api");
  const signedIn = requireUser(services.auth);
  const exportLimit = exportGuards(services);
  const { exports } = services;

  on("GET /api/holders/export", [signedIn, VALIDATE, ...exportLimit], async ({ query }, res) =>
    sendCsv(res, await services.holders.csv(query)),
  );

  on("GET /api/accounts/:address/history/export", [signedIn, VALIDATE, ...exportLimit], async ({ params, query }, res) =>
    sendCsv(res, await exports.history(getAddress(params.address.toLowerCase()), query)),
  );

  on("GET /api/events/export", [signedIn, VALIDATE, ...exportLimit], async ({ query }, res) =>
    sendCsv(res, await exports.contractEvents({ fromBlock: query.fromBlock, toBlock: query.toBlock, eventName: query.eventName ?? null })),
  );

  on("GET /api/batch/:id/export", [signedIn, VALIDATE, ...exportLimit], async ({ params }, res) =>
    sendCsv(res, await exports.batchRecipients(currentUser(res), params.id)),
  );

  return router;
}
