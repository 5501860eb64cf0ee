/**
 * Text about the RPC node as the public may read it. A provider's RPC URL carries its API key in
 * the path or query (…/v3/<key>), and ethers puts the whole URL in its errors ("requestUrl"), which
 * the background loops keep as their lastError: only the URL's origin may leave the server.
 */
export function redactRpcUrl(text: string, rpcUrl: string): string {
  const url = new URL(rpcUrl);
  let out = text.split(rpcUrl).join(url.origin).split(url.href).join(url.origin);
  const secretPart = `${url.pathname}${url.search}`;
  if (secretPart !== "/") out = out.split(secretPart).join("/…");
  return out;
}

// ---------------------------------------------------------------- database errors in the log

/** The errors in `error`'s chain (drizzle's wrapper, then the driver's error it wraps), outermost first. */
export function errorChain(error: unknown): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (let e = error; typeof e === "object" && e !== null && out.length < 6; e = (e as { cause?: unknown }).cause) {
    out.push(e as Record<string, unknown>);
  }
  return out;
}

/** A PostgreSQL (or PGlite) error: a five-character SQLSTATE beside a severity. */
export const isServerError = (e: Record<string, unknown>) =>
  typeof e.severity === "string" && typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code);
/** Drizzle's wrapper for any failed query (DrizzleQueryError): its message is the query and its parameters. */
export const isDrizzleError = (e: Record<string, unknown>) => typeof e.query === "string" && "params" in e;

/**
 * A database error as the log may keep it: its SQLSTATE, the SQL with its placeholders ($1, $2),
 * where it arose (table, column, constraint, the server's routine) and the stack's frames. Never
 * the parameters, nor the server's own words (message, detail, hint, context): they quote values,
 * the parameters' ("invalid input syntax for type integer: ...") and the rows' (a key, a raised
 * exception), and a row can hold a webhook's secret and URL. An error the server did not raise (a
 * lost connection) keeps its message, less drizzle's list of parameters. Null: not a database error
 * (drizzle's wrapper, or a PostgreSQL/PGlite error with a SQLSTATE).
 */
export function redactDatabaseError(error: unknown): Record<string, unknown> | null {
  const errors = errorChain(error);
  if (!errors.some((e) => isServerError(e) || isDrizzleError(e))) return null;
  const server = errors.find(isServerError);
  const query = errors.find((e) => typeof e.query === "string")?.query;
  const message = server
    ? `The database refused the query (SQLSTATE ${String(server.code)}).`
    : String(errors[errors.length - 1].message ?? "").replace(/\nparams: [\s\S]*$/, ""); // drizzle's message: the query, then its parameters
  const fields: Record<string, unknown> = { type: "DatabaseError", message };
  for (const key of ["code", "table", "column", "constraint", "routine"]) {
    const value = server?.[key] ?? errors.find((e) => typeof e[key] === "string")?.[key];
    if (typeof value === "string") fields[key] = value;
  }
  if (typeof query === "string") fields.query = query;
  // Where it was asked for: the stack's frames, without its first line (the message, parameters and all).
  const stack = errors[0].stack;
  if (typeof stack === "string")
    fields.stack = stack
      .split("\n")
      .filter((line) => /^\s+at /.test(line))
      .join("\n");
  return fields;
}
