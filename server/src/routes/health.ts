import { Router } from "express";
import type { Services } from "../services";

/** GET /api/health: chain, database, auth and indexer; 200 when all answer, else 503 with what does not. */
export function healthRoutes(services: Services): Router {
  const router = Router();
  router.get("/health", async (_req, res) => {
    const { chain, db, auth, indexer, config } = services;
    const [chainState, database, authOk] = await Promise.all([
      chain.provider
        .getBlockNumber()
        .then((blockNumber) => ({ ok: true, blockNumber }))
        .catch(() => ({ ok: false, error: `the RPC node at ${config.rpcUrl} is not answering` })),
      db.ping().catch(() => false),
      auth.ping(),
    ]);
    const index = indexer.status();
    const indexerOk = index.checkpoint !== null && index.lastError === null;
    const ok = chainState.ok && database && authOk && indexerOk;
    res.status(ok ? 200 : 503).json({
      status: ok ? "ok" : "degraded",
      network: config.network,
      chainId: config.chainId,
      proxy: chain.manifest.proxy,
      chain: chainState,
      database: { ok: database, kind: db.kind },
      auth: { ok: authOk, mode: auth.mode },
      indexer: index,
      // Informational: both carry on by themselves once the chain and the database answer again.
      batchWatcher: services.batchWatcher.status(),
      mockBank: { enabled: services.bank.enabled, ...services.bank.status() },
    });
  });
  return router;
}
