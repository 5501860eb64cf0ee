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
/** The caller used up a per-user limit or quota; the sentence says which and when it resets. */
export const tooMany = (message: string) => new HttpError(429, message);
