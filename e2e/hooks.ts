import { ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Browser } from "playwright-core";
import { loadConfig } from "../server/src/config";
import { startServer, type RunningServer } from "../server/src/index";
import { createLogger } from "../server/src/logger";
import { FIREBASE_PROJECT, freePort, startStack, type Stack } from "../server/test/stack";

/**
 * Mocha root hooks for the browser suite: the whole stack as `npm start` runs it (Hardhat node,
 * Auth emulator, deploy and seed, API server, the built dashboard) on free loopback ports, and one
 * headless Chromium. Tests open a fresh browser context each (e2e/browser.ts).
 */
const ROOT = path.resolve(__dirname, "..");
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
// Chromium on a closed network: no background connections (docs: toolchain notes).
const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

export interface E2E {
  stack: Stack;
  server: RunningServer;
  dashboardUrl: string;
  browser: Browser;
}

let preview: ChildProcess | null = null;
let distDir: string | null = null;

export function e2e(): E2E {
  const current = (globalThis as { usdxE2E?: E2E }).usdxE2E;
  if (!current) throw new Error("The browser suite's stack is not running: run it with `npm run test:e2e`.");
  return current;
}

async function waitForUrl(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await fetch(url).then((r) => r.ok).catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s.`);
}

export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(300_000);
    if (!existsSync(CHROMIUM_PATH)) {
      throw new Error(`No Chromium at ${CHROMIUM_PATH}: install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH.`);
    }
    const bin = (name: string) => path.join(ROOT, "node_modules", ".bin", name);
    // The dashboard as it ships: a production build, served by vite preview. Its own folder, so a
    // build elsewhere (another run, npm run build:frontend) never empties what this run serves.
    distDir = mkdtempSync(path.join(tmpdir(), "usdx-e2e-dist-"));
    execFileSync(bin("vite"), ["build", "--config", "frontend/vite.config.mts", "--logLevel", "error", "--outDir", distDir, "--emptyOutDir"], { cwd: ROOT, stdio: "inherit" });
    const stack = await startStack();
    const dashboardPort = await freePort();
    const dashboardUrl = `http://127.0.0.1:${dashboardPort}`;
    const config = loadConfig({
      NETWORK: "localhost",
      RPC_URL: stack.rpcUrl,
      PUBLIC_RPC_URL: stack.rpcUrl,
      LOCAL_RPC_PORT: String(stack.rpcPort),
      DEPLOYMENTS_DIR: stack.deploymentsDir,
      PGLITE_DIR: "memory://",
      FIREBASE_AUTH_EMULATOR_HOST: stack.emulatorHost,
      FIREBASE_PROJECT_ID: FIREBASE_PROJECT,
      SERVER_PORT: "0",
      DASHBOARD_ORIGIN: dashboardUrl,
      INDEXER_POLL_MS: "200",
      RATE_LIMIT_AUTH_PER_MINUTE: "1000",
      LOG_LEVEL: "silent",
    });
    const server = await startServer(config, createLogger(config.logLevel));
    preview = spawn(bin("vite"), ["preview", "--config", "frontend/vite.config.mts", "--outDir", distDir], {
      cwd: ROOT,
      env: { ...process.env, DASHBOARD_PORT: String(dashboardPort), VITE_API_URL: server.url },
      detached: true,
      stdio: "ignore",
    });
    await waitForUrl(`${dashboardUrl}/api/config`, 60_000);
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
    (globalThis as { usdxE2E?: E2E }).usdxE2E = { stack, server, dashboardUrl, browser };
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(60_000);
    const current = (globalThis as { usdxE2E?: E2E }).usdxE2E;
    await current?.browser.close();
    if (preview?.pid) {
      try {
        process.kill(-preview.pid, "SIGTERM");
      } catch {
        preview.kill("SIGTERM");
      }
    }
    await current?.server.close();
    await current?.stack.stop();
    if (distDir) rmSync(distDir, { recursive: true, force: true });
  },
};
