import { existsSync } from "node:fs";
import { STATUS_CODES } from "node:http";
import path from "node:path";
import compression from "compression";
import express, { ErrorRequestHandler, RequestHandler, Response, Router } from "express";
import { PREVIEW_HEADERS } from "../../common/securityHeaders";

/**
 * The built dashboard, served by the API server on the API's origin (`npm run start:production`): the same
 * origin means no proxy in between, and SIWE and CORS name one origin. The files are served by
 * express.static (serve-static: no directory listings, no path outside the folder) and compressed
 * by `compression`; this module only decides headers and which paths are the single-page app's.
 */

/** Vite names every file under assets/ by its content's hash: a new build never reuses a name. */
export const IMMUTABLE = "public, max-age=31536000, immutable";
/** index.html (and anything not hashed) names the current assets: ask again each time (a 304 when unchanged). */
export const REVALIDATE = "no-cache";

const ASSETS = "assets";

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
  const indexHtml = path.join(root, "index.html");
  const router = express.Router();

  const dashboardOnly: RequestHandler = (req, res, next) => {
    if (isApiPath(req.path) || (req.method !== "GET" && req.method !== "HEAD")) return next("router");
    res.set(PREVIEW_HEADERS);
    next();
  };
  router.use(dashboardOnly);
  // Only the dashboard's files: API answers carry tokens beside text a caller chose, which is what
  // compression side channels (BREACH) need; static files carry no secret.
  router.use(compression());
  router.use(
    express.static(root, {
      index: false, // "/" is the app's route like any other: the fallback below answers it
      redirect: false, // a folder is a 404, never a redirect or a listing
      dotfiles: "ignore",
      // Errors (a 404, a 403 for "..") come to the handler below rather than falling through.
      fallthrough: false,
      cacheControl: false,
      setHeaders(res, file) {
        const hashed = path.relative(root, file).split(path.sep)[0] === ASSETS;
        res.setHeader("Cache-Control", hashed ? IMMUTABLE : REVALIDATE);
      },
    }),
  );

  const notAFile: ErrorRequestHandler = (error, req, res, next) => {
    const status = typeof error?.status === "number" ? error.status : 500;
    if (status >= 500) return next(error);
    if (status === 404 && isClientRoute(req.path)) {
      // The single-page app: index.html for every route it knows, and it shows its own 404 page.
      res.setHeader("Cache-Control", REVALIDATE);
      res.sendFile(indexHtml, { cacheControl: false }, (sendError) => sendError && next(sendError));
      return;
    }
    // 400 (a malformed or NUL-bearing path), 403 (a ".." segment, however encoded), 404.
    plain(res, status);
  };
  router.use(notAFile);
  return router;
}
