import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { JsonRpcProvider } from "ethers";
import type { BrowserContext, Page } from "playwright-core";
import { seededAccount, seededAddresses } from "@common/seedAccounts";
import { FIREBASE_PROJECT, rpc } from "../server/test/stack";
import { safeApprovals, safeProposals } from "../server/src/db/schema";
import type { RunningServer } from "../server/src/index";
import { e2e } from "./hooks";
import { USDX__factory } from "@bindings/factories/contracts/USDX__factory";
import { E2E_WALLET_NAME, walletInitScript } from "./wallet";

/** A seeded account's address by its name ('alice', 'minter', ...). */
export function addressOf(name: string): string {
  return seededAddresses()[seededAccount(name).index];
}

/** The token the stack deployed (as the server announces it), read through the stack's node, not the page. */
export async function chainToken() {
  const config = (await fetch(`${e2e().server.url}/api/config`).then((r) => r.json())) as { contracts: { proxy: string } };
  const provider = new JsonRpcProvider(e2e().stack.rpcUrl, undefined, { staticNetwork: true });
  return { token: USDX__factory.connect(config.contracts.proxy, provider), provider };
}

export interface Session {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught exceptions the page raised (every test expects none unless it says so). */
  errors: string[];
}

/** A fresh browser (no storage, no sign-in) whose injected wallet acts as `account`. */
export async function openBrowser(account = "alice", viewport = { width: 1280, height: 900 }): Promise<Session> {
  const { browser, stack } = e2e();
  const context = await browser.newContext({ viewport });
  await context.addInitScript(walletInitScript(stack.rpcUrl, addressOf(account)));
  watchRequests(context);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (msg) => msg.type() === "error" && errors.push(msg.text()));
  page.on("pageerror", (error) => errors.push(error.message));
  return { context, page, errors };
}

/** Requests a context has in flight, and when that number last changed (settle waits on both). */
const traffic = new WeakMap<BrowserContext, { inFlight: number; changedAt: number }>();

function watchRequests(context: BrowserContext): void {
  const state = { inFlight: 0, changedAt: Date.now() };
  traffic.set(context, state);
  const change = (by: number) => () => {
    state.inFlight += by;
    state.changedAt = Date.now();
  };
  context.on("request", change(1));
  context.on("requestfinished", change(-1));
  context.on("requestfailed", change(-1));
}

/** How long no request may start or end before the page counts as settled. */
const QUIET_MS = 300;

/**
 * Late reads (chain, server) finished and drawn: no request in flight for QUIET_MS, then two
 * animation frames, so what the last answer changed is on screen. Playwright's "networkidle" does
 * not serve here: it is a load state, reached once per page load, so after an in-app navigation it
 * answers at once. Gives up after `timeoutMs` (a page that polls without pause), as a person would
 * look anyway.
 */
export async function settle(page: Page, timeoutMs = 10_000): Promise<void> {
  const state = traffic.get(page.context());
  const deadline = Date.now() + timeoutMs;
  while (state && Date.now() < deadline && (state.inFlight > 0 || Date.now() - state.changedAt < QUIET_MS)) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

export const url = (route: string) => `${e2e().dashboardUrl}${route}`;

let users = 0;

/** Signs a new user up through the Login screen's Sign Up tab; lands on the Dashboard. */
export async function signUp(page: Page): Promise<string> {
  const email = `e2e-${Date.now()}-${++users}@example.com`;
  await page.goto(url("/login"));
  await page.getByRole("tab", { name: "Sign Up" }).click();
  await page.getByRole("textbox", { name: "Email" }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill("correct-horse-1");
  await page.getByLabel("Confirm Password", { exact: true }).fill("correct-horse-1");
  await page.getByRole("button", { name: "Sign Up" }).click();
  await page.waitForURL(url("/"));
  return email;
}

/** Below this width toasts show at the top of the screen, over the header (PRODUCT.md section 9). */
const TOASTS_AT_TOP_BELOW_PX = 640;

/**
 * Closes the toast showing, if any, with its Close button, as a person on a phone does to reach the
 * header beneath it: otherwise a click there waits out the toast's 5 seconds.
 */
export async function dismissToast(page: Page): Promise<void> {
  const close = page.getByRole("region", { name: /^Notifications/ }).getByRole("button", { name: "Close", exact: true });
  if ((await close.count()) === 0) return;
  await close.first().click();
  await close.first().waitFor({ state: "detached" });
}

/** Connects the injected wallet through the header's 'Connect Wallet' and the chooser. */
export async function connectWallet(page: Page): Promise<void> {
  if ((page.viewportSize()?.width ?? Infinity) < TOASTS_AT_TOP_BELOW_PX) await dismissToast(page);
  await page.getByRole("banner").getByRole("button", { name: "Connect Wallet" }).click();
  await page.getByRole("button", { name: E2E_WALLET_NAME }).click();
  await page
    .getByRole("banner")
    .getByRole("button", { name: /^Wallet 0x/ })
    .waitFor();
}

/** In-app navigation: a page load would drop the wallet connection, as it does for a person. */
export async function navigate(page: Page, route: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState({}, "", to);
    window.dispatchEvent(new PopStateEvent("popstate"));
  }, route);
}

/** The toast showing now (one at a time), once `title` appears. */
export async function expectToast(page: Page, title: string): Promise<string> {
  // What the page shows when the call starts, and every toast that appears while it waits, recorded in
  // the page by a MutationObserver: on a loaded machine a toast can come and go (the next toast
  // replaces it, and Radix also announces it in a second role 'status' element that it removes after
  // a second) between two samples of the test's polling.
  const call = `${Date.now()}-${Math.random()}`;
  const found = await page.waitForFunction(
    ({ wanted, call }) => {
      const w = window as unknown as { usdxToasts?: { call: string; texts: string[] } };
      const shown = () => Array.from(document.querySelectorAll('[role="status"]'), (el) => el.textContent ?? "").filter(Boolean);
      if (!w.usdxToasts) {
        const record: { call: string; texts: string[] } = (w.usdxToasts = { call: "", texts: [] });
        new MutationObserver(() => record.texts.push(...shown())).observe(document.body, {
          subtree: true,
          childList: true,
          characterData: true,
        });
      }
      // A new call starts from what is shown now, as sampling did, not from toasts long gone.
      if (w.usdxToasts.call !== call) w.usdxToasts = Object.assign(w.usdxToasts, { call, texts: shown() });
      const match = w.usdxToasts.texts.find((text) => text.includes(wanted)) ?? null;
      if (w.usdxToasts.texts.length > 200) w.usdxToasts.texts.splice(0, w.usdxToasts.texts.length - 200);
      return match;
    },
    { wanted: title, call },
    { timeout: 20_000 },
  );
  return (await found.jsonValue()) as string;
}

/** A toast with `title` that also says `text` (a toast with the same title may still be on its way out). */
export async function expectToastWith(page: Page, title: string, text: string): Promise<void> {
  await page.getByRole("status").filter({ hasText: title }).filter({ hasText: text }).first().waitFor({ timeout: 20_000 });
}

/** Opens the Dashboard's transfer form (Quick Actions' 'Transfer') once it knows the balance. */
export async function openTransfer(page: Page) {
  await page.getByRole("button", { name: "Transfer", exact: true }).first().click();
  const dialog = page.getByRole("dialog", { name: "Transfer USDX" });
  await dialog.waitFor();
  // The submit button waits for the balance to be read.
  await dialog.getByText(/^Available: [\d,]+\.\d\d USDX$/).waitFor();
  return dialog;
}

/** Sends `amount` to `to` through the Dashboard's transfer form; the form stays open. */
export async function fillTransfer(page: Page, to: string, amount: string) {
  const dialog = await openTransfer(page);
  await dialog.getByLabel("Recipient Address").fill(to);
  await dialog.getByLabel("Amount (USDX)").fill(amount);
  await dialog.getByRole("button", { name: "Transfer", exact: true }).click();
  return dialog;
}

/** A row of a batch-payment CSV; `valid` says whether the Payments screen should accept it. */
export interface Row {
  name: string;
  address: string;
  amount: string;
  valid: boolean;
}

/** Signs up, connects, opens Payments and uploads `rows` as a CSV file. */
export async function uploadRows(page: Page, rows: Row[]): Promise<void> {
  await signUp(page);
  await connectWallet(page);
  await navigate(page, "/payments");
  await page.getByRole("heading", { name: "Payments", exact: true }).waitFor();
  const csv = ["Name,Address,Amount", ...rows.map((r) => `${r.name},${r.address},${r.amount}`)].join("\n") + "\n";
  await page.locator('input[type="file"]').setInputFiles({ name: "batch.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await page.getByRole("table", { name: "Recipients" }).waitFor();
}

/** The injected wallet switches to another seeded account, as a person would in their wallet. */
export async function switchAccount(page: Page, name: string): Promise<void> {
  const address = addressOf(name);
  await page.evaluate((to) => (window as unknown as { __e2eWallet: { setAccount(a: string): void } }).__e2eWallet.setAccount(to), address);
  await page
    .getByRole("banner")
    .getByRole("button", { name: `Wallet ${address}` })
    .waitFor();
}

/** The chain as it was, and the emulator without users, before each test. */
export async function snapshot(): Promise<string> {
  return rpc<string>(e2e().stack.rpcUrl, "evm_snapshot");
}

export async function revert(id: string): Promise<void> {
  await rpc(e2e().stack.rpcUrl, "evm_revert", [id]);
  await fetch(`http://${e2e().stack.emulatorHost}/emulator/v1/projects/${FIREBASE_PROJECT}/accounts`, { method: "DELETE" });
}

/**
 * The API server forgets every Safe proposal (its database outlives the chain snapshots). A test
 * that reverted the chain leaves its executed proposals reopened at nonces the Safe uses again, and
 * the next test's proposals would queue behind them. The browser suite's server runs in this process.
 */
export async function forgetSafeProposals(): Promise<void> {
  const { db } = (e2e().server as unknown as RunningServer).services.db;
  await db.delete(safeApprovals);
  await db.delete(safeProposals);
}

/** Where the suite keeps what it saw: failures and the route screenshots (gitignored). */
export const ARTIFACTS = path.resolve(__dirname, "..", ".local", "e2e");

/**
 * A screen saved for a person to look at (ARTIFACTS/screens/<name>.png, whole page unless said).
 * Not on CI (CI set), where no one can: each full-page shot costs Chromium a render and a PNG
 * encoding, about a quarter of a second of CPU, some 45 times a run. A failure's shot is always kept.
 */
export async function saveScreen(page: Page, name: string, { fullPage = true }: { fullPage?: boolean } = {}): Promise<void> {
  if (process.env.CI) return;
  mkdirSync(path.join(ARTIFACTS, "screens"), { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, "screens", `${name}.png`), fullPage });
}

/** After a failed test: a screenshot of the page as it was, named after the test. */
export async function keepFailure(context: Mocha.Context, session: Session): Promise<void> {
  if (context.currentTest?.state !== "failed") return;
  mkdirSync(ARTIFACTS, { recursive: true });
  const name = (context.currentTest.fullTitle() || "failure").replace(/[^a-z0-9]+/gi, "-").slice(0, 80);
  await session.page.screenshot({ path: path.join(ARTIFACTS, `failed-${name}.png`), fullPage: true }).catch(() => undefined);
  writeFileSync(path.join(ARTIFACTS, `failed-${name}.txt`), `${session.page.url()}\n${session.errors.join("\n")}\n`);
}

/**
 * Each test's isolation, registered once per describe: a chain snapshot before the test; after
 * it, a screenshot if it failed, its browser closed, the snapshot reverted and the emulator's
 * users cleared. `current` gives the test's browser (none if it failed before opening one).
 */
export function isolateEachTest(current: () => Session | null | undefined): void {
  let chain = "";
  beforeEach(async () => {
    chain = await snapshot();
  });
  afterEach(async function () {
    const session = current();
    if (session) {
      await keepFailure(this, session);
      await session.context.close();
    }
    await revert(chain);
  });
}
