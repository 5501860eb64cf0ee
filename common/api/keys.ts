/**
 * The grammar of an endpoint's key, "METHOD /api/path/:name", with no zod in it: the dashboard
 * builds URLs with it (lib/api.ts) without bringing the declaration's schemas into its bundle.
 */

export type Method = "GET" | "POST" | "PATCH" | "DELETE";

/** A path parameter in a key's path (`:id`); `$1` is its name. Global: use with replace. */
export const PATH_PARAM = /:([A-Za-z0-9_]+)/g;

/** Splits a key into its method and express path. */
export function splitKey(key: string): { method: Method; path: string } {
  const space = key.indexOf(" ");
  return { method: key.slice(0, space) as Method, path: key.slice(space + 1) };
}
