import { Router } from "express";
import { sendCsv } from "../lib/csv";
import { currentUser, requireUser } from "../middleware/auth";
import { exportGuards } from "../middleware/exportLimits";
import { csvRateLimit } from "../middleware/rateLimits";
import type { Services } from "../services";
import { declaredRoutes } from "./declared";

/** /api/contacts (common/api/contacts.ts): the signed-in user's own address book, and only theirs. */
export function contactRoutes(services: Services): Router {
  const router = Router();
  router.use(requireUser(services.auth));
  const on = declaredRoutes(router, "/api/contacts");
  const contacts = services.contacts;

  on("GET /api/contacts", [], async ({ query }, res) => ({ success: true, ...(await contacts.list(currentUser(res).uid, query)) }));

  // Counted with the other exports (requests a minute, exports at once, rows a minute).
  on("GET /api/contacts/export", exportGuards(services), async (_input, res) => sendCsv(res, await contacts.csv(currentUser(res).uid)));

  on("POST /api/contacts/import", [csvRateLimit(services.rateLimits, "csv-contacts")], async ({ body }, res) => {
    const result = await contacts.importCsv(currentUser(res).uid, body.csvData);
    return { success: true, ...result };
  });

  on("POST /api/contacts", [], async ({ body }, res) => ({
    success: true,
    contact: await contacts.add(currentUser(res).uid, body),
  }));

  on("PATCH /api/contacts/:id", [], async ({ params, body }, res) => ({
    success: true,
    contact: await contacts.update(currentUser(res).uid, params.id, body),
  }));

  on("DELETE /api/contacts/:id", [], async ({ params }, res) => {
    await contacts.remove(currentUser(res).uid, params.id);
    return { success: true, id: params.id };
  });

  return router;
}
