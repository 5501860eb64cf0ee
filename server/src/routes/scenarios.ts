import { Router } from "express";
import { requireUser } from "../middleware/auth";
import { perUserRateLimit } from "../middleware/rateLimits";
import { notFound } from "../lib/errors";
import type { Services } from "../services";
import { VALIDATE, declaredRoutes } from "./declared";

/**
 * A router for the panel's endpoints under `base`: off the local chain every request is refused
 * with the sentence (404) before anything else, signed in or not; on it, signed-in users only.
 */
function panelRouter(services: Services, base: string) {
  const router = Router();
  const { offReason } = services.scenarios;
  router.use((_req, _res, next) => next(offReason ? notFound(offReason) : undefined));
  router.use(requireUser(services.auth));
  return { router, on: declaredRoutes(router, base) };
}

/**
 * What changes the chain (apply, restore) or saves it (a snapshot): one budget a minute per user
 * (USER_SCENARIO_RUNS_PER_MINUTE). Mounted after the input's check: a mistyped name costs nothing.
 */
const runLimit = (services: Services) => perUserRateLimit(services.rateLimits, "scenario-runs", "scenario runs and snapshots");

/**
 * /api/scenarios (common/api/scenarios.ts): the dashboard's Scenarios panel for testers, on the
 * local chain. A run is answered 202 as it starts; the panel follows it with GET /api/scenarios/run.
 */
export function scenarioRoutes(services: Services): Router {
  const { router, on } = panelRouter(services, "/api/scenarios");
  const { scenarios } = services;

  on("GET /api/scenarios", [], async () => ({ success: true, ...(await scenarios.overview()) }));

  on("GET /api/scenarios/run", [], () => ({ success: true, run: scenarios.current() }));

  on("POST /api/scenarios/:name/apply", [VALIDATE, runLimit(services)], async ({ params }) => ({
    success: true,
    run: await scenarios.apply(params.name),
  }));
  return router;
}

/** /api/snapshots (common/api/scenarios.ts): the node's named snapshots, taken and restored from the panel. */
export function snapshotRoutes(services: Services): Router {
  const { router, on } = panelRouter(services, "/api/snapshots");
  const { scenarios } = services;

  on("POST /api/snapshots", [VALIDATE, runLimit(services)], async ({ body }) => ({
    success: true,
    snapshot: await scenarios.takeSnapshot(body.name),
  }));

  on("POST /api/snapshots/:name/restore", [VALIDATE, runLimit(services)], async ({ params }) => ({
    success: true,
    run: await scenarios.restore(params.name),
  }));
  return router;
}
