import { Router } from "express";
import { writeCsv } from "../lib/csv";
import { currentUser, requireUser } from "../middleware/auth";
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

  on("GET /api/contacts/export", [], async (_input, res) => {
    const rows = (await contacts.all(currentUser(res).uid)).map((c) => [c.name, c.address, c.notes ?? ""]);
    res
      .status(200)
      .set({
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": 'attachment; filename="usdx_contacts.csv"',
        "Cache-Control": "no-store",
      })
      .send(writeCsv(["Name", "Address", "Notes"], rows));
  });

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
