import pino from "pino";
import { redactDatabaseError } from "./redact";

export type Logger = pino.Logger;

/**
 * The server's logger. Pass `destination` to write somewhere other than stdout (a test's buffer).
 * Every `err` field goes through errorForLog, so a database error never writes its parameters.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service: "usdx-api" },
    redact: ["req.headers.authorization"],
    serializers: { err: errorForLog },
  };
  return destination ? pino(options, destination) : pino(options);
}

/**
 * An error as the log may hold it. A database error (drizzle's, the driver's) says its SQLSTATE, its
 * SQL with placeholders and where it arose, never its bound parameters (a webhook's secret and URL)
 * nor the driver's words that quote them (lib/redact.ts). Text already made from an error (some
 * call sites log `error.message`) loses drizzle's "params: ..." tail. Anything else: pino's own form.
 */
export function errorForLog(value: unknown): unknown {
  if (typeof value === "string") return value.replace(/\nparams: [\s\S]*$/, "");
  return redactDatabaseError(value) ?? pino.stdSerializers.err(value as Error);
}

/** An error's message for a log line's `err` field: errorForLog's text, short (no stack). */
export function errorText(error: unknown): string {
  const safe = errorForLog(error);
  if (typeof safe === "string") return safe;
  const { message, code } = safe as { message?: unknown; code?: unknown };
  return `${String(message ?? error)}${typeof code === "string" && !String(message).includes(code) ? ` (${code})` : ""}`;
}
