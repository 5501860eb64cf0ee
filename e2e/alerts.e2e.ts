import { expect } from "chai";
import type { Page } from "playwright-core";
import { AlertReceiver, signedBy } from "../server/test/alertReceiver";
import { expectToast, isolateEachTest, openBrowser, saveScreen, type Session, url } from "./browser";

/**
 * Operators' alerts in the browser (issue 18): the seeded admin signs in with its wallet (the
 * server's admin claim, ADMIN_WALLETS), opens Alerts from the sidebar, adds a rule pointing at a
 * receiver on loopback, copies nothing but reads the secret shown once, presses 'Send test', and
 * sees the attempt in the delivery log; the receiver got one delivery signed with that secret.
 */
describe("Alerts (browser)", function () {
  this.timeout(120_000);
  let session: Session | undefined;
  let receiver: AlertReceiver;
  isolateEachTest(() => session);

  before(async () => {
    receiver = await AlertReceiver.start();
  });
  after(async () => {
    await receiver?.stop();
  });

  /** Wallet sign-in on the Login screen's Wallet tab, as the account the browser's wallet acts as. */
  async function walletSignIn(page: Page): Promise<void> {
    await page.goto(url("/login"));
    await page.getByRole("tab", { name: "Wallet" }).click();
    await page.getByRole("tabpanel").getByRole("button", { name: "Connect Wallet" }).click();
    await page.getByRole("button", { name: "E2E Wallet" }).click();
    await page.getByRole("button", { name: "Authenticate with Wallet" }).click();
    await page.waitForURL(url("/"));
  }

  it("an admin adds a rule for a loopback receiver, presses 'Send test' and sees the signed attempt in the log", async () => {
    session = await openBrowser("admin");
    const { page, errors } = session;
    await walletSignIn(page);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Alerts" }).click();
    await page.getByRole("heading", { name: "Alerts", exact: true }).waitFor();
    await page.getByText("No alert rules yet").waitFor();

    const form = page.getByRole("form", { name: "Add alert rule" });
    await form.getByLabel("More than (USDX)").fill("1000");
    await form.getByLabel("Webhook URL").fill(`${receiver.url}/e2e`);
    await form.getByRole("button", { name: "Add Rule" }).click();
    const dialog = page.getByRole("dialog", { name: /signing secret$/ });
    const secret = (await dialog.getByLabel("Signing secret").textContent())?.trim() ?? "";
    expect(secret).to.match(/^whsec_[0-9a-f]{64}$/);
    await saveScreen(page, "alerts-secret-1280", { fullPage: false });
    await dialog.getByRole("button", { name: "Done" }).click();
    await dialog.waitFor({ state: "hidden" });

    const rules = page.getByRole("list", { name: "Alert rules" });
    await rules.getByText("Mint above an amount: more than 1000 USDX").waitFor();
    await rules.getByRole("button", { name: /^Send test for rule #\d+$/ }).click();
    expect(await expectToast(page, "Test delivered")).to.match(/HTTP 200 in \d+ ms/);
    const entry = page.getByRole("list", { name: "Deliveries" }).getByRole("listitem").first();
    await entry.getByText("Test delivery").waitFor();
    await entry.getByText("Delivered", { exact: true }).waitFor();
    await entry
      .getByRole("list", { name: "Attempts" })
      .getByText(/^HTTP 200 in \d+ ms$/)
      .waitFor();
    await entry.getByText("received", { exact: true }).waitFor();

    const got = receiver.at("/e2e");
    expect(got).to.have.length(1);
    expect(signedBy(got[0], secret)).to.equal(true);
    expect(got[0].body).to.include({ test: true, event: null });

    await saveScreen(page, "alerts-1280");
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(300);
    await saveScreen(page, "alerts-390");
    expect(errors).to.deep.equal([]);
  });

  it("a signed-in user without the admin claim sees no Alerts link, and /alerts says it is for the server's admins", async () => {
    session = await openBrowser("alice");
    const { page, errors } = session;
    await walletSignIn(page);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).waitFor();
    expect(await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Alerts" }).count()).to.equal(0);
    await page.goto(url("/alerts"));
    await page.getByText("Only for the server's admins").waitFor();
    expect(errors).to.deep.equal([]);
  });
});
