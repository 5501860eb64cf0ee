import { Router } from "express";
import { readBuildInfo } from "../lib/buildInfo";
import type { Services } from "../services";
import { declaredRoutes } from "./declared";

/**
 * GET /api/monitoring: what /monitoring shows (common/api/operations.ts MonitoringAnswer). Public, as the
 * page is, so it holds nothing secret: parts in words (RPC URLs cut to their origin), figures, the
 * build and the manifest's public addresses. Answered from memory (services/operations/monitoring.ts samples
 * every 5 s), so a visitor costs the node and the database nothing.
 */
export function monitoringRoutes(services: Services): Router {
  const router = Router();
  const build = readBuildInfo(services.config.buildCommit);
  const startedAt = new Date().toISOString();
  const on = declaredRoutes(router, "/api");
  on("GET /api/monitoring", [], () => {
    const { manifest } = services.chain;
    const leadership = services.leadership.status();
    return {
      replica: { leader: leadership.leader, mode: leadership.mode, startedAt },
      build: {
        version: build.version,
        commit: build.commit,
        network: services.config.network,
        chainId: services.config.chainId,
        proxy: manifest.proxy,
        implementation: manifest.implementation,
        batchPayments: manifest.batchPayments,
        deploymentBlock: manifest.deploymentBlock,
        deployedAt: manifest.deployedAt,
      },
      parts: services.monitoring.health(),
      series: { intervalSeconds: services.monitoring.intervalMs / 1000, points: services.monitoring.series() },
    };
  });
  return router;
}
