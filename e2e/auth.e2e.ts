import { expect } from "chai";
import type { Page } from "playwright-core";
import { e2e } from "./hooks";
import { connectWallet, expectToast, isolateEachTest, openBrowser, type Session, signUp, url } from "./browser";

/** Logs out through the header's account menu (named by the email) and waits for /login. */
async function logOut(page: Page, email: string): Promise<void> {
  await page
    .getByRole("banner")
    .getByRole("button", { name: new RegExp(email.slice(0, 10)) })
    .click();
  await page.getByRole("menuitem", { name: "Logout" }).click();
  await page.waitForURL(url("/login"));
}

describe("Sign-in (browser)", () => {
  let session: Session;
  isolateEachTest(() => session);
  beforeEach(async () => {
    session = await openBrowser("alice");
  });

  it("sends a visitor to /login, signs up, signs out and signs in again; a wrong password says 'Invalid password'", async () => {
    const { page, errors } = session;
    await page.goto(url("/payments"));
    await page.waitForURL(url("/login"));
    const email = await signUp(page);
    await expectToast(page, "Account created");
    await logOut(page, email);

    await page.getByRole("textbox", { name: "Email" }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill("wrong-password");
    await page.getByRole("button", { name: "Sign In" }).click();
    expect(await expectToast(page, "Login failed")).to.contain("Invalid password");

    await page.getByLabel("Password", { exact: true }).fill("correct-horse-1");
    await page.getByRole("button", { name: "Sign In" }).click();
    await page.waitForURL(url("/"));
    await expectToast(page, "Successfully signed in");
    // Firebase's emulator answers a wrong password with a 400, which the browser logs itself.
    expect(errors.filter((e) => !e.includes("400"))).to.deep.equal([]);
  });

  it("signs in with the wallet (SIWE) and the signed-in user goes from /login to /", async () => {
    const { page, errors } = session;
    await page.goto(url("/login"));
    await page.getByRole("tab", { name: "Wallet" }).click();
    await page.getByRole("tabpanel").getByRole("button", { name: "Connect Wallet" }).click();
    await page.getByRole("button", { name: "E2E Wallet" }).click();
    await page.getByRole("button", { name: "Authenticate with Wallet" }).click();
    await page.waitForURL(url("/"));
    await expectToast(page, "Wallet authenticated");
    await page.goto(url("/login"));
    await page.waitForURL(url("/"));
    expect(errors).to.deep.equal([]);
  });

  it("/login arrives drawn: the Login screen is in the HTML (no script needed), inert, and the app's screen replaces it in the same place", async () => {
    const { browser } = e2e();
    const noScript = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    try {
      const before = await noScript.newPage();
      await before.goto(url("/login"));
      const drawn = before.locator("#root > main[inert]");
      expect(await drawn.locator("h1").textContent()).to.equal("USDX Dashboard");
      expect(await drawn.getByText("Sign in to manage your USDX").count()).to.equal(1);
      expect(await drawn.locator('input[type="email"]').count()).to.equal(1);
      const boxes = async (page: Page) =>
        Promise.all(["h1", 'input[type="email"]', 'button[type="submit"]'].map((css) => page.locator(`#root > main ${css}`).boundingBox()));
      const drawnBoxes = await boxes(before);

      const { page, errors } = session;
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(url("/login"));
      // The app renders over it once the page has painted: one screen, live (not inert), where the drawn one was.
      await page.locator("main[inert]").waitFor({ state: "detached" });
      await page.getByRole("tab", { name: "Sign Up" }).waitFor();
      expect(await page.locator("#root > main").count()).to.equal(1);
      expect(await boxes(page)).to.deep.equal(drawnBoxes);
      await page.getByRole("textbox", { name: "Email" }).fill("someone@example.com");
      expect(await page.getByRole("textbox", { name: "Email" }).inputValue()).to.equal("someone@example.com");
      expect(errors).to.deep.equal([]);
    } finally {
      await noScript.close();
    }
  });

  it("/login whose app cannot load says so in place of the drawn screen, instead of leaving a form that does nothing", async () => {
    const { page } = session;
    const entry = (await (await fetch(url("/login"))).text()).match(/data-modules="(\/assets\/[^" ]+\.js)/)?.[1];
    expect(entry, "the app's entry named in /login's page").to.be.a("string");
    await page.route(url(entry!), (route) => route.abort());
    await page.goto(url("/login"));
    await page.getByText(/^The dashboard could not start \(.+\)\. Reload the page\.$/).waitFor();
    expect(await page.locator("main").count()).to.equal(0);
  });

  /**
   * Records, from the page's first byte, whether "/"'s page showed the Dashboard it is built with
   * (data-signed-in-only, hidden until the boot script finds a user Firebase kept here).
   */
  async function watchDrawnDashboard(page: Page): Promise<() => Promise<{ inPage: boolean; shown: boolean }>> {
    await page.addInitScript(() => {
      const seen = { inPage: false, shown: false };
      Object.assign(window, { drawnDashboard: seen });
      new MutationObserver(() => {
        const drawn = document.querySelector<HTMLElement>("[data-signed-in-only]");
        if (!drawn) return;
        seen.inPage = true;
        if (drawn.style.display !== "none") seen.shown = true;
      }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["style"] });
    });
    return () => page.evaluate(() => (window as unknown as { drawnDashboard: { inPage: boolean; shown: boolean } }).drawnDashboard);
  }

  it("/ never shows the Dashboard drawn in its page to a signed-out visitor, new or after a logout: they go to /login", async () => {
    const { page, errors } = session;
    const drawnDashboard = await watchDrawnDashboard(page);
    await page.goto(url("/"));
    await page.waitForURL(url("/login"));
    expect(await drawnDashboard()).to.deep.equal({ inPage: true, shown: false });

    const email = await signUp(page);
    await logOut(page, email);
    // Firebase's database is still there, holding nobody.
    await page.goto(url("/"));
    await page.waitForURL(url("/login"));
    expect(await drawnDashboard()).to.deep.equal({ inPage: true, shown: false });
    expect(errors).to.deep.equal([]);
  });

  it("/ arrives drawn for a signed-in user: the frame and the Dashboard from the HTML, inert, then the app's in the same place", async () => {
    const { page, context, errors } = session;
    await page.setViewportSize({ width: 390, height: 844 });
    await signUp(page);
    const boxes = async (p: Page) => Promise.all(["header", "h1", "h2"].map((css) => p.locator(`#root ${css}`).first().boundingBox()));

    // The app held back (its entry never arrives): what the page draws on its own.
    const entry = (await (await fetch(url("/"))).text()).match(/data-modules="(\/assets\/[^" ]+\.js)/)?.[1];
    expect(entry, "the app's entry named in /'s page").to.be.a("string");
    const held = await context.newPage();
    await held.setViewportSize({ width: 390, height: 844 });
    await held.route(url(entry!), () => undefined);
    await held.goto(url("/"));
    const drawn = held.locator("#root > [data-signed-in-only][inert]");
    await drawn.getByRole("heading", { name: "Dashboard" }).waitFor();
    // The sidebar, hidden at this width, is in the page too.
    expect(await drawn.locator('nav[aria-label="Main"] a').allTextContents()).to.include.members(["Dashboard", "Payments"]);
    expect(await drawn.getByRole("heading", { name: "Connect your wallet" }).count()).to.equal(1);
    // Nobody's email and no Login button: the page is the same file for everyone.
    expect(await drawn.getByRole("link", { name: "Login" }).count()).to.equal(0);
    const drawnBoxes = await boxes(held);
    await held.close();

    const drawnDashboard = await watchDrawnDashboard(page);
    await page.goto(url("/"));
    await page.locator("[inert]").waitFor({ state: "detached" });
    await page.getByRole("heading", { name: "Dashboard" }).waitFor();
    expect(await drawnDashboard()).to.deep.equal({ inPage: true, shown: true });
    expect(await page.locator("#root header").count()).to.equal(1);
    expect(await boxes(page)).to.deep.equal(drawnBoxes);
    expect(errors).to.deep.equal([]);
  });

  it("shows '404 Page Not Found' for an unknown path", async () => {
    await session.page.goto(url("/no/such/page"));
    await session.page.getByRole("heading", { name: "404 Page Not Found" }).waitFor();
  });

  it("connects and disconnects the wallet from the header", async () => {
    const { page, errors } = session;
    await signUp(page);
    await connectWallet(page);
    await page
      .getByRole("banner")
      .getByRole("button", { name: /^Wallet 0x/ })
      .click();
    await page.getByRole("menuitem", { name: "Disconnect Wallet" }).click();
    await expectToast(page, "Wallet Disconnected");
    await page.getByRole("banner").getByRole("button", { name: "Connect Wallet" }).waitFor();
    expect(errors).to.deep.equal([]);
  });
});
