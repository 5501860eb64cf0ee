/**
 * The API client. Every call goes to the same origin's /api (Vite forwards it to the server), with
 * the signed-in user's Firebase ID token as a bearer token when there is one.
 */

type TokenGetter = () => Promise<string | null>;
let getToken: TokenGetter = async () => null;

/** The session sets where tokens come from (Firebase refreshes them as they expire). */
export function setTokenGetter(getter: TokenGetter): void {
  getToken = getter;
}

/** The signed-in user's ID token (fresh: Firebase renews it near expiry), or null when signed out. */
export function currentIdToken(): Promise<string | null> {
  return getToken();
}

/** An answer that was not a success: the status and the server's sentence. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Spec section 7: a non-success answer raises an error whose message is the status, a colon and a
 * space, then the body's text (the server's `error` sentence when it sent JSON), or the status text.
 */
async function failure(res: Response): Promise<ApiError> {
  const text = await res.text().catch(() => "");
  let detail = text;
  try {
    const json = JSON.parse(text) as { error?: unknown };
    if (typeof json.error === "string") detail = json.error;
  } catch {
    /* not JSON: the text as it is */
  }
  return new ApiError(res.status, `${res.status}: ${detail || res.statusText}`);
}

/** Calls the API server: `path` is the full path, '/api/...' (the same string TanStack Query keys use). */
export async function api<T>(path: string, options: { method?: string; body?: unknown } = {}): Promise<T> {
  return (await (await send(path, options)).json()) as T;
}

/** The same call for an answer that is not JSON (a CSV export): its text and headers. */
export async function apiText(path: string): Promise<{ text: string; headers: Headers }> {
  const res = await send(path, {});
  return { text: await res.text(), headers: res.headers };
}

async function send(path: string, options: { method?: string; body?: unknown }): Promise<Response> {
  const headers: Record<string, string> = {};
  const token = await getToken();
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
