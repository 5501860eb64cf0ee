/**
 * What the signed-in Dashboard really downloads when it loads, seen by a browser: the static walk
 * of the build manifest cannot tell which lazy chunks a page asks for at once (chain reads, the
 * chart) and which only later. Signs in with the development wallet (bench/lib/browserRun.ts),
 * then loads / in a new page with the HTTP cache off and lists the built files it fetched.
 */
import type { BrowserContext, Page } from "playwright-core";
import { launchChromium, startLocalDashboard } from "../../e2e/hooks";
import { signInWithDevWallet } from "./browserRun";

export interface PageDownload {
  what: string;
  /** Built files fetched (paths under dist, such as assets/index-abc.js), in order. */
  files: string[];
}

const VIEWPORTS = [
  { name: "1280 x 900", width: 1280, height: 900 },
  { name: "390 x 844", width: 390, height: 844 },
];

/** Collects the /assets/ files `page` fetches from now on (the cache off, so every file is a request). */
async function recordAssets(context: BrowserContext, page: Page): Promise<string[]> {
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  const files: string[] = [];
  page.on("request", (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith("/assets/") && !files.includes(pathname.slice(1))) files.push(pathname.slice(1));
  });
  return files;
}

/** Until the network has been quiet for half a second, and a little longer for lazy chunks a render asks for. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState("networkidle", { timeout: 30_000 }).catch(() => undefined);
  await page.waitForTimeout(1500);
  await page.waitForLoadState("networkidle", { timeout: 30_000 }).catch(() => undefined);
}

/**
 * /login on a first visit (a new browser profile, at a phone's width); then the Dashboard loaded
 * signed in (a page load leaves the wallet disconnected, as for a person coming back) at a desktop
 * and a phone width; then, on the desktop page, what connecting the development wallet as the
 * seeded admin adds (Quick Actions, Admin Functions, account reads).
 */
export async function signedInDashboardDownloads(dist: string): Promise<PageDownload[]> {
  const local = await startLocalDashboard(dist);
  const browser = await launchChromium();
  try {
    const results: PageDownload[] = [];
    // A first visit: a browser that has never been here (no Firebase state, no cache), on a phone.
    const fresh = await browser.newContext({ viewport: VIEWPORTS[1] });
    const login = await fresh.newPage();
    const loginFiles = await recordAssets(fresh, login);
    await login.goto(`${local.dashboardUrl}/login`);
    await login.getByRole("button", { name: "Sign In", exact: true }).first().waitFor();
    await settle(login);
    results.push({ what: "/login, first visit, 390 x 844", files: [...loginFiles] });
    await fresh.close();

    const context = await browser.newContext({ viewport: VIEWPORTS[0] });
    const signIn = await context.newPage();
    await signInWithDevWallet(signIn, local.dashboardUrl);
    await signIn.close();
    let desktop: Page | null = null;
    for (const viewport of VIEWPORTS) {
      const page = await context.newPage();
      await page.setViewportSize(viewport);
      const files = await recordAssets(context, page);
      await page.goto(`${local.dashboardUrl}/`);
      await page.getByRole("heading", { name: "Dashboard", exact: true }).waitFor();
      // Down to the page's end, as a person who reads every card does: the chart loads when its card is on screen.
      await settle(page);
      await page.mouse.wheel(0, 20_000);
      await settle(page);
      results.push({ what: `signed-in Dashboard at load, ${viewport.name}`, files: [...files] });
      if (!desktop) desktop = page;
      else await page.close();
    }
    const page = desktop!;
    const before = new Set(results[0].files);
    const files = await recordAssets(context, page);
    await page.getByRole("banner").getByRole("button", { name: "Connect Wallet" }).click();
    await page.getByRole("button", { name: /^admin ·/ }).click();
    await page
      .getByRole("banner")
      .getByRole("button", { name: /^Wallet 0x/ })
      .waitFor();
    await settle(page);
    results.push({ what: "then connecting the wallet (admin), 1280 x 900", files: files.filter((f) => !before.has(f)) });
    return results;
  } finally {
    await browser.close();
    await local.stop();
  }
}
