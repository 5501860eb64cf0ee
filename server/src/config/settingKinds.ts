import { getAddress, isAddress } from "ethers";
import { z } from "zod";

/*
 * The kinds of value a setting may hold (a whole number in a range, a port, an http(s) URL, a list
 * of origins...), each with the sentence it is refused with, and the registries the settings table
 * is written from (what each variable is for, and the type in words). env.ts declares the variables.
 */

/** The settings table's sections, in order. */
export const GROUPS = {
  chain: "Network and chain",
  database: "Database",
  auth: "Sign-in and admins",
  http: "HTTP",
  limits: "Rate and per-user limits",
  batch: "Batch payments",
  bank: "Mock bank",
  alerts: "Operators' alerts",
  operations: "Operations",
  tools: "Deploying and tools (read by Hardhat and the scripts; the server ignores them)",
} as const;
export type Group = keyof typeof GROUPS;

/** What the settings table says of one variable, beside what its schema says (its type and default). */
export interface Setting {
  group: Group;
  /** One line: what it does. */
  description: string;
  /** Grants something (a key, a password, a token): to be kept out of the repository and the logs. */
  secret?: true;
  /** The default in words (Markdown), where the schema holds none as a value: derived from other settings, or a path. */
  default?: string;
}

/** Each variable's schema, with what the table says of it. */
export const SETTINGS = z.registry<Setting>();
/** The type of a value as the table names it, on the schema of each kind of value below. */
export const SETTING_TYPES = z.registry<{ type: string }>();

export function setting<T extends z.ZodType>(schema: T, info: Setting): T {
  SETTINGS.add(schema, info);
  return schema;
}

export function typed<T extends z.ZodType>(type: string, schema: T): T {
  SETTING_TYPES.add(schema, { type });
  return schema;
}

/** The variable an issue is about: the first key of its path (the environment is one object of variables). */
export const variable = (issue: { path?: PropertyKey[] }) => String(issue.path?.[0]);

export function wholeNumber(min: number, max: number) {
  const inRange = z.coerce.number().int().min(min).max(max);
  return typed(
    `whole number, ${min} to ${max}`,
    z
      .string()
      .refine((raw) => inRange.safeParse(raw).success, {
        error: (issue) => `${variable(issue)} must be a whole number from ${min} to ${max}, not '${issue.input}'.`,
      })
      .transform(Number),
  );
}

/** A number above 0 (decimals allowed: half a request a second is a rate), at most `max`. */
export function positiveNumber(max: number) {
  const inRange = z.coerce.number().gt(0).max(max);
  return typed(
    `number above 0, at most ${max}`,
    z
      .string()
      .refine((raw) => /^\d+(\.\d+)?$/.test(raw.trim()) && inRange.safeParse(raw).success, {
        error: (issue) => `${variable(issue)} must be a number above 0 and at most ${max}, like 5 or 0.5, not '${issue.input}'.`,
      })
      .transform(Number),
  );
}

export function port() {
  const valid = z.coerce.number().int().min(1).max(65_535);
  return typed(
    "port, 1 to 65535",
    z
      .string()
      .refine((raw) => valid.safeParse(raw).success, {
        error: (issue) => `${variable(issue)} must be a port number (1-65535), not '${issue.input}'.`,
      })
      .transform(Number),
  );
}

export const trueOrFalse = () =>
  typed(
    "`true` or `false`",
    z
      .enum(["true", "false"], { error: (issue) => `${variable(issue)} must be 'true' or 'false', not '${issue.input}'.` })
      .transform((value) => value === "true"),
  );

/**
 * An http(s) URL. A secret one (a provider's URL carries its key in the path or the query) is refused
 * without being echoed: the sentence shows only how it starts, so no log keeps the key.
 */
export const httpUrl = ({ secret = false } = {}) =>
  typed(
    "http(s) URL",
    z.string().regex(/^https?:\/\//, {
      error: (issue) =>
        secret
          ? `${variable(issue)} must be an http(s) URL; the value given starts '${String(issue.input).split(/[:/]/)[0].slice(0, 12)}' ` +
            "(the rest is not shown: a provider's URL carries its key)."
          : `${variable(issue)} must be an http(s) URL, not '${issue.input}'.`,
    }),
  );

/** A WebSocket URL (ws:// or wss://); a secret one is never echoed back, as httpUrl's. */
export const wsUrl = ({ secret = false } = {}) =>
  typed(
    "ws(s) URL",
    z.string().regex(/^wss?:\/\//, {
      error: (issue) =>
        secret
          ? `${variable(issue)} must be a ws:// or wss:// URL; the value given starts '${String(issue.input).split(/[:/]/)[0].slice(0, 12)}' ` +
            "(the rest is not shown: a provider's URL carries its key)."
          : `${variable(issue)} must be a ws:// or wss:// URL, not '${issue.input}'.`,
    }),
  );

export const text = (type = "text") => typed(type, z.string());

/** Comma-separated items, each trimmed; empty items are skipped. */
export const commaList = <T extends z.ZodType<unknown[], string[]>>(type: string, items: T) =>
  typed(
    type,
    z
      .string()
      .transform((raw) =>
        raw
          .split(",")
          .map((item) => item.trim())
          .filter(Boolean),
      )
      .pipe(items),
  );

export const origin = z
  .string()
  .refine((raw) => URL.canParse(raw), {
    abort: true,
    error: (issue) => `${variable(issue)} must list origins like http://127.0.0.1:5173; '${issue.input}' is not a URL.`,
  })
  .refine((raw) => ["http:", "https:"].includes(new URL(raw).protocol), {
    error: (issue) => `${variable(issue)}: '${issue.input}' must be http or https.`,
  })
  .transform((raw) => new URL(raw).origin);

export const address = z
  .string()
  .refine((raw) => isAddress(raw), { error: (issue) => `${variable(issue)}: '${issue.input}' is not an address.` })
  .transform((raw) => getAddress(raw));
