import { expect } from "chai";
import { connectWallet, expectToast, isolateEachTest, openBrowser, type Session, signUp, url } from "./browser";

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
    await page
      .getByRole("banner")
      .getByRole("button", { name: new RegExp(email.slice(0, 10)) })
      .click();
    await page.getByRole("menuitem", { name: "Logout" }).click();
    await page.waitForURL(url("/login"));

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
