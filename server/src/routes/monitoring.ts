import { Router } from "express";
import type { RpcBudgetStatus } from "@common/api/operations";
import type { BudgetStatus } from "../chain/rpcBudget";
import { readBuildInfo } from "../lib/buildInfo";
import type { Services } from "../services";
import { declaredRoutes } from "./declared";

/** The request budget as /monitoring shows it (read from memory: no request to the node). */
function rpcBudgetAnswer(status: BudgetStatus): RpcBudgetStatus {
  const { plan, configuredPerSecond, allowedPerSecond, lowered, spentPerSecond, spentTotal, waits, waitedSeconds, refused } = status;
  const loweredUntil = lowered ? new Date(lowered.holdUntil).toISOString() : null;
  return { plan, configuredPerSecond, allowedPerSecond, loweredUntil, spentPerSecond, spentTotal, waits, waitedSeconds, refused };
}

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
      rpcBudget: rpcBudgetAnswer(services.chain.transport.budget.status()),
      series: { intervalSeconds: services.monitoring.intervalMs / 1000, points: services.monitoring.series() },
    };
  });
  return router;
}
