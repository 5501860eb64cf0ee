/**
 * Which database errors mean "the database is not answering" (a 503 that passes once it is back),
 * "the database is busy" (a lock or statement timeout: a 503 too) or a fault in a query (a 500),
 * and what each may say outside the server. Recognised by code wherever the error has one.
 */
import { DATABASE_BUSY, DATABASE_FAILED, DATABASE_UNAVAILABLE } from "../lib/errors";
import { errorChain, isDrizzleError, isServerError } from "../lib/redact";

/** Node's socket errors: the server refuses, resets or never answers the connection, or its name does not resolve. */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN", "ENOTFOUND"]);

/**
 * PostgreSQL's SQLSTATEs for a server that went away: class 08 (connection exception) and the
 * shutdowns of 57P01 (admin: pg_ctl stop, a terminated backend), 57P02 (crash) and 57P03 (cannot
 * connect now: starting up or shutting down).
 */
const SERVER_GONE = /^(08[0-9A-Z]{3}|57P0[123])$/;

/**
 * node-postgres and its pool raise these with no code at all: the server closed the connection,
 * or a connection did not open within `connectionTimeoutMillis`.
 */
const DRIVER_MESSAGES = new Set([
  "Connection terminated unexpectedly",
  "Connection terminated due to connection timeout",
  "timeout exceeded when trying to connect",
  "timeout expired",
  "Client has encountered a connection error and is not queryable",
]);

/**
 * True when `error`, or an error it wraps, says the database cannot be reached. Drizzle wraps the
 * driver's error in a DrizzleQueryError (`cause`); Node's connection to a name with several
 * addresses fails with an AggregateError (`errors`).
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== "object" || error === null || depth > 5) return false;
  const e = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === "string" && (SOCKET_CODES.has(e.code) || SERVER_GONE.test(e.code))) return true;
  if (typeof e.message === "string" && DRIVER_MESSAGES.has(e.message)) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}

/**
 * PostgreSQL's SQLSTATEs for a statement cut off by the pool's timeouts (db/client.ts): 55P03
 * lock_not_available (lock_timeout) and 57014 query_canceled (statement_timeout).
 */
const BUSY_CODES = new Set(["55P03", "57014"]);

/** True when a statement gave up waiting for a lock, or ran past the statement timeout. */
export function isDatabaseBusy(error: unknown): boolean {
  return errorChain(error).some((e) => typeof e.code === "string" && BUSY_CODES.has(e.code));
}

/** True when `error` came from the database or its driver (a query that failed, for whatever reason). */
export function isDatabaseError(error: unknown): boolean {
  return isDatabaseUnavailable(error) || errorChain(error).some((e) => isServerError(e) || isDrizzleError(e));
}

/**
 * What a database error may say where others read it (a loop's lastError on /api/health and
 * /api/monitoring): one of three fixed sentences, never the driver's words, which quote the query's
 * parameters (a webhook's secret, its URL) and values from its rows. Null: not a database error.
 */
export function databaseErrorSentence(error: unknown): string | null {
  if (isDatabaseUnavailable(error)) return DATABASE_UNAVAILABLE;
  if (isDatabaseBusy(error)) return DATABASE_BUSY;
  return isDatabaseError(error) ? DATABASE_FAILED : null;
}
