import type { RequestHandler } from "express";
import type { z } from "zod";
import { isValidAddress } from "@common/addresses";
import { badRequest } from "../lib/errors";
import { quoted } from "./errorHandler";

/** Parses `data` with `schema`, or throws a 400 naming each wrong field and what it wants. */
export function parse<S extends z.ZodType>(schema: S, data: unknown, where: "body" | "query" | "path"): z.infer<S> {
  // No JSON parser ran (another content type, or none): say how to send it, not "received undefined".
  if (where === "body" && data === undefined)
    throw badRequest("Invalid request body: send it as JSON, with Content-Type: application/json.");
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const field = issue.path.join(".");
    return field ? `${field}: ${issue.message}` : issue.message;
  });
  throw badRequest(`Invalid request ${where}: ${problems.join("; ")}`);
}

/**
 * An :address path parameter, checked before the declared input in words of its own (the history's
 * and every read keyed by an account say the same), a long one not echoed whole.
 */
export const addressParam: RequestHandler = (req, _res, next) => {
  const address = String(req.params.address);
  next(
    isValidAddress(address)
      ? undefined
      : badRequest(`'${quoted(address, 100)}' is not a valid address: it must be 0x followed by 40 hex characters.`),
  );
};
