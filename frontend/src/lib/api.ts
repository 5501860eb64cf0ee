/**
 * The API client. Every call goes to the same origin's /api (Vite forwards it to the server), with
 * the signed-in user's Firebase ID token as a bearer token when there is one.
 */

import type { Api, EndpointKey } from "@common/api";
import type { AnswerOf, RequestOf } from "@common/api/endpoint";
import { PATH_PARAM, splitKey } from "@common/api/keys";
import { currentIdToken } from "./auth/session";

export { currentIdToken, setTokenGetter } from "./auth/session";

/**
 * An answer that was not a success, as one structured error: `status` and the server's `sentence`
 * (its `error` when it sent JSON, else the body's text, else the status text). Features read the
 * fields; `message` is PRODUCT.md section 7's 'status: sentence', for screens that show it whole.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly sentence: string,
  ) {
    super(`${status}: ${sentence}`);
  }
}

/**
 * What went wrong, in words: the server's sentence for a refused call, else the error's message;
 * when neither says anything, `fallback` (or null).
 */
export function errorSentence(error: unknown): string | null;
export function errorSentence(error: unknown, fallback: string): string;
export function errorSentence(error: unknown, fallback: string | null = null): string | null {
  if (error instanceof ApiError) return error.sentence || fallback;
  if (error instanceof Error) return error.message || fallback;
  return fallback;
}

async function failure(res: Response): Promise<ApiError> {
  const text = await res.text().catch(() => "");
  let detail = text;
  try {
    const json = JSON.parse(text) as { error?: unknown };
    if (typeof json.error === "string") detail = json.error;
  } catch {
    /* not JSON: the text as it is */
  }
  return new ApiError(res.status, detail || res.statusText);
}

/** Calls the API server: `path` is the full path, '/api/...' (the same string TanStack Query keys use). */
export async function api<T>(path: string, options: { method?: string; body?: unknown } = {}): Promise<T> {
  return (await (await send(path, options)).json()) as T;
}

/** The success answer of a declared endpoint, for queries that use the default query function. */
export type Answer<K extends EndpointKey> = AnswerOf<Api[K]>;

/** What a call of a declared endpoint sends: only the parts it declares (common/api). */
type CallInput<K extends EndpointKey> = {
  [P in keyof RequestOf<Api[K]> as RequestOf<Api[K]>[P] extends undefined ? never : P]: RequestOf<Api[K]>[P];
};

/** The URL of a declared endpoint: its path with `:name` filled in, then the query's defined values. */
export function endpointUrl<K extends EndpointKey>(
  key: K,
  input: { params?: Record<string, string | number>; query?: Record<string, string | number | undefined> } = {},
): string {
  let path = splitKey(key).path.replace(PATH_PARAM, (_m, name: string) => encodeURIComponent(String(input.params?.[name])));
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(input.query ?? {})) if (value !== undefined) query.set(name, String(value));
  if ([...query].length > 0) path += `?${query}`;
  return path;
}

/**
 * Calls a declared endpoint, "METHOD /api/path": its input and answer are typed by the API's
 * declaration (common/api), so a renamed field is a type error here and on the server.
 */
export function call<K extends EndpointKey>(
  key: K,
  ...[input]: keyof CallInput<K> extends never ? [input?: Record<string, never>] : [input: CallInput<K>]
): Promise<AnswerOf<Api[K]>> {
  const { params, query, body } = (input ?? {}) as {
    params?: Record<string, string | number>;
    query?: Record<string, string | number | undefined>;
    body?: unknown;
  };
  return api<AnswerOf<Api[K]>>(endpointUrl(key, { params, query }), { method: splitKey(key).method, body });
}

/** The same call for an answer that is not JSON (a CSV export): its text and headers. */
export async function apiText(path: string): Promise<{ text: string; headers: Headers }> {
  const res = await send(path, {});
  return { text: await res.text(), headers: res.headers };
}

/** The file name the server gives in Content-Disposition (it owns an export's name). */
export function attachmentName(header: string | null): string | null {
  const match = header?.match(/filename\*?=(?:UTF-8'')?"?([^";]+)"?/i);
  return match ? decodeURIComponent(match[1]) : null;
}

/** A file the API answers (a CSV export): its text, and the name the server gave it, else `fallbackName`. */
export async function apiFile(path: string, fallbackName: string): Promise<{ text: string; fileName: string }> {
  const { text, headers } = await apiText(path);
  return { text, fileName: attachmentName(headers.get("content-disposition")) ?? fallbackName };
}

async function send(path: string, options: { method?: string; body?: unknown }): Promise<Response> {
  const headers: Record<string, string> = {};
  const token = await currentIdToken();
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(path, {
    method: options.method ?? "GET",
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    credentials: "include",
  });
  if (!res.ok) throw await failure(res);
  return res;
}
