import { Router } from "express";
import { metricsAccess } from "../middleware/metricsAccess";
import type { Services } from "../services";
import { declaredRoutes } from "./declared";

/** GET /api/metrics: this server's figures in the Prometheus text format, for an operator's scraper (middleware/metricsAccess.ts). */
export function metricsRoutes(services: Services): Router {
  const router = Router();
  const on = declaredRoutes(router, "/api");
  on("GET /api/metrics", [metricsAccess(services.config.metricsToken)], async (_input, res) => {
    const { contentType, text } = await services.metrics.scrape();
    // A scrape is always a fresh reading.
    res.setHeader("Cache-Control", "no-store");
    res.type(contentType).send(text);
  });
  return router;
}
