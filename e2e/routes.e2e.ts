import { expect } from "chai";
import type { BrowserContext, Page } from "playwright-core";
import {
  connectWallet,
  dismissToast,
  isolateEachTest,
  keepFailure,
  navigate,
  openBrowser,
  revert,
  saveScreen,
  type Session,
  settle,
  signUp,
  snapshot,
  url,
} from "./browser";

/**
 * Every route of PRODUCT.md section 2 loads without a console error at desktop (1280 px) and phone
 * (390 px) width, and leaves a full-page screenshot of each in ARTIFACTS/screens/ (saveScreen: not on
 * CI). Then the phone's Menu drawer.
 */
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

/** How a route is reached: a visitor's page load, or signed in with the wallet connected (in-app navigation). */
type Access = "visitor" | "connected";

interface RouteCase {
  route: string;
  name: string;
  access: Access;
  account?: string;
  /** What shows once the screen has loaded. */
  ready(page: Page): Promise<unknown>;
}

const heading = (name: string | RegExp) => (page: Page) =>
  page
    .getByRole("heading", { name, exact: typeof name === "string" ? true : undefined })
    .first()
    .waitFor();

const ROUTES: RouteCase[] = [
  { route: "/", name: "dashboard", access: "connected", ready: (p) => p.getByText("Your Balance").first().waitFor() },
  { route: "/transactions", name: "transactions", access: "connected", ready: heading("Transaction History") },
  { route: "/holders", name: "holders", access: "connected", ready: (p) => p.getByRole("table", { name: "Holders" }).waitFor() },
  { route: "/roles", name: "roles", access: "connected", ready: heading("Role Management") },
  { route: "/approvals", name: "approvals", access: "connected", ready: heading("Operations Safe") },
  { route: "/blocklist", name: "blocklist", access: "connected", ready: heading("Blocklist Management") },
  { route: "/accounts", name: "accounts", access: "connected", ready: heading("Bank Accounts & Deposits") },
  { route: "/payments", name: "payments", access: "connected", ready: heading("Payments") },
  { route: "/contacts", name: "contacts", access: "connected", ready: heading("Contacts") },
  { route: "/settings", name: "settings", access: "connected", ready: heading("Settings") },
  {
    route: "/admin",
    name: "admin",
    access: "connected",
    account: "admin",
    ready: async (p) => {
      await heading("USDX Admin Panel")(p);
      await p.getByRole("button", { name: /^(Pause|Unpause) Contract$/ }).waitFor();
    },
  },
  { route: "/login", name: "login", access: "visitor", ready: (p) => p.getByRole("tab", { name: "Sign Up" }).waitFor() },
  { route: "/auth", name: "auth", access: "visitor", ready: heading("Welcome") },
  {
    route: "/forgot-password",
    name: "forgot-password",
    access: "visitor",
    ready: (p) => p.getByRole("button", { name: "Send Reset Link" }).waitFor(),
  },
  { route: "/no/such/page", name: "not-found", access: "visitor", ready: heading("404 Page Not Found") },
  // Open signed out (PRODUCT.md section 2, Routes): an operator may have no account.
  {
    route: "/monitoring",
    name: "monitoring",
    access: "visitor",
    ready: (p) => p.getByRole("list", { name: "Health of each part" }).waitFor(),
  },
  // Open signed out too: an integrator may have no account. Ready once the viewer lists the operations.
  { route: "/docs", name: "docs", access: "visitor", ready: (p) => p.getByRole("button", { name: /^GET \/api\/token / }).waitFor() },
];

const HTTP_METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

/** The server's OpenAPI document, as /docs fetches it. */
interface OpenApiDocument {
  paths: Record<string, Record<string, { summary?: string }>>;
}

/** An operation's button in swagger-ui: method, path and summary ('GET /api/token Supply, ...'). */
const operationButton = (doc: OpenApiDocument, method: string, route: string) =>
  `${method.toUpperCase()} ${route} ${doc.paths[route][method].summary}`;

const shoot = (page: Page, name: string, width: number) => saveScreen(page, `${name}-${width}`);

/**
 * Clicks a footer link that opens in a new tab; checks the tab's path and that the dashboard stays
 * where it was. tabErrors collects the new tab's console errors from its first script on (the
 * session watches only the first page).
 */
async function openFooterLink(
  page: Page,
  context: BrowserContext,
  name: string,
  pathname: string,
): Promise<{ tab: Page; tabErrors: string[] }> {
  // The sign-in toast sits over the footer's links (bottom right): closed first, as a person would.
  await dismissToast(page);
  const link = page.getByRole("contentinfo").getByRole("link", { name });
  expect(await link.getAttribute("target")).to.equal("_blank");
  const tabErrors: string[] = [];
  context.on("console", (msg) => msg.type() === "error" && msg.page() !== page && tabErrors.push(msg.text()));
  const [tab] = await Promise.all([context.waitForEvent("page"), link.click()]);
  tab.on("pageerror", (error) => tabErrors.push(error.message));
  await tab.waitForLoadState();
  expect(new URL(tab.url()).pathname).to.equal(pathname);
  expect(new URL(page.url()).pathname).to.equal("/");
  return { tab, tabErrors };
}

/** The route at desktop width, then at the phone's, each shot once its reads have settled (their errors caught). */
async function showAtBothWidths(page: Page, r: RouteCase): Promise<void> {
  await r.ready(page);
  await settle(page);
  expect(new URL(page.url()).pathname).to.equal(r.route);
  await shoot(page, r.name, DESKTOP.width);

  await page.setViewportSize(PHONE);
  await r.ready(page);
  await settle(page);
  await shoot(page, r.name, PHONE.width);
  expect(new URL(page.url()).pathname).to.equal(r.route);
}

const title = (r: RouteCase) =>
  `${r.route} loads with no console errors (${r.access === "connected" ? `signed in, ${r.account ?? "alice"}'s wallet connected` : "visitor"}) at 1280 and 390 px`;

/**
 * The signed-in routes of one account, in one browser: signed up and connected once, then each
 * route reached by in-app navigation, as a person moves through the dashboard. None of them
 * changes the chain or the account, so the tests share the session; the chain is put back after
 * the last. Each test counts only the console errors raised while it ran.
 */
function connectedRoutes(account: string, routes: RouteCase[]): void {
  describe(`signed in, ${account}'s wallet connected`, () => {
    let session: Session;
    let chain = "";
    before(async function () {
      this.timeout(90_000);
      chain = await snapshot();
      session = await openBrowser(account, DESKTOP);
      await signUp(session.page);
      await connectWallet(session.page);
    });
    afterEach(async function () {
      await keepFailure(this, session);
    });
    after(async () => {
      await session?.context.close();
      await revert(chain);
    });

    for (const r of routes) {
      it(title(r), async function () {
        this.timeout(90_000);
        const { page, errors } = session;
        const seen = errors.length;
        await page.setViewportSize(DESKTOP);
        await navigate(page, r.route);
        await showAtBothWidths(page, r);
        expect(errors.slice(seen)).to.deep.equal([]);
      });
    }
  });
}

describe("Routes (browser)", () => {
  const connected = (account: string) => ROUTES.filter((r) => r.access === "connected" && (r.account ?? "alice") === account);
  connectedRoutes("alice", connected("alice"));
  connectedRoutes("admin", connected("admin"));
  describe("each in a fresh browser", freshBrowserTests);
});

/** A visitor's page loads, the footer's links and the phone's drawer: each test in a browser of its own. */
function freshBrowserTests(): void {
  let session: Session | null;
  isolateEachTest(() => session);
  beforeEach(() => {
    session = null;
  });

  for (const r of ROUTES.filter((route) => route.access === "visitor")) {
    it(title(r), async function () {
      this.timeout(90_000);
      session = await openBrowser(r.account ?? "alice", DESKTOP);
      const { page, errors } = session;
      await page.goto(url(r.route));
      await showAtBothWidths(page, r);
      expect(errors).to.deep.equal([]);
    });
  }

  it("the footer's 'CI/CD Monitoring' opens /monitoring in a new tab: every part up, the build, and charts that fill as the server samples", async function () {
    this.timeout(90_000);
    session = await openBrowser("alice", DESKTOP);
    const { page, context, errors } = session;
    await signUp(page);
    const { tab, tabErrors } = await openFooterLink(page, context, "CI/CD Monitoring", "/monitoring");
    await tab.getByRole("heading", { name: "CI/CD Monitoring", exact: true }).waitFor();
    const parts = tab.getByRole("list", { name: "Health of each part" });
    for (const name of [
      "Chain (RPC node)",
      "Database",
      "Sign-in (Firebase Auth)",
      "Indexer",
      "Batch watcher",
      "Mock bank",
      "Alerts (webhooks)",
    ]) {
      await parts.getByRole("listitem", { name }).getByText("Up", { exact: true }).waitFor();
    }
    const build = tab.getByLabel("Build information");
    const { contracts } = (await (await fetch(url("/api/config"))).json()) as { contracts: { proxy: string } };
    expect(await build.textContent())
      .to.include(contracts.proxy)
      .and.include("Server version");
    // The server samples every 5 s: the charts appear at the second sample, the page polling meanwhile.
    await tab.getByRole("img", { name: /^Requests per second over the last \d+ samples$/ }).waitFor({ timeout: 30_000 });
    await tab.getByRole("img", { name: /^Request latency over the last \d+ samples$/ }).waitFor();
    await tab.waitForTimeout(500); // the lines drawn
    await shoot(tab, "monitoring-live", DESKTOP.width);
    expect(errors).to.deep.equal([]);
    expect(tabErrors).to.deep.equal([]);
  });

  it("the footer's 'API Documentation' opens /docs in a new tab: every operation of the server's document, and 'Try it out' answers as the signed-in user", async function () {
    this.timeout(90_000);
    session = await openBrowser("alice", DESKTOP);
    const { page, context, errors } = session;
    const email = await signUp(page);
    const { tab, tabErrors } = await openFooterLink(page, context, "API Documentation", "/docs");
    await tab.getByRole("heading", { name: "API Documentation", exact: true }).waitFor();
    await tab.getByText(`Signed in as ${email}: 'Try it out' sends your ID token.`).waitFor();

    const doc = (await (await fetch(url("/api/openapi.json"))).json()) as OpenApiDocument;
    await tab.getByRole("button", { name: operationButton(doc, "get", "/api/token"), exact: true }).waitFor();
    await tab.getByRole("button", { name: operationButton(doc, "get", "/api/contacts"), exact: true }).waitFor();
    const operations = Object.values(doc.paths).flatMap((item) => Object.keys(item).filter((key) => HTTP_METHODS.includes(key)));
    expect(await tab.locator(".opblock").count()).to.equal(operations.length);

    // Authorize shows the user's token filled in.
    await tab.getByRole("button", { name: "Authorize", exact: true }).click();
    const dialog = tab.locator(".dialog-ux");
    const scheme = dialog.locator(".auth-container").filter({ has: tab.getByRole("heading", { name: "firebaseIdToken (http, Bearer)" }) });
    await scheme.getByRole("heading", { name: "Authorized" }).waitFor();
    await dialog.getByRole("button", { name: "Close" }).first().click();

    // 'Try it out' is on from the start (tryItOutEnabled): expanding the operation shows Execute.
    const summary = tab.getByRole("button", { name: operationButton(doc, "get", "/api/auth/me"), exact: true });
    const me = tab.locator(".opblock").filter({ has: summary });
    await summary.click();
    await me.getByRole("button", { name: "Execute" }).click();
    const answer = me.locator(".live-responses-table tbody tr.response").first();
    await answer.waitFor();
    expect(await answer.locator(".response-col_status").textContent()).to.equal("200");
    const body = JSON.parse((await answer.locator("pre.microlight").first().textContent()) ?? "") as {
      success: boolean;
      user: { email: string | null };
    };
    expect(body).to.deep.include({ success: true });
    expect(body.user.email).to.equal(email);
    await shoot(tab, "docs-try-it-out", DESKTOP.width);
    expect(errors).to.deep.equal([]);
    expect(tabErrors).to.deep.equal([]);
  });

  it("at 390 px the Menu drawer opens, a link navigates and the drawer closes", async () => {
    session = await openBrowser("alice", PHONE);
    const { page, errors } = session;
    await signUp(page);
    await connectWallet(page);
    // 'Wallet Connected' shows over the header on a phone: closed, as a person would to reach the menu.
    await dismissToast(page);
    // The desktop sidebar is hidden on a phone.
    expect(await page.locator("aside").isVisible()).to.equal(false);
    const menuButton = page.getByRole("banner").getByRole("button", { name: "Menu", exact: true });
    await menuButton.click();
    const drawer = page.getByRole("dialog", { name: "Menu" });
    await drawer.waitFor();
    expect(await menuButton.getAttribute("aria-expanded")).to.equal("true");
    const box = await drawer.boundingBox();
    expect(box?.x).to.equal(0);
    expect(box?.width).to.equal(250);
    await drawer.getByRole("link", { name: "Contacts", exact: true }).click();
    await page.waitForURL(url("/contacts"));
    await page.getByRole("heading", { name: "Contacts", exact: true }).waitFor();
    await drawer.waitFor({ state: "detached" });
    expect(await menuButton.getAttribute("aria-expanded")).to.equal("false");
    // The wallet stays connected (in-app navigation).
    await page
      .getByRole("banner")
      .getByRole("button", { name: /^Wallet 0x/ })
      .waitFor();

    // 'Close menu' closes it too.
    await menuButton.click();
    await drawer.waitFor();
    await drawer.getByRole("button", { name: "Close menu" }).click();
    await drawer.waitFor({ state: "detached" });
    expect(errors).to.deep.equal([]);
  });
}
