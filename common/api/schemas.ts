import { z } from "zod";
import { parseAddress } from "../addresses";

/**
 * Small schemas the API's declarations share. Answers are strict objects: a field the server
 * sends that is not declared fails the server suite's answer check (server/test/helpers.ts), so
 * the document cannot fall behind the code.
 */

export const Address = z.string().meta({
  description: "An Ethereum address: 0x and 40 hex characters, checksummed (EIP-55).",
  example: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
});
export const TxHash = z.string().meta({
  description: "A transaction hash: 0x and 64 hex characters.",
  example: "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060",
});
export const Bytes32 = z.string().meta({ description: "32 bytes as 0x and 64 hex characters." });
export const IsoDate = z.string().meta({ description: "A moment in ISO 8601, UTC.", example: "2026-11-25T09:30:00.000Z" });
export const BaseUnits = z.string().meta({
  description: "A whole number of base units (18 decimals) as a decimal string: it can exceed JavaScript's numbers.",
  example: "1500000000000000000",
});
export const TokenAmount = z.string().meta({ description: "USDX as an exact decimal string.", example: "1.5" });
export const Dollars = z.string().meta({ description: "US dollars with 2 decimals and thousands separators.", example: "1,000.00" });
export const BlockNumber = z.number().int().min(0).meta({ example: 1234 });
export const UnixSeconds = z.number().int().meta({ description: "Unix time in seconds.", example: 1764063000 });

/** The largest id a table's serial column holds (a Postgres integer): a larger one is refused as input, not by the database. */
export const MAX_SERIAL_ID = 2_147_483_647;

// ---------------------------------------------------------------- input (path and query parameters)

/** The most rows a page may skip: far beyond any table here, and a bound the document can state. */
export const OFFSET_MAX = 999_999_999;

const DIGITS = /^\d+$/;

/**
 * A whole number sent as text (a path or query parameter): digits only, from `min` to `max`. The
 * digits become a number before the check, so the document states it as what it is, an integer with
 * its bounds, and the check and the document are this one declaration.
 */
export function wholeNumber(min: number, max: number, words: { invalid?: string; outOfRange?: string } = {}) {
  const invalid = words.invalid ?? "must be a whole number";
  return z.preprocess(
    (text) => (typeof text === "string" && DIGITS.test(text) ? Number(text) : text),
    z
      .number({ error: invalid })
      .int(invalid)
      .min(min, words.outOfRange ?? `must be at least ${min}`)
      .max(max, words.outOfRange ?? `must be at most ${max}`),
  );
}

/** A row's id in the path or query (`what`: "a contact"): 1 to the integer column's largest, in one sentence either way. */
export function rowId(what: string) {
  const sentence = `must be ${what} id: a whole number from 1 to ${MAX_SERIAL_ID.toLocaleString("en-US")}`;
  return wholeNumber(1, MAX_SERIAL_ID, { invalid: sentence, outOfRange: sentence });
}

/**
 * A regular expression for the decimal text of 1 to `max` (no leading zeros), for an id a body may
 * send as text: JSON Schema bounds only numbers, so the document states the bound in the pattern.
 */
export function digitsUpTo(max: number): RegExp {
  const top = String(max);
  const shorter = top.length > 1 ? [`[1-9]\\d{0,${top.length - 2}}`] : [];
  const sameLength = [...top].map((digit, i) => {
    if (digit === "0" || (i === 0 && digit === "1")) return null;
    const low = i === 0 ? 1 : 0;
    return `${top.slice(0, i)}[${low}-${Number(digit) - 1}]\\d{${top.length - i - 1}}`;
  });
  return new RegExp(`^(?:${[...shorter, ...sameLength.filter((part) => part !== null), top].join("|")})$`);
}

const ADDRESS_TEXT = /^0x[0-9a-fA-F]{40}$/;

/**
 * Marks a refinement JSON Schema cannot state (an EIP-55 checksum is a keccak-256 of the text), so
 * the OpenAPI document says it in words: the suite's document check (server/test/documentCheck.ts)
 * lets only such a refusal pass where the document calls the request valid.
 */
export const IN_WORDS = { documentedInWords: true } as const;

/**
 * Marks a refinement whose message is the whole sentence a person reads: a rule that moved here
 * from a service keeps the service's words, which server/src/middleware/validate.ts answers as they
 * are rather than after 'Invalid request body: <field>:'. Such a rule states its JSON Schema with
 * meta (pattern, minItems, if/then) built from the constant its check tests, so the two cannot part.
 */
export const WHOLE = { wholeSentence: true } as const;
/** A whole sentence for a rule JSON Schema cannot state (see IN_WORDS). */
export const WHOLE_IN_WORDS = { ...WHOLE, ...IN_WORDS } as const;

/**
 * `schema` refusing a text that `pattern` does not match, with `sentence(text)` answered whole; the
 * document states the same pattern. `abort` stops the checks after it (and the object's own rules)
 * once it fails, for a field whose later rules would only say the same thing again.
 */
export function matching<S extends z.ZodString>(schema: S, pattern: RegExp, sentence: (text: string) => string, abort = false): S {
  return schema
    .refine((text) => pattern.test(text), { error: (issue) => sentence(String(issue.input)), params: WHOLE, abort })
    .meta({ pattern: pattern.source });
}

/** An alternation matching each of `words` in any case ('Transfer', 'transfer', 'TRANSFER'): ECMA-262 patterns have no flag for it. */
export function anyCaseOf(words: readonly string[]): string {
  const distinct = [...new Set(words.map((word) => word.toLowerCase()))];
  const letters = (word: string) =>
    [...word]
      .map((c) => (c.toLowerCase() !== c.toUpperCase() ? `[${c.toUpperCase()}${c}]` : c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("");
  return distinct.map(letters).join("|");
}

/**
 * A query's range in order: `from<What>` after `to<What>` is refused, naming both ends. JSON Schema
 * cannot compare two parameters, so it is a refinement stated in words (the parameters say it).
 */
export function rangeInOrder(what: "Block" | "Date") {
  return (query: Record<string, unknown>, ctx: z.core.$RefinementCtx) => {
    const [from, to] = [query[`from${what}`], query[`to${what}`]] as (number | string | undefined)[];
    if (from !== undefined && to !== undefined && from > to)
      ctx.addIssue({
        code: "custom",
        path: [`from${what}`],
        message: `from${what} (${from}) is after to${what} (${to}).`,
        params: WHOLE_IN_WORDS,
      });
  };
}

/**
 * A CSV file's text in a body: one with nothing but spaces in it is refused here, in the CSV
 * reader's words; the reader (server/src/lib/csv.ts) says what else is wrong with a file.
 */
export const csvText = <S extends z.ZodString>(schema: S) =>
  matching(schema, /\S/, () => "The CSV file is empty: it needs a header row and at least one row of data.");

/** Whether mixed case is a right EIP-55 checksum (all lower or all upper case carries none). */
export function checksumHolds(address: string): boolean {
  try {
    parseAddress(address);
    return true;
  } catch {
    return false;
  }
}

/**
 * The one rule for an address in a request (ethers' getAddress): 0x and 40 hex characters; all
 * lower or all upper case is taken as it is, and mixed case must be a right EIP-55 checksum, so a
 * typo in a checksummed address is refused rather than read as another account.
 */
export const AddressInput = z
  .string()
  .regex(ADDRESS_TEXT, "must be 0x followed by 40 hex characters")
  .refine((text) => !ADDRESS_TEXT.test(text) || checksumHolds(text), {
    message: "has a wrong checksum (its mix of upper and lower case does not match EIP-55): check it for a typo, or send it in lower case",
    params: IN_WORDS,
  })
  .meta({
    description:
      "An Ethereum address: 0x and 40 hex characters. All lower or all upper case is taken as it is; mixed case must be a right EIP-55 checksum.",
    example: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  });

/** `{ success: true, ...fields }`: the envelope of most answers. */
export const ok = <T extends z.ZodRawShape>(fields: T) => z.strictObject({ success: z.literal(true), ...fields });
