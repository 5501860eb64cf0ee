import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Browser } from "playwright-core";
import { seededAccount, seededAddresses } from "@common/seedAccounts";
import { loadConfig } from "../server/src/config";
import { startServer, type RunningServer } from "../server/src/index";
import { createLogger } from "../server/src/lib/logger";
import { FIREBASE_PROJECT, freePort, startStack, type Stack } from "../server/test/stack";

/**
 * Mocha root hooks for the browser suite: the whole stack on free loopback ports (Hardhat node,
 * Auth emulator, deploy and seed as `npm start` does them), the API server serving the production
 * build of the dashboard on its own origin as `npm run start:production` does, and one headless
 * Chromium. Tests open a fresh browser context each (e2e/browser.ts).
 */
const ROOT = path.resolve(__dirname, "..");
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
// Chromium on a closed network: no background connections (docs: toolchain notes).
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * What a browser test runs against: the chain the wallet signs on (and the tests read), the Auth
 * emulator, the API and the dashboard's origin. The main suite's root hooks set it once; the
 * public-network suite (e2e/network/) sets it per file, for the stack that file starts.
 */
export interface E2E {
  stack: Pick<Stack, "rpcUrl" | "emulatorHost">;
  server: { url: string };
  dashboardUrl: string;
  browser: Browser;
}

let distDir: string | null = null;

export function e2e(): E2E {
  const current = (globalThis as { usdxE2E?: E2E }).usdxE2E;
  if (!current) throw new Error("The browser suite's stack is not running: run it with `npm run test:e2e`.");
  return current;
}

export function setE2E(value: E2E | null): void {
  (globalThis as { usdxE2E?: E2E }).usdxE2E = value ?? undefined;
}

/** The one headless Chromium a suite drives (Debian's: nothing is downloaded). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`No Chromium at ${CHROMIUM_PATH}: install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH.`);
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

/**
 * A production build made once for both browser suites, which they serve and never remove: `npm
 * test`'s lane builds it first and names it here (scripts/test-lanes.ts). Unset, each suite builds
 * its own.
 */
const SHARED_BUILD = process.env.E2E_DASHBOARD_DIST ? path.resolve(ROOT, process.env.E2E_DASHBOARD_DIST) : null;

/**
 * The dashboard as it ships: a production build, in a folder of its own so a build elsewhere
 * (another run, npm run build) never empties what this run serves. The caller removes it
 * (removeBuild).
 */
export function buildDashboard(): Promise<string> {
  if (SHARED_BUILD) {
    return existsSync(path.join(SHARED_BUILD, "index.html"))
      ? Promise.resolve(SHARED_BUILD)
      : Promise.reject(new Error(`E2E_DASHBOARD_DIST names ${SHARED_BUILD}, which holds no build (no index.html).`));
  }
  const dir = mkdtempSync(path.join(tmpdir(), "usdx-e2e-dist-"));
  const vite = spawn(
    path.join(ROOT, "node_modules", ".bin", "vite"),
    ["build", "--config", "frontend/vite.config.mts", "--logLevel", "error", "--outDir", dir, "--emptyOutDir"],
    { cwd: ROOT, stdio: "inherit" },
  );
  const built = new Promise<string>((resolve, reject) => {
    vite.on("error", reject);
    vite.on("close", (code) =>
      code === 0 ? resolve(dir) : reject(new Error(`vite build exited with code ${code} (its output is above).`)),
    );
  });
  // Awaited by the caller once its stack has started: never an unhandled rejection meanwhile.
  built.catch(() => rmSync(dir, { recursive: true, force: true }));
  return built;
}

/** A build buildDashboard made, removed; the shared one stays for the next suite. */
export function removeBuild(dir: string): void {
  if (dir !== SHARED_BUILD) rmSync(dir, { recursive: true, force: true });
}

/** The local stack with the API server serving `distDir` on its own origin, as the browser suite runs it. */
export interface LocalDashboard {
  stack: Stack;
  server: RunningServer;
  dashboardUrl: string;
  stop(): Promise<void>;
}

/**
 * The whole product on free loopback ports: Hardhat node, Auth emulator, deploy and seed as
 * `npm start` does them, and the API server serving the built dashboard in `distDir` as
 * `npm run start:production` does (on HTTPS and HTTP/2 when given `tls`'s certificate and key files). The browser suite and bench/lighthouse.ts start it the same way.
 */
export async function startLocalDashboard(distDir: string | Promise<string>, tls?: { cert: string; key: string }): Promise<LocalDashboard> {
  const stack = await startStack();
  // A build still running (buildDashboard) went on beside the stack's start.
  let dist: string;
  try {
    dist = await distDir;
  } catch (error) {
    await stack.stop();
    throw error;
  }
  // One origin for the page and the API, known before the server starts: SIWE and CORS name it.
  const serverPort = await freePort();
  const dashboardUrl = `${tls ? "https" : "http"}://127.0.0.1:${serverPort}`;
  const config = loadConfig({
    NETWORK: "localhost",
    RPC_URL: stack.rpcUrl,
    PUBLIC_RPC_URL: stack.rpcUrl,
    LOCAL_RPC_PORT: String(stack.rpcPort),
    DEPLOYMENTS_DIR: stack.deploymentsDir,
    PGLITE_DIR: "memory://",
    FIREBASE_AUTH_EMULATOR_HOST: stack.emulatorHost,
    FIREBASE_PROJECT_ID: FIREBASE_PROJECT,
    SERVER_PORT: String(serverPort),
    DASHBOARD_ORIGIN: dashboardUrl,
    DASHBOARD_DIST: dist,
    INDEXER_POLL_MS: "200",
    RATE_LIMIT_AUTH_PER_MINUTE: "1000",
    // As npm start does: the seeded admin's wallet sign-in carries the server's admin claim (the Alerts page).
    ADMIN_WALLETS: seededAddresses()[seededAccount("admin").index],
    LOG_LEVEL: "silent",
    // PEM files: HTTPS, with HTTP/2 for the browser, as the production path serves it with TLS set.
    ...(tls ? { TLS_CERT: tls.cert, TLS_KEY: tls.key } : {}),
  });
  const server = await startServer(config, createLogger(config.logLevel));
  return {
    stack,
    server,
    dashboardUrl,
    async stop() {
      await server.close();
      await stack.stop();
    },
  };
}

let running: LocalDashboard | null = null;

export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(300_000);
    // The build and the stack start side by side (about 15 s each on CI's cores).
    const built = buildDashboard();
    built.then((dir) => (distDir = dir)).catch(() => undefined);
    running = await startLocalDashboard(built);
    const browser = await launchChromium();
    setE2E({ stack: running.stack, server: running.server, dashboardUrl: running.dashboardUrl, browser });
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(60_000);
    await (globalThis as { usdxE2E?: E2E }).usdxE2E?.browser.close();
    await running?.stop();
    if (distDir) removeBuild(distDir);
  },
};
