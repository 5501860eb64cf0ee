import { Router } from "express";
import { chainById, chainIdHex } from "@common/networks";
import { SEEDED_ACCOUNTS, seededAddresses } from "@common/seedAccounts";
import { TOKEN_DECIMALS } from "@common/token";
import type { Services } from "../services";
import { declaredRoutes } from "./declared";

/**
 * GET /api/config: what the dashboard needs to start, from the one place that knows it (the
 * deployment manifest and the server's settings), so the browser never carries its own copy of
 * an address. Public: nothing in it is secret (the web API key of a Firebase project is public).
 */
export function configRoutes(services: Services): Router {
  const router = Router();
  const on = declaredRoutes(router, "/api");
  on("GET /api/config", [], () => {
    const { config, chain } = services;
    const { manifest } = chain;
    const info = chainById(config.chainId)!;
    const local = config.network === "localhost";
    return {
      network: config.network,
      chainId: config.chainId,
      chainIdHex: chainIdHex(config.chainId),
      networkLabel: info.label,
      // A local fork of another chain: what it forks and where, for the dashboard's network badge.
      fork: manifest.fork ?? null,
      explorerUrl: info.explorerUrl,
      rpcUrl: config.publicRpcUrl,
      contracts: {
        proxy: manifest.proxy,
        implementation: manifest.implementation,
        owner: manifest.owner,
        batchPayments: manifest.batchPayments,
        deploymentBlock: manifest.deploymentBlock,
      },
      token: { decimals: TOKEN_DECIMALS },
      firebase: {
        projectId: config.firebase.projectId,
        apiKey: config.firebase.webApiKey,
        authDomain: config.firebase.authDomain,
        emulatorUrl: config.firebase.emulatorHost ? `http://${config.firebase.emulatorHost}` : null,
      },
      // How deep a block must be before the index (and so the dashboard) takes it as final: on
      // Sepolia a transfer shows 'confirming' until then.
      confirmations: config.indexer.confirmations,
      batch: { maxRows: config.batch.maxRows, chunkSize: config.batch.chunkSize },
      // The oracle's guard: a rise above this (in percent of every balance), or any decrease, is typed again.
      multiplierMaxStepPercent: config.multiplierMaxStep / 100,
      mockBank: services.bank.enabled,
      // The development wallet (local chain only): the seeded accounts the node signs for.
      devAccounts: local
        ? SEEDED_ACCOUNTS.map((a, i) => ({ name: a.name, address: seededAddresses()[i], roles: a.roles, description: a.description }))
        : null,
    };
  });
  return router;
}
