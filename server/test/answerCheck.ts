import type { z } from "zod";
import { API } from "@common/api";
import { type Endpoint, ErrorAnswer, impliedErrors, type Method, splitKey } from "@common/api/endpoint";
import { PATH_PARAM } from "@common/api/keys";

/**
 * Every answer the server suite receives is checked against the API's declaration (common/api):
 * its status must be one the endpoint declares, and its body must match that status's schema
 * (answers are strict objects, so an undeclared field fails too). The request helpers call this,
 * so every test that calls the API also tests that the docs tell the truth.
 */

interface Route {
  key: string;
  method: Method;
  pattern: RegExp;
  /** Fewer parameters first: '/api/batch/status' wins over '/api/batch/:id'. */
  params: number;
  endpoint: Endpoint;
}

const ROUTES: Route[] = (Object.entries(API) as [string, Endpoint][])
  .map(([key, endpoint]) => {
    const { method, path } = splitKey(key);
    const source = path.replace(/[.]/g, "\\.").replace(PATH_PARAM, "[^/]+");
    return { key, method, pattern: new RegExp(`^${source}/?$`), params: (path.match(/:/g) ?? []).length, endpoint };
  })
  .sort((a, b) => a.params - b.params);

/** The declared endpoint a request reaches, or undefined (the API answers those 404). */
export function declaredEndpoint(method: string, url: string): Route | undefined {
  const pathname = new URL(url, "http://api").pathname;
  return ROUTES.find((r) => r.method === method.toUpperCase() && r.pattern.test(pathname));
}

function check(schema: z.ZodType, body: unknown, what: string): void {
  const result = schema.safeParse(body);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join(".") || "(answer)"}: ${i.message}`).join("; ");
    throw new Error(`${what} does not match its declaration in common/api: ${problems}\nbody: ${JSON.stringify(body).slice(0, 600)}`);
  }
}

/** Throws when an answer of the API is not what its declaration says. `path` may carry a query. */
export function checkAnswer(method: string, path: string, status: number, body: unknown, contentType: string | null): void {
  const upper = method.toUpperCase();
  if (!["GET", "POST", "PATCH", "DELETE", "PUT"].includes(upper)) return; // HEAD, OPTIONS: no body to check
  const pathname = new URL(path, "http://api").pathname;
  if (!pathname.startsWith("/api/") && pathname !== "/api") return; // the dashboard's files
  // A gateway's answer, not the API's: the replica tests' round robin answers 502 for a replica it
  // lost mid-request (the test retries it), and the API itself never answers 502 or 504.
  if (status === 502 || status === 504) return;
  const what = `${upper} ${pathname} (${status})`;
  const route = declaredEndpoint(upper, path);
  if (!route) return check(ErrorAnswer, body, `${what}, an undeclared endpoint,`);
  const { endpoint } = route;
  if (status === (endpoint.status ?? 200)) {
    if ("contentType" in endpoint.answer) {
      const declared = endpoint.answer.contentType.split(";")[0];
      if (!contentType?.startsWith(declared)) throw new Error(`${what} answered ${contentType}, but ${route.key} declares ${declared}`);
      return;
    }
    return check(endpoint.answer, body, what);
  }
  const other = endpoint.otherAnswers?.[status];
  if (other) return check(other.schema, body, what);
  if (!impliedErrors(endpoint, route.method).includes(status as never)) {
    throw new Error(
      `${what}: ${route.key} does not declare status ${status} (add it to its errors in common/api). body: ${JSON.stringify(body).slice(0, 300)}`,
    );
  }
  check(ErrorAnswer, body, what);
}
