import { existsSync, readFileSync } from "node:fs";
import { STATUS_CODES } from "node:http";
import path from "node:path";
import compression from "compression";
import express, { ErrorRequestHandler, RequestHandler, Response, Router } from "express";
import expressStaticGzip from "express-static-gzip";
import { PRERENDERED_PAGES } from "../../common/prerenderedPages";
import { PREVIEW_HEADERS } from "../../common/securityHeaders";

/**
 * The built dashboard, served by the API server on the API's origin (`npm run start:production`): the same
 * origin means no proxy in between, and SIWE and CORS name one origin. Served as a good static host
 * serves it: each file's brotli or gzip copy, made at build time (frontend/vite.config.mts), chosen
 * by Accept-Encoding (express-static-gzip, over serve-static: no directory listings, no path outside
 * the folder); `compression` only for a file that has no copy. This module decides the headers and
 * which paths are the single-page app's.
 */

/** Vite names every file under assets/ by its content's hash: a new build never reuses a name. */
export const IMMUTABLE = "public, max-age=31536000, immutable";
/** index.html (and anything not hashed) names the current assets: ask again each time (a 304 when unchanged). */
export const REVALIDATE = "no-cache";

const ASSETS = "assets";

/**
 * The modules a route shows first that index.html does not already preload: the router loads them
 * lazily (frontend/src/app/router.tsx, whose prefetchLandingPage starts them for "/"), so a browser
 * would find them only once the entry has run. Named in a Link header with the page, they load
 * alongside the entry. Sources as Vite's manifest names them, from frontend/. Not for a route sent
 * its own page (PRERENDERED_PAGES): that page names them itself, to load after its first paint,
 * which a request started with the page would hold up on a phone's few connections. Not Firebase:
 * the page is drawn from the user it kept while it loads (frontend/src/lib/auth/firebase.ts).
 */
export const ROUTE_MODULES: Record<string, string[]> = {
  "/": ["src/app/layout/Frame.tsx", "src/app/pages/DashboardRoute.tsx"],
};

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}

/**
 * Each route of ROUTE_MODULES with its Link header value (modulepreload for its chunks and the ones
 * they import, preload for their styles), from the build's manifest (dist/.vite/manifest.json);
 * none when the build has no manifest.
 */
export function routePreloads(root: string): Map<string, string> {
  const file = path.join(root, ".vite", "manifest.json");
  const links = new Map<string, string>();
  if (!existsSync(file)) return links;
  const manifest = JSON.parse(readFileSync(file, "utf8")) as Record<string, ManifestChunk>;
  const graph = (keys: string[], into = new Set<string>()): Set<string> => {
    for (const key of keys) {
      if (into.has(key) || !manifest[key]) continue;
      into.add(key);
      graph(manifest[key].imports ?? [], into);
    }
    return into;
  };
  const preloadedByPage = graph(["index.html"]);
  for (const [route, sources] of Object.entries(ROUTE_MODULES)) {
    const chunks = [...graph(sources)].filter((key) => !preloadedByPage.has(key)).map((key) => manifest[key]);
    const scripts = chunks.map((c) => `</${c.file}>; rel=modulepreload`);
    const styles = chunks.flatMap((c) => c.css ?? []).map((css) => `</${css}>; rel=preload; as=style`);
    if (scripts.length + styles.length > 0) links.set(route, [...scripts, ...styles].join(", "));
  }
  return links;
}

/** The build's pages with a route's screen drawn in (PRERENDERED_PAGES) that this build has; index.html serves the others. */
function prerenderedPages(root: string): Map<string, string> {
  return new Map(Object.entries(PRERENDERED_PAGES).filter(([, file]) => existsSync(path.join(root, file))));
}

/** The folder holds a build (it has an index.html), or null: without one there is nothing to serve. */
export function builtDashboard(dir: string | null): string | null {
  return dir !== null && existsSync(path.join(dir, "index.html")) ? dir : null;
}

/** Paths the API owns, matched as loosely as Express mounts `/api` (case-insensitively). */
const isApiPath = (p: string) => /^\/api(\/|$)/i.test(p);

/**
 * A path the dashboard's router would show (/payments, /tx/0x...): not assets/ or under it, and no
 * file extension in its last segment. A missing /assets/index-old.js must be a 404, not the page
 * under a script's name.
 */
function isClientRoute(p: string): boolean {
  let clean: string;
  try {
    clean = decodeURIComponent(p).replace(/\/{2,}/g, "/"); // "/%2eenv" names ".env"; "//assets/" is assets/
  } catch {
    return false;
  }
  // A "." or ".." segment is for serve-static to refuse (403), not a route.
  if (clean.split("/").some((segment) => segment === "." || segment === "..")) return false;
  return !new RegExp(`^/${ASSETS}(/|$)`, "i").test(clean) && !path.posix.basename(clean).includes(".");
}

function plain(res: Response, status: number): void {
  res
    .status(status)
    .type("text/plain")
    .send(STATUS_CODES[status] ?? "Error");
}

/**
 * Serves `dist` for GET and HEAD outside /api, with the dashboard's own Content-Security-Policy and
 * security headers (common/securityHeaders.ts, as `vite preview` sends them), not the API's helmet
 * set: mount it before helmet. Anything else (the API, other methods) passes by untouched.
 */
export function dashboardRoutes(dist: string): Router {
  const root = path.resolve(dist);
  const router = express.Router();

  const dashboardOnly: RequestHandler = (req, res, next) => {
    if (isApiPath(req.path) || (req.method !== "GET" && req.method !== "HEAD")) return next("router");
    res.set(PREVIEW_HEADERS);
    next();
  };
  router.use(dashboardOnly);
  // Every route the dashboard's router shows is index.html (or the route's own page, PRERENDERED_PAGES),
  // sent like any file (its compressed copy); index.html with the modules the route needs first named in a Link header.
  const preloads = routePreloads(root);
  const prerendered = prerenderedPages(root);
  router.use((req, res, next) => {
    if (isClientRoute(req.path)) {
      const page = prerendered.get(req.path);
      const link = preloads.get(req.path);
      if (link && !page) res.setHeader("Link", link);
      req.url = `/${page ?? "index.html"}`;
    }
    next();
  });
  // Only the dashboard's files: API answers carry tokens beside text a caller chose, which is what
  // compression side channels (BREACH) need; static files carry no secret. A file served from its
  // compressed copy already has its Content-Encoding, which `compression` leaves alone.
  router.use(compression());
  router.use(
    expressStaticGzip(root, {
      enableBrotli: true,
      // Brotli when the browser takes both: about a fifth smaller than gzip for the dashboard's scripts.
      orderPreference: ["br", "gz"],
      index: false, // "/" is the app's route like any other: index.html comes from the rewrite above
      serveStatic: {
        redirect: false, // a folder is a 404, never a redirect or a listing
        dotfiles: "ignore",
        // Errors (a 404, a 403 for "..") come to the handler below rather than falling through.
        fallthrough: false,
        cacheControl: false,
        setHeaders(res, file) {
          const hashed = path.relative(root, file).split(path.sep)[0] === ASSETS;
          res.setHeader("Cache-Control", hashed ? IMMUTABLE : REVALIDATE);
        },
      },
    }),
  );

  const notAFile: ErrorRequestHandler = (error, req, res, next) => {
    const status = typeof error?.status === "number" ? error.status : 500;
    if (status >= 500) return next(error);
    // 400 (a malformed or NUL-bearing path), 403 (a ".." segment, however encoded), 404.
    plain(res, status);
  };
  router.use(notAFile);
  return router;
}
