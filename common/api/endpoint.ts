import { z } from "zod";
import type { Method } from "./keys";

/**
 * How an endpoint of the API is declared, once, for the server (which validates and answers
 * through it), the dashboard (which takes its types from it, as types only: no zod in the browser
 * bundle) and the OpenAPI document (generated from it by zod-openapi). See
 * docs/architecture/api-declaration.md.
 */

// The key grammar lives in keys.ts, free of zod, for the dashboard.
export { type Method, splitKey } from "./keys";

/**
 * Who may call:
 * - public: anyone.
 * - user: a signed-in user, with a Firebase ID token as `Authorization: Bearer <token>`.
 * - admin: a user whose token carries the admin claim.
 * - operator: an operator's scraper: METRICS_TOKEN as the bearer, or a direct loopback request.
 */
export type Access = "public" | "user" | "admin" | "operator";

/** Error statuses an endpoint may answer, each with `{ success: false, error }`. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 408 | 409 | 413 | 415 | 429 | 431 | 500 | 503;

/** An answer that is not JSON: a CSV download or the Prometheus text format. */
export interface TextAnswer {
  contentType: string;
  description: string;
  example: string;
}

export interface Endpoint {
  /** One line, as the docs list it. */
  summary: string;
  /** What it does and the rules it keeps, in Markdown. */
  description?: string;
  /** The section of the docs it belongs to (see API_TAGS). */
  tag: ApiTag;
  access: Access;
  /** Path parameters (`:id` in the key), query and JSON body, as the server validates them. */
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** The success status: 200 unless said (202: started, to be followed elsewhere). */
  status?: 200 | 201 | 202;
  /** The success answer: a zod schema for JSON, or a text answer. */
  answer: z.ZodType | TextAnswer;
  /**
   * Error statuses beyond those every endpoint of its kind may answer (see impliedErrors): each is
   * answered as ErrorAnswer unless `otherAnswers` gives its own shape.
   */
  errors?: readonly ErrorStatus[];
  /** Statuses whose answer is not ErrorAnswer (GET /api/health answers its report with 503). */
  otherAnswers?: Partial<Record<number, { description: string; schema: z.ZodType }>>;
  /** Set when the answer must not be cached (it is live, or carries a secret). */
  noStore?: boolean;
}

/** The docs' sections, in their order, with what each holds. */
export const API_TAGS = {
  Operations: "Health, readiness, metrics and what /monitoring shows.",
  Configuration: "What the dashboard needs to start: the network, the contracts' addresses, sign-in settings.",
  Token: "Reads of USDX from the chain and its index: supply, events, an account's history, roles, the blocklist.",
  Holders: "Who holds USDX (balances, share of supply, activity, a CSV export), and what a balance earned from the reward multiplier.",
  "Sign-in": "Wallet sign-in (Sign-In with Ethereum) and the signed-in user.",
  Administration: "Requests audited for the issuer's operators.",
  Alerts:
    "Operators' alert rules on the token's events, each delivered to a webhook as signed JSON, and the delivery log (the server's admins).",
  Safes:
    "Admin writes proposed to a Safe (multisig) that holds a USDX role: proposals, owners' approvals, and what became of each. An owner's wallet executes.",
  "Batch payments": "Pay many recipients from a CSV: parse, start a job, report each chunk's transaction, follow the job.",
  Contacts: "The signed-in user's address book.",
  "Mock bank": "A simulated bank that mints USDX for US dollar deposits (local chain), or a capped test faucet.",
  Scenarios:
    "For testers, on the local chain only: the shipped scenarios and the node's snapshots, applied or restored one run at a time, with its progress.",
} as const;
export type ApiTag = keyof typeof API_TAGS;

/** The one shape of every error answer. */
export const ErrorAnswer = z
  .strictObject({
    success: z.literal(false),
    error: z.string().meta({ description: "What went wrong, in a sentence a person can act on." }),
  })
  .meta({ id: "Error", example: { success: false, error: "Invalid request body: address: must be 0x followed by 40 hex characters" } });
export type ErrorAnswer = z.infer<typeof ErrorAnswer>;

/** What every endpoint of its kind may answer besides its own errors. */
export function impliedErrors(endpoint: Endpoint, method: Method): ErrorStatus[] {
  const statuses = new Set<ErrorStatus>(endpoint.errors ?? []);
  // Every input is checked: a wrong one is a 400 that names the field.
  if (endpoint.params || endpoint.query || endpoint.body) statuses.add(400);
  // Any body sent must be JSON of at most 1 MB, in UTF-8 (the parser runs before the route).
  if (method !== "GET") [400, 413, 415].forEach((s) => statuses.add(s as ErrorStatus));
  if (endpoint.access !== "public") statuses.add(401);
  if (endpoint.access === "admin" || endpoint.access === "operator") statuses.add(403);
  // Before any route: a request too slow to arrive, or a URL and headers over 16 KB (server/src/index.ts).
  statuses.add(408);
  statuses.add(431);
  statuses.add(500);
  return [...statuses].sort((a, b) => a - b);
}

/** A table of endpoints, keyed "METHOD /api/path" (express's `:name` for a path parameter). */
export type EndpointTable = Record<`${Method} /api${string}`, Endpoint>;

/** Declares a group of endpoints; `const` keeps each schema's own type for the server and the dashboard. */
export function endpoints<const T extends EndpointTable>(table: T): T {
  return table;
}

// ---------------------------------------------------------------- types the server and dashboard share

type SchemaOf<E, K extends keyof Endpoint> = E extends Record<K, infer S> ? S : undefined;
type Out<S> = S extends z.ZodType ? z.output<S> : Record<string, never>;
type In<S> = S extends z.ZodType ? z.input<S> : undefined;

/** What a handler receives, validated. */
export interface InputOf<E> {
  params: Out<SchemaOf<E, "params">>;
  query: Out<SchemaOf<E, "query">>;
  body: SchemaOf<E, "body"> extends z.ZodType ? z.output<SchemaOf<E, "body">> : undefined;
}

/** The success answer's type (a string for a text answer). */
export type AnswerOf<E> = E extends { answer: infer A } ? (A extends z.ZodType ? z.output<A> : string) : never;

/** The answers of a declared other status (set by the handler with res.status first). */
export type OtherAnswerOf<E> = E extends { otherAnswers: infer O }
  ? { [K in keyof O]: O[K] extends { schema: infer S extends z.ZodType } ? z.output<S> : never }[keyof O]
  : never;

/** What a caller sends: path parameters and query as strings or numbers, the body as declared. */
export interface RequestOf<E> {
  params: SchemaOf<E, "params"> extends z.ZodType ? Record<keyof z.input<SchemaOf<E, "params">>, string | number> : undefined;
  query: SchemaOf<E, "query"> extends z.ZodType ? { [K in keyof z.input<SchemaOf<E, "query">>]?: string | number } : undefined;
  body: In<SchemaOf<E, "body">>;
}
