/**
 * `npm run screenshots` (with `npm start` running): signs up a fresh user, connects the development
 * wallet as a seeded account, and saves every route at 1280 px and 390 px wide into
 * .local/screenshots/, printing any console error a page raised. For looking at the dashboard; the
 * browser test suite asserts behaviour.
 *   DASHBOARD_URL (default http://127.0.0.1:5173), SCREENSHOT_ACCOUNT (default admin),
 *   CHROMIUM_PATH (default /usr/bin/chromium), SCREENSHOT_ROUTES (comma-separated, default all),
 *   SCREENSHOT_EMAIL and SCREENSHOT_PASSWORD (sign in as that user, e.g. a scenario's test user;
 *   by default a new user signs up).
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { chromium, type Page } from "playwright-core";

const BASE = process.env.DASHBOARD_URL || "http://127.0.0.1:5173";
const ACCOUNT = process.env.SCREENSHOT_ACCOUNT || "admin";
const OUT = path.resolve(__dirname, "..", ".local", "screenshots");
const WIDTHS = [1280, 390];
const SIGNED_OUT = ["/login", "/auth", "/forgot-password", "/monitoring"];
const SIGNED_IN = [
  "/",
  "/transactions",
  "/holders",
  "/roles",
  "/approvals",
  "/blocklist",
  "/accounts",
  "/payments",
  "/contacts",
  "/settings",
  "/admin",
  "/scenarios",
  "/no-such-page",
];
// Chromium on a closed network: no background connections (see the toolchain notes).
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const only = process.env.SCREENSHOT_ROUTES?.split(",");
const wanted = (route: string) => !only || only.includes(route);
const fileName = (route: string, width: number) => `${route === "/" ? "dashboard" : route.slice(1).replace(/\//g, "_")}-${width}.png`;

/** In-app navigation (a page load would drop the wallet connection, as it does for a person). */
async function navigate(page: Page, route: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState({}, "", to);
    window.dispatchEvent(new PopStateEvent("popstate"));
  }, route);
  await page.waitForLoadState("networkidle").catch(() => undefined);
  await page.waitForTimeout(1200);
}

async function shoot(page: Page, route: string): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(400);
    await page.screenshot({ path: path.join(OUT, fileName(route, width)), fullPage: true });
  }
  await page.setViewportSize({ width: WIDTHS[0], height: 900 });
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
    headless: true,
    args: CHROMIUM_ARGS,
  });
  const page = await browser.newPage({ viewport: { width: WIDTHS[0], height: 900 } });
  const errors: string[] = [];
  page.on("console", (msg) => msg.type() === "error" && errors.push(`${page.url()}: ${msg.text()}`));
  page.on("pageerror", (error) => errors.push(`${page.url()}: ${error.message}`));

  for (const route of SIGNED_OUT.filter(wanted)) {
    await page.goto(BASE + route, { waitUntil: "networkidle" });
    await page.waitForTimeout(route === "/auth" ? 3500 : 800); // the snake starts after 3 s
    await shoot(page, route);
  }

  // Sign in as the given user, or sign up a fresh one, through the Login screen.
  await page.goto(`${BASE}/login`, { waitUntil: "networkidle" });
  const given = process.env.SCREENSHOT_EMAIL;
  const email = given || `look-${Date.now()}@example.com`;
  if (given) {
    await page.getByRole("textbox", { name: "Email" }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(process.env.SCREENSHOT_PASSWORD ?? "");
    await page.getByRole("button", { name: "Sign In" }).click();
  } else {
    await page.getByRole("tab", { name: "Sign Up" }).click();
    await page.getByRole("textbox", { name: "Email" }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill("correct-horse-1");
    await page.getByLabel("Confirm Password", { exact: true }).fill("correct-horse-1");
    await page.getByRole("button", { name: "Sign Up" }).click();
  }
  await page.waitForURL(`${BASE}/`, { timeout: 15_000 });
  if (wanted("/")) await shoot(page, "/not-connected");

  // Connect the development wallet as the chosen seeded account.
  await page.getByRole("button", { name: "Connect Wallet" }).first().click();
  await page.getByRole("button", { name: new RegExp(`^${ACCOUNT} ·`) }).click();
  await page.waitForTimeout(1500);

  for (const route of SIGNED_IN.filter(wanted)) {
    await navigate(page, route);
    await shoot(page, route);
  }
  await browser.close();
  console.log(`Saved ${OUT}/*.png as ${ACCOUNT} (${email}).`);
  if (errors.length > 0) {
    console.log(`\nConsole errors (${errors.length}):\n${errors.join("\n")}`);
    process.exitCode = 1;
  } else {
    console.log("No console errors.");
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
