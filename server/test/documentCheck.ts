import Ajv2020, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { z } from "zod";
import { openApiDocument, openApiPath } from "../src/routes/openapiDocument";
import { declaredEndpoint } from "./answerCheck";

/**
 * Every request the server suite sends, and every answer it gets, checked against the generated
 * OpenAPI document (GET /api/openapi.json) by a JSON Schema validator (ajv), as an integrator's
 * validator would check them, rather than against common/api's zod (answerCheck.ts does that):
 * - a request the document calls invalid must not be accepted (2xx);
 * - a request the declaration refuses (a validation 400, recomputed with the endpoint's zod) must be
 *   invalid by the document too, unless every reason is one JSON Schema cannot state and the
 *   document states in words (a refinement marked IN_WORDS in common/api: an EIP-55 checksum, a
 *   decimal's value against 2^256 - 1, two parameters compared);
 * - an answer must be one of the operation's responses, its JSON matching that response's schema.
 * So the document cannot promise what the server refuses, nor refuse what it takes.
 */

type Json = Record<string, unknown>;

interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema: Json;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Json }> };
  responses: Record<string, { content?: Record<string, { schema: Json }> }>;
}

/** What the suite sent: the path with its query, and the body as it went on the wire. */
export interface SentRequest {
  method: string;
  path: string;
  contentType?: string;
  body?: string;
}

/** A document as a schema ajv resolves pointers into, $refs and all; each schema compiled once. */
class DocumentSchemas {
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();
  readonly paths: Record<string, Record<string, Operation>>;

  constructor(document: unknown) {
    const copy = JSON.parse(JSON.stringify(document)) as Json;
    this.paths = copy.paths as DocumentSchemas["paths"];
    // strict: false, as the document mixes OpenAPI's words (paths, example) with JSON Schema's.
    this.ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
    addFormats(this.ajv);
    this.ajv.addSchema(copy, "openapi.json");
  }

  /** The validator of the schema at a JSON pointer into the document. */
  at(pointer: string[]): ValidateFunction {
    const ref = `openapi.json#/${pointer.map((part) => part.replace(/~/g, "~0").replace(/\//g, "~1")).join("/")}`;
    let validate = this.compiled.get(ref);
    if (!validate) {
      validate = this.ajv.compile({ $ref: ref });
      this.compiled.set(ref, validate);
    }
    return validate;
  }
}

let served: DocumentSchemas | undefined;
/** The server's document, generated once per run. */
const servedDocument = () => (served ??= new DocumentSchemas(openApiDocument()));

const problemsOf = (errors: ErrorObject[] | null | undefined, where: string) =>
  (errors ?? []).map(
    (e) => `${where}${e.instancePath} ${e.message}${e.params && "allowedValues" in e.params ? ` ${JSON.stringify(e.params)}` : ""}`,
  );

/**
 * A parameter's text as the value its schema's type says (OpenAPI's simple and form styles): an
 * integer's digits become the integer, "true"/"false" a boolean; anything else stays text, so
 * "1e3" or "0x10" is no integer, as a client serialising one would never send them.
 */
function deserialize(text: string | string[], schema: Json): unknown {
  if (Array.isArray(text)) return text; // a repeated parameter: an array, which no scalar schema takes
  const type = schema.type;
  if (type === "integer" && /^-?\d+$/.test(text)) return Number(text);
  if (type === "number" && /^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (type === "boolean" && (text === "true" || text === "false")) return text === "true";
  return text;
}

interface Located {
  doc: DocumentSchemas;
  key: string;
  pathKey: string;
  method: string;
  operation: Operation;
  endpoint: NonNullable<ReturnType<typeof declaredEndpoint>>["endpoint"];
  params: Record<string, string>;
  query: Record<string, string | string[]>;
}

function locate(doc: DocumentSchemas, method: string, path: string): Located | "undecodable" | undefined {
  const route = declaredEndpoint(method, path);
  if (!route) return undefined;
  const url = new URL(path, "http://api");
  const routePath = route.key.slice(route.key.indexOf(" ") + 1);
  const names = [...routePath.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
  const match = new RegExp(`^${routePath.replace(/[.]/g, "\\.").replace(/:([A-Za-z0-9_]+)/g, "([^/]+)")}/?$`).exec(url.pathname);
  const params: Record<string, string> = {};
  try {
    names.forEach((name, i) => (params[name] = decodeURIComponent(match![i + 1])));
  } catch {
    return "undecodable"; // a malformed %-escape: the server answers 400 before any route
  }
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of url.searchParams) {
    const held = query[name];
    query[name] = held === undefined ? value : [...(Array.isArray(held) ? held : [held]), value];
  }
  const pathKey = openApiPath(routePath);
  const operation = doc.paths[pathKey][method.toLowerCase()];
  return { doc, key: route.key, pathKey, method: method.toLowerCase(), operation, endpoint: route.endpoint, params, query };
}

/** Why the document calls the request invalid (nothing: valid). */
function documentProblems(at: Located, request: SentRequest): string[] {
  const problems: string[] = [];
  (at.operation.parameters ?? []).forEach((parameter, index) => {
    if (parameter.in !== "path" && parameter.in !== "query") return;
    const raw = parameter.in === "path" ? at.params[parameter.name] : at.query[parameter.name];
    if (raw === undefined) {
      if (parameter.required) problems.push(`${parameter.in} ${parameter.name} is required`);
      return;
    }
    const validate = at.doc.at(["paths", at.pathKey, at.method, "parameters", String(index), "schema"]);
    if (!validate(deserialize(raw, parameter.schema))) problems.push(...problemsOf(validate.errors, `${parameter.in} ${parameter.name}`));
  });
  const declared = at.operation.requestBody;
  if (declared) {
    const sent = request.body !== undefined && request.body !== "";
    if (!sent) {
      if (declared.required) problems.push("the body is required");
    } else if (!(request.contentType ?? "").split(";")[0].trim().toLowerCase().endsWith("application/json")) {
      problems.push(`the body must be application/json, not ${request.contentType ?? "sent without a type"}`);
    } else {
      let body: unknown;
      try {
        body = JSON.parse(request.body!);
      } catch {
        return [...problems, "the body is not JSON"];
      }
      const validate = at.doc.at(["paths", at.pathKey, at.method, "requestBody", "content", "application/json", "schema"]);
      if (!validate(body)) problems.push(...problemsOf(validate.errors, "body"));
    }
  }
  return problems;
}

/** The declaration's own verdict (common/api's zod, as validate.ts runs it): its issues, or none. */
function declarationIssues(at: Located, request: SentRequest): z.core.$ZodIssue[] {
  const { endpoint } = at;
  const issues: z.core.$ZodIssue[] = [];
  if (endpoint.params) issues.push(...(endpoint.params.safeParse(at.params).error?.issues ?? []));
  if (endpoint.query) issues.push(...(endpoint.query.safeParse(at.query).error?.issues ?? []));
  if (endpoint.body && request.body !== undefined) {
    try {
      issues.push(...(endpoint.body.safeParse(JSON.parse(request.body)).error?.issues ?? []));
    } catch {
      /* not JSON: the parser's 400, not the declaration's */
    }
  }
  return issues;
}

function checkAnswerShape(at: Located, status: number, body: unknown, contentType: string | null, what: string): void {
  const response = at.operation.responses[String(status)];
  if (!response) throw new Error(`${what}: the OpenAPI document lists no ${status} answer for ${at.key}`);
  const json = response.content?.["application/json"];
  if (!json) {
    const declared = Object.keys(response.content ?? {})[0];
    if (declared && !contentType?.startsWith(declared.split(";")[0]))
      throw new Error(`${what} answered ${contentType}, but the OpenAPI document says ${declared}`);
    return;
  }
  const validate = at.doc.at(["paths", at.pathKey, at.method, "responses", String(status), "content", "application/json", "schema"]);
  if (!validate(body))
    throw new Error(
      `${what}: the answer does not match the OpenAPI document: ${problemsOf(validate.errors, "answer").join("; ")}\nbody: ${JSON.stringify(body).slice(0, 600)}`,
    );
}

/** Why the server's document calls a request invalid: nothing when it is valid, or names no operation. */
export function documentRefusal(request: SentRequest): string[] {
  const at = locate(servedDocument(), request.method.toUpperCase(), request.path);
  return at === undefined || at === "undecodable" ? [] : documentProblems(at, request);
}

/** Throws when a request and its answer disagree with the OpenAPI document (see above). */
export function checkWithDocument(
  request: SentRequest,
  status: number,
  body: unknown,
  contentType: string | null,
  /** Another document than the server's (the checker's own tests). */
  document?: unknown,
): void {
  const method = request.method.toUpperCase();
  if (!["GET", "POST", "PATCH", "DELETE", "PUT"].includes(method)) return;
  const pathname = new URL(request.path, "http://api").pathname;
  if (!pathname.startsWith("/api/")) return;
  if (status === 502 || status === 504) return; // a gateway's answer (answerCheck.ts)
  const at = locate(document === undefined ? servedDocument() : new DocumentSchemas(document), method, request.path);
  if (at === undefined || at === "undecodable") return; // no operation: answerCheck.ts checks the 404
  const what = `${method} ${request.path.slice(0, 200)} (${status})`;
  const problems = documentProblems(at, request);
  if (problems.length > 0 && status >= 200 && status < 300)
    throw new Error(`${what}: the OpenAPI document calls this request invalid, but the server took it: ${problems.join("; ")}`);
  if (status === 400 && problems.length === 0) {
    const issues = declarationIssues(at, request);
    // A refinement JSON Schema cannot state (an EIP-55 checksum, fromBlock after toBlock), marked IN_WORDS: the document says it in words.
    const inWords = (issue: z.core.$ZodIssue) => issue.code === "custom" && issue.params?.documentedInWords === true;
    if (issues.length > 0 && !issues.every(inWords))
      throw new Error(
        `${what}: the declaration refuses this request (${issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}), but the OpenAPI document calls it valid`,
      );
  }
  checkAnswerShape(at, status, body, contentType, what);
}
