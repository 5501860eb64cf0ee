import { z } from "zod";
import { parseTokenAmount } from "@common/amounts";

/* The field types a scenario file's schema is made of (schema.ts, userSchema.ts), each with its sentence. */

export const AMOUNT_EXAMPLE = 'such as "1000" or "0.5"';

/** What a missing field says, else `wrong`. */
export const missingOr =
  (wrong: string, missing = "is missing") =>
  (issue: { input?: unknown }) =>
    issue.input === undefined ? missing : wrong;

/** YAML reads 1000 and 0.5 as numbers: an amount may be written either way (the loader keeps the digits as written). */
export const asText = (value: unknown) => (typeof value === "number" ? String(value) : value);

export const isAmount = (text: string) => {
  try {
    parseTokenAmount(text);
    return true;
  } catch {
    return false;
  }
};

/** An amount of USDX: 0 or more, at most 18 decimals. */
export const Amount = (wrong: string) =>
  z.preprocess(
    asText,
    z.string({ error: missingOr(wrong) }).refine((text) => isAmount(text), wrong),
  );
/** An amount of USDX above 0. */
export const PositiveAmount = (wrong: string) =>
  z.preprocess(
    asText,
    z.string({ error: missingOr(wrong) }).refine((text) => isAmount(text) && parseTokenAmount(text) > 0n, wrong),
  );

export const wholeNumber = (min: number, max: number, wrong: string) =>
  z
    .number({ error: missingOr(wrong) })
    .int(wrong)
    .min(min, wrong)
    .max(max, wrong);
