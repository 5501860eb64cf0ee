import type { z } from "zod";
import { badRequest } from "../errors";

/** Parses `data` with `schema`, or throws a 400 naming each wrong field and what it wants. */
export function parse<S extends z.ZodType>(schema: S, data: unknown, where: "body" | "query" | "path"): z.infer<S> {
  // No JSON parser ran (another content type, or none): say how to send it, not "received undefined".
  if (where === "body" && data === undefined) throw badRequest("Invalid request body: send it as JSON, with Content-Type: application/json.");
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const field = issue.path.join(".");
    return field ? `${field}: ${issue.message}` : issue.message;
  });
  throw badRequest(`Invalid request ${where}: ${problems.join("; ")}`);
}
