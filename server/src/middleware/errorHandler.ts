import type { ErrorRequestHandler, RequestHandler } from "express";
import { isDatabaseBusy, isDatabaseUnavailable } from "../db/errors";
import { DATABASE_BUSY, DATABASE_UNAVAILABLE, HttpError, sendError } from "../lib/errors";
import { errorText, type Logger } from "../lib/logger";

/** Text from a request quoted in an answer: at most `max` characters of it (a URL can be 16 KB). */
export function quoted(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

/** Unknown /api paths: a JSON 404 like every other answer. */
export const notFoundHandler: RequestHandler = (req, res) => {
  sendError(res, 404, `No such endpoint: ${req.method} ${quoted(req.originalUrl.split("?")[0])}`);
};

/**
 * The one place thrown errors become answers: `{ success: false, error }` (errorAnswer) with the
 * error's status. Body parser failures (malformed JSON, too large) are the client's fault; a
 * database that cannot be reached, or too busy to grant a lock or finish a statement in time
 * (db/client.ts's timeouts), is a 503 that passes; anything unexpected is a 500 whose details go
 * to the log, not to the client.
 */
export function errorHandler(log: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    let status = 500;
    let message = "Something went wrong on the server. It has been logged.";
    // The chain's and the identity service's failures become HttpErrors where they happen, so a
    // connection failure that reaches here is the database's.
    const databaseDown = !(error instanceof HttpError) && isDatabaseUnavailable(error);
    const databaseBusy = !(error instanceof HttpError) && !databaseDown && isDatabaseBusy(error);
    if (error instanceof HttpError) {
      status = error.status;
      message = error.message;
    } else if (databaseDown) {
      status = 503;
      message = DATABASE_UNAVAILABLE;
    } else if (databaseBusy) {
      status = 503;
      message = DATABASE_BUSY;
    } else if (error?.type === "entity.parse.failed") {
      status = 400;
      message = "Malformed JSON in the request body.";
    } else if (error?.type === "entity.too.large") {
      status = 413;
      message = "The request body is larger than the 1 MB limit.";
    } else if (error?.type === "encoding.unsupported" || error?.type === "charset.unsupported") {
      status = 415;
      message = "Send the body as UTF-8 JSON.";
    } else if (typeof error?.code === "string" && error.code.startsWith("Z_")) {
      // zlib's own words ("incorrect header check") say nothing to the sender.
      status = 400;
      message = "The request body could not be decompressed: it is not valid gzip or deflate data.";
    } else if (typeof error?.status === "number" && error.status >= 400 && error.status < 500) {
      status = error.status;
      message = error.expose && error.message ? error.message : "Bad request.";
    }
    // An outage is one warning a request, not a stack each: the cause is the same every time.
    // The request's logger, or the app's for a request that failed before it was given one.
    const logger = req.log ?? log;
    if (databaseDown) logger.warn({ err: errorText(error) }, "request failed: the database is not answering");
    else if (databaseBusy) logger.warn({ err: errorText(error) }, "request failed: a lock or statement timeout ran out");
    else if (status >= 500) logger.error({ err: error }, "request failed");
    if (res.headersSent) return;
    sendError(res, status, message);
  };
}

declare module "express-serve-static-core" {
  interface Request {
    log?: Logger;
  }
}
