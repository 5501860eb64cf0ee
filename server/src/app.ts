import express, { Express } from "express";
import cors from "cors";
import helmet from "helmet";
import { dashboardRoutes } from "./dashboard";
import type { Logger } from "./lib/logger";
import { errorHandler, notFoundHandler } from "./middleware/errorHandler";
import { adminRoutes } from "./routes/admin";
import { alertRoutes } from "./routes/alerts";
import { authRoutes } from "./routes/auth";
import { bankRoutes } from "./routes/bank";
import { batchRoutes } from "./routes/batch";
import { contactRoutes } from "./routes/contacts";
import { chainReadRoutes } from "./routes/chainReads";
import { configRoutes } from "./routes/config";
import { healthRoutes } from "./routes/health";
import { exportRoutes } from "./routes/exports";
import { holderRoutes } from "./routes/holders";
import { metricsRoutes } from "./routes/metrics";
import { monitoringRoutes } from "./routes/monitoring";
import { openApiRoutes } from "./routes/openapi";
import { safeRoutes } from "./routes/safes";
import { scenarioRoutes, snapshotRoutes } from "./routes/scenarios";
import type { Services } from "./services";
import { followRoute } from "./services/operations/metrics";

// Spec and issue: JSON bodies are capped at 1 MB.
export const JSON_BODY_LIMIT = "1mb";

/** `dashboard`: a built dashboard's folder to serve beside the API (dashboard.ts), or null for the API alone. */
export function createApp(services: Services, log: Logger, dashboard: string | null = null): Express {
  const app = express();
  app.disable("x-powered-by");
  // Behind the dashboard's Vite proxy every request comes from 127.0.0.1: without this, all users
  // would share one rate-limit bucket. Only the configured proxies may name the client.
  app.set("trust proxy", services.config.trustProxy);
  app.use((req, res, next) => {
    req.log = log;
    // A stopping server answers what it was asked and closes the connection: the client's next request goes elsewhere.
    if (services.serving.draining) res.setHeader("Connection", "close");
    const started = process.hrtime.bigint();
    const route = followRoute(req);
    res.on("finish", () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      services.metrics.observeRequest(req.method, route(), res.statusCode, ms / 1000);
      log.debug({ method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 }, "request");
    });
    next();
  });
  // Before helmet: the dashboard's pages carry the dashboard's CSP, not the API's. /api passes by.
  if (dashboard) app.use(dashboardRoutes(dashboard));
  // helmet's defaults, but no page may frame an API answer at all (SAMEORIGIN is the default).
  app.use(helmet({ contentSecurityPolicy: { directives: { frameAncestors: ["'none'"] } }, frameguard: { action: "deny" } }));
  app.use(cors({ origin: services.config.dashboardOrigins, credentials: true }));
  app.use(express.json({ limit: JSON_BODY_LIMIT }));

  const api = express.Router();
  api.use(healthRoutes(services));
  api.use(metricsRoutes(services));
  api.use(monitoringRoutes(services));
  api.use(openApiRoutes());
  api.use(configRoutes(services));
  api.use(chainReadRoutes(services));
  api.use(holderRoutes(services));
  api.use(exportRoutes(services));
  api.use("/auth", authRoutes(services));
  api.use(adminRoutes(services));
  api.use("/alerts", alertRoutes(services));
  api.use("/safes", safeRoutes(services));
  api.use("/batch", batchRoutes(services));
  api.use("/contacts", contactRoutes(services));
  api.use("/bank", bankRoutes(services));
  api.use("/scenarios", scenarioRoutes(services));
  api.use("/snapshots", snapshotRoutes(services));
  api.use(notFoundHandler);
  app.use("/api", api);
  app.use(notFoundHandler);
  app.use(errorHandler(log));
  return app;
}
