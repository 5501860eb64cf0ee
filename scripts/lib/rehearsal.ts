import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { JsonRpcProvider } from "ethers";
import type { DeploymentManifest } from "@common/manifest";
import { SEPOLIA } from "@common/networks";
import { loadConfig } from "../../server/src/config";
import { startServer, type RunningServer } from "../../server/src/index";
import { createLogger } from "../../server/src/lib/logger";
import { PROVIDERS, ProviderProxy, type ProxySettings } from "../../server/test/providerProxy";
import { FIREBASE_PROJECT, freePort, rpc, startAuthEmulator } from "../../server/test/stack";
import { seedLiveToken } from "./fork";
import { DEPLOYER, deployToStandIn, startStandIn } from "./standIn";

/*
 * A Sepolia-shaped rehearsal (issue 14.4): the whole product with NETWORK=sepolia, offline. A
 * Hardhat node with Sepolia's chain id stands in for Sepolia, mining a block every `blockMs`
 * (12 s, as Sepolia does; 2 s in the browser test). USDX is deployed onto it with the project's own
 * `npm run deploy:sepolia`, and the seeded accounts get their roles and test balances as on a fork.
 * The server reaches it only through the test provider proxy, playing a hosted endpoint: Alchemy's
 * eth_getLogs range limit, latency, and now and then a 429 or a 5xx. The browser reads through a
 * second proxy with latency and the same range limit (a public endpoint). The server confirms
 * blocks as on Sepolia (INDEXER_CONFIRMATIONS' default there, 5) and serves the built dashboard.
 * `npm run rehearse:sepolia` runs it for a person; e2e/network/rehearsal.e2e.ts drives it in Chromium.
 */

export const SEPOLIA_BLOCK_MS = 12_000;

/** What a hosted endpoint does to the server: a free plan's 10-block eth_getLogs range, latency, rare 429s and 5xx. */
export const SERVER_PROVIDER: ProxySettings = {
  logs: PROVIDERS.alchemy(10),
  latencyMs: 40,
  rateLimitEvery: 97,
  retryAfter: "1",
  serverErrorEvery: 89,
};
/** What the browser's public endpoint does: the same limit and latency, no refusals a page would show. */
export const BROWSER_PROVIDER: ProxySettings = { logs: PROVIDERS.alchemy(10), latencyMs: 40 };

export interface RehearsalOptions {
  /** The stand-in's block time. */
  blockMs: number;
  /** A production build of the dashboard (vite build's outDir) for the server to serve, or a build still running. */
  dashboardDist: string | Promise<string>;
  /** The server's port (0 or absent: a free one). */
  serverPort?: number;
  /** The browser's (and a wallet's) endpoint's port (0 or absent: a free one). */
  publicRpcPort?: number;
  /** Extra server settings (INDEXER_POLL_MS for a test, LOG_LEVEL, ...). */
  serverEnv?: Record<string, string>;
  log?: (line: string) => void;
}

export interface Rehearsal {
  /** The stand-in Sepolia itself (what a wallet signs on; the seeded accounts are unlocked there). */
  upstreamUrl: string;
  /** The endpoints the server and the browser read through. */
  serverProxy: ProviderProxy;
  browserProxy: ProviderProxy;
  emulatorHost: string;
  deploymentsDir: string;
  manifest: DeploymentManifest;
  server: RunningServer;
  /** The dashboard and the API, on one origin. */
  url: string;
  stop(): Promise<void>;
}

export async function startRehearsal(options: RehearsalOptions): Promise<Rehearsal> {
  const log = options.log ?? (() => undefined);
  const work = mkdtempSync(path.join(tmpdir(), "usdx-rehearsal-"));
  const deploymentsDir = path.join(work, "deployments");
  const stops: (() => Promise<unknown>)[] = [];
  const stop = async () => {
    for (const step of stops.reverse()) await step().catch(() => undefined);
    rmSync(work, { recursive: true, force: true });
  };
  try {
    const node = await startStandIn();
    stops.push(() => node.stop());
    const upstreamUrl = node.url;
    const emulator = await startAuthEmulator(work);
    stops.push(() => emulator.stop());
    log(`Stand-in Sepolia (chain ${SEPOLIA.chainId}) at ${upstreamUrl}; deploying USDX with npm run deploy:sepolia...`);

    // Deployed and seeded while the node mines at once; Sepolia's pace starts after. The deployer
    // owns it, as in an operator's own deployment.
    const manifest = await deployToStandIn(upstreamUrl, deploymentsDir, DEPLOYER.address);
    const provider = new JsonRpcProvider(upstreamUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
    try {
      await seedLiveToken(provider, manifest, (line) => log(line));
    } finally {
      provider.destroy();
    }
    await rpc(upstreamUrl, "evm_setAutomine", [false]);
    await rpc(upstreamUrl, "evm_setIntervalMining", [options.blockMs]);
    log(`USDX at ${manifest.proxy}; a block every ${options.blockMs / 1000} s from now on.`);

    const serverProxy = await new ProviderProxy(upstreamUrl, SERVER_PROVIDER).start();
    stops.push(() => serverProxy.stop());
    const browserProxy = await new ProviderProxy(upstreamUrl, BROWSER_PROVIDER).start(options.publicRpcPort);
    stops.push(() => browserProxy.stop());
    await emulator.ready;

    // One origin for the page and the API, known before the server starts: SIWE and CORS name it.
    const serverPort = options.serverPort || (await freePort());
    const url = `http://127.0.0.1:${serverPort}`;
    const config = loadConfig(
      {
        NETWORK: "sepolia",
        RPC_URL: serverProxy.url,
        PUBLIC_RPC_URL: browserProxy.url,
        DEPLOYMENTS_DIR: deploymentsDir,
        PGLITE_DIR: "memory://",
        FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
        FIREBASE_PROJECT_ID: FIREBASE_PROJECT,
        SERVER_PORT: String(serverPort),
        DASHBOARD_ORIGIN: `${url},http://localhost:${serverPort}`,
        DASHBOARD_DIST: await options.dashboardDist,
        LOG_LEVEL: "warn",
        ...options.serverEnv,
      },
      // The stand-in and its emulator are this process's own: the emulator is allowed off the local chain here only.
      { standInChain: true },
    );
    const server = await startServer(config, createLogger(config.logLevel));
    stops.push(() => server.close());
    return { upstreamUrl, serverProxy, browserProxy, emulatorHost: emulator.host, deploymentsDir, manifest, server, url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
