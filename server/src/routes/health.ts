import { Router } from "express";
import { DATABASE_UNAVAILABLE } from "../lib/errors";
import type { Services } from "../services";
import { declaredRoutes } from "./declared";
import { redactRpcUrl } from "../lib/redact";
import { chainSeen } from "../services/operations/probes";
import { recently } from "../lib/recent";

/**
 * How long one ping of the database and of the identity service answers every health and readiness
 * check: a flood of public checks costs them one ping each a second, not one a request (in
 * production the identity service is Google's, with its own quota), and a fault still shows within a second.
 */
export const HEALTH_PING_MS = 1000;

/**
 * GET /api/health: chain, database, auth and indexer, and whether this replica leads; 200 when all
 * answer, else 503 with what does not. Public, so it asks the RPC node nothing: the chain's part is
 * the head the loops last read and whether they still can, as /api/monitoring's (a flood of health
 * checks must not spend the provider's quota, nor earn the 429 that stalls the loops).
 * The database and identity pings are shared by the checks of the same second (HEALTH_PING_MS).
 * GET /api/live and GET /api/ready: for a load balancer.
 */
export function healthRoutes(services: Services): Router {
  const router = Router();
  const on = declaredRoutes(router, "/api");
  const databasePing = recently(() => services.db.ping().catch(() => false), HEALTH_PING_MS);
  const authPing = recently(() => services.auth.ping().catch(() => false), HEALTH_PING_MS);
  on("GET /api/health", [], async (_input, res) => {
    const { chain, db, auth, indexer, config } = services;
    const redact = <T extends { lastError: string | null }>(status: T): T => ({
      ...status,
      lastError: status.lastError === null ? null : redactRpcUrl(status.lastError, config.rpcUrl),
    });
    const seen = chainSeen(indexer, config.indexer.pollMs);
    const chainState =
      seen.state === "answers"
        ? { ok: true as const, blockNumber: seen.head }
        : {
            ok: false as const,
            error:
              seen.state === "starting"
                ? "the chain's head is not read yet: the server is starting"
                : `the RPC node at ${new URL(config.rpcUrl).origin} is not answering`,
          };
    const [database, authOk] = await Promise.all([databasePing(), authPing()]);
    const index = indexer.status();
    const leadership = services.leadership.status();
    const indexerOk = index.checkpoint !== null && index.lastError === null;
    const ok = chainState.ok && database && authOk && indexerOk;
    res.status(ok ? 200 : 503);
    return {
      status: ok ? "ok" : "degraded",
      network: config.network,
      chainId: config.chainId,
      proxy: chain.manifest.proxy,
      chain: chainState,
      database: { ok: database, kind: db.kind },
      auth: { ok: authOk, mode: auth.mode },
      indexer: redact(index),
      // Informational: both carry on by themselves once the chain and the database answer again.
      // Whether this replica runs the background loops (the others follow the index the leader writes).
      leader: leadership.leader,
      leadership: { mode: leadership.mode, since: leadership.since },
      batchWatcher: redact(services.batchWatcher.status()),
      mockBank: { enabled: services.bank.enabled, ...redact(services.bank.status()) },
      alerts: redact(services.alerts.status()),
    };
  });

  // For a load balancer. Live: the process runs and answers (restart it when not).
  on("GET /api/live", [], () => ({ status: "live" }));

  // Ready: this replica can serve requests (send it traffic): its database answers and it is not stopping.
  on("GET /api/ready", [], async (_input, res) => {
    if (services.serving.draining) {
      res.status(503);
      return { status: "draining", error: "This server is stopping: it finishes the requests under way and takes no new ones." };
    }
    if (!(await databasePing())) {
      res.status(503);
      return { status: "unready", error: DATABASE_UNAVAILABLE };
    }
    return { status: "ready", leader: services.leadership.status().leader };
  });
  return router;
}
