/**
 * What the browser benches (lighthouse.ts, bundle.ts) share: the built dashboard, the product's
 * stack serving it (e2e/hooks.ts's starter, as the browser suite runs it), a Chromium of our own
 * that other tools can reach over the DevTools protocol, and signing in the way a person does on
 * the local chain: the Login screen's Wallet tab with the development wallet.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { freePort, kill } from "../../server/test/stack";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../../e2e/hooks";

const ROOT = path.resolve(__dirname, "..", "..");
export const DIST = path.join(ROOT, "frontend", "dist");

/**
 * The production build `npm run build` leaves in frontend/dist, built here only when missing (the
 * contracts' bindings must exist); DASHBOARD_DIST, as for the server, measures another build.
 */
export function ensureBuild(): string {
  if (process.env.DASHBOARD_DIST) return path.resolve(process.env.DASHBOARD_DIST);
  if (!existsSync(path.join(DIST, "index.html"))) {
    console.log("frontend/dist has no build: building the dashboard (npm run build does this, with the contracts).");
    execFileSync(path.join(ROOT, "node_modules", ".bin", "vite"), ["build", "--config", "frontend/vite.config.mts", "--logLevel", "warn"], {
      cwd: ROOT,
      stdio: "inherit",
    });
  }
  return DIST;
}

export interface DebuggableChromium {
  /** The DevTools port Lighthouse and playwright-core's connectOverCDP attach to. */
  port: number;
  cdpUrl: string;
  stop(): Promise<void>;
}

/**
 * Debian's Chromium, headless, with a remote-debugging port and a profile of its own, started
 * here rather than by Lighthouse so a sign-in done over CDP stays in the profile Lighthouse loads
 * the page with (its storage reset is turned off for signed-in pages).
 */
export async function launchDebuggableChromium(extraArgs: string[] = []): Promise<DebuggableChromium> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`No Chromium at ${CHROMIUM_PATH}: install Debian's chromium or set CHROMIUM_PATH.`);
  const port = await freePort();
  const profile = mkdtempSync(path.join(tmpdir(), "usdx-bench-chromium-"));
  const child: ChildProcess = spawn(
    CHROMIUM_PATH,
    ["--headless", ...CHROMIUM_ARGS, ...extraArgs, `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, "about:blank"],
    { detached: true, stdio: "ignore" },
  );
  const cdpUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Chromium exited with code ${child.exitCode}`);
    if (
      await fetch(`${cdpUrl}/json/version`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) throw new Error("Chromium's DevTools port did not open within 30 s");
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    port,
    cdpUrl,
    async stop() {
      await kill(child);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Signs in on the Login screen's Wallet tab with the development wallet acting as `account` (a
 * seeded account's name) and waits for the Dashboard, as e2e/auth.e2e.ts does with its wallet.
 * Firebase keeps the session in the profile's IndexedDB, so a later page load is signed in.
 */
export async function signInWithDevWallet(page: Page, dashboardUrl: string, account = "admin"): Promise<void> {
  await page.goto(`${dashboardUrl}/login`);
  await page.getByRole("tab", { name: "Wallet" }).click();
  await page.getByRole("tabpanel").getByRole("button", { name: "Connect Wallet" }).click();
  await page.getByRole("button", { name: new RegExp(`^${account} ·`) }).click();
  await page.getByRole("button", { name: "Authenticate with Wallet" }).click();
  await page.waitForURL(`${dashboardUrl}/`, { timeout: 30_000 });
}
