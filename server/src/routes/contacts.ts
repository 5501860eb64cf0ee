import { Router } from "express";
import { z } from "zod";
import { writeCsv } from "../services/csv";
import { currentUser, requireUser } from "../middleware/auth";
import { csvRateLimit } from "../middleware/rateLimits";
import { parse } from "../middleware/validate";
import type { Services } from "../services";

const LIST_LIMIT_DEFAULT = 100;
const LIST_LIMIT_MAX = 1000;
const CSV_MAX_CHARS = 1024 * 1024;
// Types only: what is missing, empty or too long is checkContact's to say, in the dashboard's words.
const field = z.string();

const listQuery = z.object({
  search: z
    .string()
    .max(200)
    .refine((text) => !text.includes("\u0000"), "cannot contain a NUL character")
    .optional(),
  limit: z
    .string()
    .regex(/^\d{1,6}$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().min(1).max(LIST_LIMIT_MAX))
    .default(LIST_LIMIT_DEFAULT),
  offset: z.string().regex(/^\d{1,9}$/, "must be a whole number").transform(Number).default(0),
});

const addBody = z.object({ name: field.optional(), address: field.optional(), notes: field.nullable().optional() });

const editBody = addBody.refine((body) => body.name !== undefined || body.address !== undefined || body.notes !== undefined, {
  message: "Nothing to change: send name, address or notes",
});

const idPath = z.object({
  id: z
    .string()
    .regex(/^\d{1,10}$/, "must be a contact id (a whole number)")
    .transform(Number)
    .pipe(z.number().min(1).max(2 ** 31 - 1, "must be a contact id (a whole number)")),
});

const importBody = z.object({ csvData: z.string().max(CSV_MAX_CHARS, "must be at most 1 MB of CSV text") });

/** /api/contacts: the signed-in user's own address book, and only theirs. */
export function contactRoutes(services: Services): Router {
  const router = Router();
  router.use(requireUser(services.auth));
  const contacts = services.contacts;

  router.get("/", async (req, res) => {
    const query = parse(listQuery, req.query, "query");
    res.json({ success: true, ...(await contacts.list(currentUser(res).uid, query)) });
  });

  router.get("/export", async (_req, res) => {
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

  router.post("/import", csvRateLimit(services.rateLimits, "csv-contacts", services.config.rateLimits.csvPerMinute), async (req, res) => {
    const body = parse(importBody, req.body, "body");
    const result = await contacts.importCsv(currentUser(res).uid, body.csvData, services.config.batch.maxRows, services.config.limits.contacts);
    res.json({ success: true, ...result });
  });

  router.post("/", async (req, res) => {
    const body = parse(addBody, req.body ?? {}, "body");
    res.status(201).json({ success: true, contact: await contacts.add(currentUser(res).uid, body, services.config.limits.contacts) });
  });

  router.patch("/:id", async (req, res) => {
    const { id } = parse(idPath, req.params, "path");
    const body = parse(editBody, req.body ?? {}, "body");
    res.json({ success: true, contact: await contacts.update(currentUser(res).uid, id, body) });
  });

  router.delete("/:id", async (req, res) => {
    const { id } = parse(idPath, req.params, "path");
    await contacts.remove(currentUser(res).uid, id);
    res.json({ success: true, id });
  });

  return router;
}
