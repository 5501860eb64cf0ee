import type { NextFunction, Request, RequestHandler, Response } from "express";
import { csvRowsWritten } from "../lib/csv";
import { sendError } from "../lib/errors";
import type { Services } from "../services";
import { currentUser } from "./auth";
import { clientAddress, perUserRateLimit } from "./rateLimits";

/**
 * What every CSV export mounts after requireUser and input checks (a malformed request costs
 * nothing): the requests a minute per user (RATE_LIMIT_CSV_PER_MINUTE, shared by all exports),
 * then services/operations/exportLimits.ts's places at once and row budgets. A refusal for load is
 * a 429 with Retry-After and a sentence saying when to try again. The rows sendCsv writes are
 * charged before the answer ends, so the next export already sees them; if the client goes first,
 * when the connection closes.
 */
export function exportGuards(services: Services): RequestHandler[] {
  const perMinute = perUserRateLimit(services.rateLimits, "csv-exports", "CSV exports");
  const limits = services.exportLimits;
  const admit = async (req: Request, res: Response, next: NextFunction) => {
    const admission = await limits.admit({ uid: currentUser(res).uid, ip: clientAddress(req) });
    if (!admission.ok) {
      res.set("Retry-After", String(admission.retryAfterSeconds));
      sendError(res, 429, admission.message);
      return;
    }
    // A budget the database failed to charge is no reason to fail the export itself.
    const finish = () => admission.done(csvRowsWritten(res)).catch(() => undefined);
    res.locals.beforeCsvEnd = finish;
    res.on("close", () => void finish());
    next();
  };
  return [perMinute, admit];
}
