/**
 * Issue 31, part 4: the dashboard's Scenarios panel, in Chromium, against the real scenario engine
 * and snapshots.
 *
 * THESE RUN ONCE THE ENGINE IS WIRED: compose.ts's scenarioEngine() builds it (the shipped list,
 * the sender, the named snapshots). On a server without one the panel says 'Scenarios are not
 * available on this server.' and both tests fail at their first step; they are not skipped, so a
 * server that lost its engine fails here too.
 */
import { expect } from "chai";
import type { Locator, Page } from "playwright-core";
import { formatTokenAmount } from "@common/amounts";
import {
  addressOf,
  chainToken,
  connectWallet,
  expectToast,
  fillTransfer,
  isolateEachTest,
  navigate,
  openBrowser,
  type Session,
  signUp,
} from "./browser";

/** A balance as the Dashboard's card shows it: 2 decimals, thousands separators. */
function shown(value: bigint): string {
  const [whole, fraction] = formatTokenAmount(value, 2).split(".");
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}.${fraction} USDX`;
}

/** Waits (up to 15 s) until the element's normalised text equals `expected`; fails showing the last text. */
async function expectText(locator: Locator, expected: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  let last: string;
  for (;;) {
    last = ((await locator.textContent({ timeout: 15_000 })) ?? "").replace(/\s+/g, " ").trim();
    if (last === expected || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(last).to.equal(expected);
}

/** The panel's lists; a server without the engine fails here at once, with its sentence. */
async function panelReady(page: Page): Promise<void> {
  const lists = page.getByRole("list", { name: "Shipped scenarios" });
  const off = page.getByText("Scenarios are off here", { exact: true });
  await lists.or(off).waitFor();
  if (await off.isVisible()) {
    throw new Error(
      `The panel is off on this server (${await off.locator("..").textContent()}): these tests need the scenario engine, wired in compose.ts.`,
    );
  }
}

/** The run's outcome: 'Scenario applied' or 'Snapshot restored', else the failure's sentence in the message. */
async function runEnds(page: Page, outcome: "Scenario applied" | "Snapshot restored"): Promise<void> {
  const done = page.getByText(outcome, { exact: true });
  const failed = page.getByText("The run failed", { exact: true });
  await done.or(failed).waitFor({ timeout: 90_000 });
  if (await failed.isVisible()) throw new Error(`The run failed: ${await failed.locator("..").textContent()}`);
}

describe("Scenarios panel (browser)", function () {
  this.timeout(180_000);
  let session: Session;
  isolateEachTest(() => session);

  it("applies 'paused' from the panel, then the paused banner shows, there and on the Dashboard", async () => {
    const { token } = await chainToken();
    expect(await token.paused(), "the seeded chain is active").to.equal(false);
    session = await openBrowser("alice");
    const { page } = session;
    await signUp(page);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Scenarios" }).click();
    await page.getByRole("heading", { name: "Scenarios", exact: true }).waitFor();
    await panelReady(page);
    const banner = page.getByRole("status", { name: "USDX is paused" });
    expect(await banner.count()).to.equal(0);

    await page.getByRole("button", { name: "Apply paused" }).click();
    await page.getByRole("dialog", { name: "Apply 'paused'?" }).getByRole("button", { name: "Apply", exact: true }).click();
    await page.getByRole("progressbar", { name: "Run progress" }).waitFor();
    await runEnds(page, "Scenario applied");

    expect(await token.paused()).to.equal(true);
    await banner.waitFor();
    await navigate(page, "/");
    await banner.waitFor();
  });

  it("takes a snapshot, transfers, restores the snapshot and sees the earlier balance", async () => {
    const { token } = await chainToken();
    const alice = addressOf("alice");
    session = await openBrowser("alice");
    const { page } = session;
    await signUp(page);
    await connectWallet(page);
    const before = await token.balanceOf(alice);
    await expectText(page.getByTestId("balance"), shown(before));

    const name = `before-transfer-${Date.now()}`;
    await navigate(page, "/scenarios");
    await panelReady(page);
    await page.getByRole("textbox", { name: "Snapshot name" }).fill(name);
    await page.getByRole("button", { name: "Take Snapshot" }).click();
    await expectToast(page, "Snapshot taken");
    await page.getByRole("button", { name: `Restore ${name}` }).waitFor();

    await navigate(page, "/");
    const dialog = await fillTransfer(page, addressOf("bob"), "100");
    await expectToast(page, "Transfer successful");
    const confirmed = page.getByRole("dialog", { name: "Transaction confirmed" });
    await confirmed.getByRole("button", { name: "Close" }).first().click();
    await dialog.waitFor({ state: "hidden" });
    const after = await token.balanceOf(alice);
    expect(after < before, "the transfer moved alice's balance").to.equal(true);
    await expectText(page.getByTestId("balance"), shown(after));

    await navigate(page, "/scenarios");
    await page.getByRole("button", { name: `Restore ${name}` }).click();
    await page
      .getByRole("dialog", { name: `Restore '${name}'?` })
      .getByRole("button", { name: "Restore", exact: true })
      .click();
    await runEnds(page, "Snapshot restored");

    expect(await token.balanceOf(alice)).to.equal(before);
    await navigate(page, "/");
    await expectText(page.getByTestId("balance"), shown(before));
  });
});
