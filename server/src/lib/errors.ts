import type { ErrorAnswer } from "@common/api/endpoint";
import type { Response } from "express";

/**
 * The body of every error the API answers, `{ success: false, error: "<sentence>" }`
 * (common/api/endpoint.ts declares it): built here and nowhere else, so the format cannot drift
 * between the error middleware, the rate limiters and the answers Node's HTTP parser refuses.
 */
export function errorAnswer(message: string): ErrorAnswer {
  return { success: false, error: message };
}

/** Answers `status` with `message` in the API's error format. */
export function sendError(res: Response, status: number, message: string): void {
  res.status(status).json(errorAnswer(message));
}

/**
 * Errors a service throws to say what went wrong in the caller's terms. The error middleware turns
 * each into `{ success: false, error }` with its status; anything else is a 500 that logs its stack.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message: string) => new HttpError(401, message);
export const forbidden = (message: string) => new HttpError(403, message);
export const notFound = (message: string) => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
/** A dependency (the chain's RPC node, the database) is not answering. */
export const unavailable = (message: string) => new HttpError(503, message);
/** What a request that needs the database, and /api/ready, answer while the database cannot be reached (503). */
export const DATABASE_UNAVAILABLE = "The database is not answering: try again in a moment.";
/** What a request answers (503) when its statement waited too long for a lock, or ran too long (db/client.ts's timeouts). */
export const DATABASE_BUSY = "The database is busy: try again in a moment.";
/** A background loop's lastError when a query failed: the driver's words quote the query's values, so they stay in the log. */
export const DATABASE_FAILED = "A database query failed: the server's log has the details.";
/** The caller used up a per-user limit or quota; the sentence says which and when it resets. */
export const tooMany = (message: string) => new HttpError(429, message);
