/** A request as swagger-ui hands it to its request interceptor before sending it. */
export interface ViewerRequest {
  url: string;
  headers?: Record<string, string>;
}

export interface TokenSource {
  /** The signed-in user's ID token, or null when signed out. */
  idToken(): Promise<string | null>;
  /** The Authorization value the page put under Authorize itself, if any (it may have expired since). */
  prefilled(): string | null;
  /** The dashboard's own origin: the only one a token is ever sent to. */
  origin: string;
}

export const bearer = (token: string) => `Bearer ${token}`;

function authorizationKey(headers: Record<string, string>): string | undefined {
  return Object.keys(headers).find((name) => name.toLowerCase() === "authorization");
}

/**
 * Gives a request the signed-in user's ID token, so 'Try it out' works as the dashboard does. A
 * token the person pasted under Authorize wins; one the page pre-filled there is replaced by a fresh
 * one (ID tokens expire after an hour), or dropped once the user has signed out. Requests to any
 * other origin are left alone, so the token never leaves the dashboard's server.
 */
export async function attachIdToken<R extends ViewerRequest>(request: R, source: TokenSource): Promise<R> {
  if (new URL(request.url, source.origin).origin !== source.origin) return request;
  const headers = { ...request.headers };
  const key = authorizationKey(headers);
  const prefilled = source.prefilled();
  if (key !== undefined && (prefilled === null || headers[key] !== prefilled)) return request;
  if (key !== undefined) delete headers[key];
  const token = await source.idToken();
  if (token) headers.Authorization = bearer(token);
  return { ...request, headers };
}
