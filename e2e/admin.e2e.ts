import { expect } from "chai";
import { JsonRpcProvider } from "ethers";
import type { Page } from "playwright-core";
import { parseTokenAmount } from "../common/amounts";
import { ROLES } from "../common/roles";
import { USDX__factory } from "../typechain-types/factories/contracts/USDX__factory";
import type { USDX } from "../typechain-types";
import { addressOf, connectWallet, expectToast, isolateEachTest, navigate, openBrowser, type Session, signUp, url } from "./browser";
import { e2e } from "./hooks";

/** The token as the chain holds it, read through the stack's node (not the page). */
async function chainToken(): Promise<USDX> {
  const config = await fetch(`${e2e().server.url}/api/config`).then((r) => r.json() as Promise<{ contracts: { proxy: string } }>);
  return USDX__factory.connect(config.contracts.proxy, new JsonRpcProvider(e2e().stack.rpcUrl, undefined, { staticNetwork: true }));
}

/** The transaction status modal once it says `title`; closed with its 'Close' button. */
async function closeTxModal(page: Page, title = "Transaction confirmed"): Promise<void> {
  const modal = page.getByRole("dialog", { name: title });
  await modal.waitFor({ timeout: 20_000 });
  await modal.getByRole("button", { name: "Close" }).first().click();
  await modal.waitFor({ state: "hidden" });
}

/** Polls a chain read until it returns `expected` (the UI's toast comes after the receipt, so this is at once). */
async function chainEquals<T>(read: () => Promise<T>, expected: T): Promise<void> {
  const deadline = Date.now() + 5_000;
  let value = await read();
  while (value !== expected && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    value = await read();
  }
  expect(value).to.equal(expected);
}

describe("Admin screens (browser)", function () {
  this.timeout(90_000);
  let session: Session | undefined;
  let usdx: USDX;
  const erin = addressOf("erin");

  before(async () => {
    usdx = await chainToken();
  });
  isolateEachTest(() => session);
  beforeEach(() => {
    session = undefined;
  });

  async function start(account: string, route = "/"): Promise<Page> {
    session = await openBrowser(account);
    await signUp(session.page);
    await connectWallet(session.page);
    if (route !== "/") await navigate(session.page, route);
    return session.page;
  }

  it("Role Management: the admin grants MINTER_ROLE to erin, then revokes it", async () => {
    const page = await start("admin", "/roles");
    expect(await usdx.hasRole(ROLES.MINTER_ROLE, erin)).to.equal(false);

    const chooseRole = async () => {
      await page.getByRole("combobox", { name: "Role" }).click();
      await page.getByRole("option", { name: "MINTER_ROLE", exact: true }).click();
    };

    await page.getByLabel("Account Address").fill(erin);
    await chooseRole();
    await page.getByRole("button", { name: "Apply Role Change" }).click();
    expect(await expectToast(page, "Role granted")).to.contain(`MINTER_ROLE granted to ${erin}`);
    await closeTxModal(page);
    await chainEquals(() => usdx.hasRole(ROLES.MINTER_ROLE, erin), true);

    await page.getByLabel("Account Address").fill(erin);
    await chooseRole();
    await page.getByRole("radio", { name: "Revoke" }).click();
    await page.getByRole("button", { name: "Apply Role Change" }).click();
    expect(await expectToast(page, "Role revoked")).to.contain(`MINTER_ROLE revoked from ${erin}`);
    await closeTxModal(page);
    await chainEquals(() => usdx.hasRole(ROLES.MINTER_ROLE, erin), false);
    expect(session!.errors).to.deep.equal([]);
  });

  it("Blocklist: the blocklister blocks erin (confirming 'Block account'), then unblocks her", async () => {
    const page = await start("blocklister", "/blocklist");
    expect(await usdx.isBlocked(erin)).to.equal(false);

    await page.getByLabel("Account Address").fill(erin);
    await page.getByRole("button", { name: "Apply Blocklist Change" }).click();
    await page.getByRole("button", { name: "Block account" }).click();
    expect(await expectToast(page, "Account blocked")).to.contain(erin);
    await closeTxModal(page);
    await chainEquals(() => usdx.isBlocked(erin), true);

    await page.getByLabel("Account Address").fill(erin);
    await page.getByRole("radio", { name: "Unblock" }).click();
    await page.getByRole("button", { name: "Apply Blocklist Change" }).click();
    expect(await expectToast(page, "Account unblocked")).to.contain(erin);
    await closeTxModal(page);
    await chainEquals(() => usdx.isBlocked(erin), false);
    expect(session!.errors).to.deep.equal([]);
  });

  it("Dashboard Token Operations: the minter mints 10 USDX to erin", async () => {
    const page = await start("minter");
    const before = await usdx.balanceOf(erin);
    const supplyBefore = await usdx.totalSupply();
    const amount = parseTokenAmount("10");

    await page.getByRole("tab", { name: "Token Operations" }).click();
    await page.getByLabel("Recipient Address").fill(erin);
    await page.getByLabel("Amount", { exact: true }).fill("10");
    await page.getByRole("button", { name: "Mint", exact: true }).click();
    expect(await expectToast(page, "Tokens minted successfully")).to.contain(`10 USDX minted to ${erin}`);
    await closeTxModal(page);

    // Minting buys shares at the multiplier: the balance may come out a wei or two short of the amount.
    const gained = (await usdx.balanceOf(erin)) - before;
    expect(gained <= amount && gained >= amount - 2n, `erin gained ${gained}`).to.equal(true);
    const grown = (await usdx.totalSupply()) - supplyBefore;
    expect(grown <= amount && grown >= amount - 2n, `supply grew ${grown}`).to.equal(true);
    expect(session!.errors).to.deep.equal([]);
  });

  it("Dashboard Token Operations: the burner burns 5 USDX from alice after confirming 'Burn tokens'", async () => {
    const page = await start("burner");
    const alice = addressOf("alice");
    const before = await usdx.balanceOf(alice);
    const amount = parseTokenAmount("5");

    await page.getByRole("tab", { name: "Token Operations" }).click();
    await page.getByLabel("From Address").fill(alice);
    await page.getByLabel("Amount", { exact: true }).fill("5");
    await page.getByRole("button", { name: "Burn", exact: true }).click();
    await page.getByRole("button", { name: "Burn tokens" }).click();
    expect(await expectToast(page, "Tokens burned successfully")).to.contain(`5 USDX burned from ${alice}`);
    await closeTxModal(page);

    const lost = before - (await usdx.balanceOf(alice));
    expect(lost >= amount && lost <= amount + 2n, `alice lost ${lost}`).to.equal(true);
    expect(session!.errors).to.deep.equal([]);
  });

  it("Dashboard Security: the pauser pauses, then unpauses the contract", async () => {
    const page = await start("pauser");
    expect(await usdx.paused()).to.equal(false);

    await page.getByRole("tab", { name: "Security" }).click();
    await page.getByRole("button", { name: "Pause Contract", exact: true }).click();
    await expectToast(page, "Contract paused");
    await closeTxModal(page);
    await chainEquals(() => usdx.paused(), true);
    await page.getByText("Contract status:").locator("..").getByText("Paused", { exact: true }).waitFor();

    await page.getByRole("button", { name: "Unpause Contract", exact: true }).click();
    await expectToast(page, "Contract unpaused");
    await closeTxModal(page);
    await chainEquals(() => usdx.paused(), false);
    await page.getByText("Contract status:").locator("..").getByText("Active", { exact: true }).waitFor();
    expect(session!.errors).to.deep.equal([]);
  });

  it("Reward Multiplier: the oracle adds 0.01, then sets 1.5 in Advanced Settings", async () => {
    const page = await start("oracle");
    const before = await usdx.rewardMultiplier();

    await page.getByRole("button", { name: "Add 0.01" }).click();
    await expectToast(page, "Reward multiplier incremented");
    await closeTxModal(page);
    await chainEquals(() => usdx.rewardMultiplier(), before + parseTokenAmount("0.01"));

    await page.getByRole("button", { name: "Advanced Settings" }).click();
    const dialog = page.getByRole("dialog", { name: "Update Reward Multiplier" });
    await dialog.waitFor();
    await dialog.getByLabel("New Multiplier Value").fill("1.5");
    await dialog.getByRole("button", { name: "Set Value" }).click();
    expect(await expectToast(page, "Reward multiplier updated")).to.contain("Reward multiplier has been set to 1.5");
    await closeTxModal(page);
    await chainEquals(() => usdx.rewardMultiplier(), parseTokenAmount("1.5"));
    await page.getByTestId("reward-multiplier").getByText("1.5000x").waitFor();
    expect(session!.errors).to.deep.equal([]);
  });

  it("Admin Panel: alice (no admin role) is sent from /admin to '/', and her 'Add 0.01' is disabled", async () => {
    const page = await start("alice");
    await page.getByText("Only ORACLE_ROLE holders can change it.").waitFor();
    expect(await page.getByRole("button", { name: "Add 0.01" }).isDisabled()).to.equal(true);
    expect(await page.getByRole("button", { name: "Advanced Settings" }).isDisabled()).to.equal(true);

    await navigate(page, "/admin");
    await page.waitForURL(url("/"));
    await page.getByRole("heading", { name: "Dashboard" }).waitFor();
    expect(await page.getByRole("heading", { name: "USDX Admin Panel" }).count()).to.equal(0);
    expect(session!.errors).to.deep.equal([]);
  });

  it("Admin Panel: the admin sees 'USDX Admin Panel' with its tabs", async () => {
    const page = await start("admin", "/admin");
    await page.getByRole("heading", { name: "USDX Admin Panel" }).waitFor();
    await page.getByText("Only for the admin role").waitFor();
    for (const tab of ["Token Operations", "Role Management", "Blocklist", "Settings"]) {
      await page.getByRole("tab", { name: tab }).waitFor();
    }
    expect(page.url()).to.equal(url("/admin"));
    expect(session!.errors).to.deep.equal([]);
  });
});
