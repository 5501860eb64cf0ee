import type { z } from "zod";
import { badRequest } from "../lib/errors";

/**
 * A problem already worded as the dashboard's 'Title - what to do' sentence (a contact's checks,
 * common/api/contacts.ts), or marked WHOLE (a rule that moved from a service into the declaration
 * with its words): answered as it is, since the person reads the answer whole.
 */
const TITLE_DASH = /^[A-Z][a-z]+(?: [a-z]+)* - [A-Z]/;
const isWhole = (issue: z.core.$ZodIssue) =>
  TITLE_DASH.test(issue.message) || (issue.code === "custom" && issue.params?.wholeSentence === true);

/**
 * Parses `data` with `schema`, or throws a 400 naming each wrong field and what it wants (or the
 * first problem alone, when it is a whole sentence).
 */
export function parse<S extends z.ZodType>(schema: S, data: unknown, where: "body" | "query" | "path"): z.infer<S> {
  // No JSON parser ran (another content type, or none): say how to send it, not "received undefined".
  if (where === "body" && data === undefined)
    throw badRequest("Invalid request body: send it as JSON, with Content-Type: application/json.");
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const first = result.error.issues[0];
  if (isWhole(first)) throw badRequest(first.message);
  const problems = result.error.issues.map((issue) => {
    const field = issue.path.join(".");
    return field ? `${field}: ${issue.message}` : issue.message;
  });
  // One sentence once, when two checks of a field say the same (a 16-digit block is neither an integer JavaScript holds nor in range).
  throw badRequest(`Invalid request ${where}: ${[...new Set(problems)].join("; ")}`);
}
