import { expect } from "chai";
import { JsonRpcProvider } from "ethers";
import type { Locator, Page } from "playwright-core";
import { parseTokenAmount } from "@common/amounts";
import { changeToEveryBalance } from "@common/multiplierStep";
import { ROLES, type RoleName } from "@common/roles";
import { USDX__factory } from "@bindings/factories/contracts/USDX__factory";
import type { USDX } from "@bindings";
import {
  addressOf,
  connectWallet,
  expectToast,
  expectToastWith,
  isolateEachTest,
  navigate,
  openBrowser,
  type Session,
  signUp,
  switchAccount,
  url,
} from "./browser";
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

  /** Grants or revokes `role` for `account` with the Role form inside `form`; checks the toast and the chain. */
  async function changeRole(page: Page, form: Locator, account: string, role: RoleName, action: "Grant" | "Revoke"): Promise<void> {
    await form.getByLabel("Account Address").fill(account);
    await form.getByRole("combobox", { name: "Role" }).click();
    await page.getByRole("option", { name: role, exact: true }).click();
    await form.getByRole("radio", { name: action, exact: true }).click();
    await form.getByRole("button", { name: "Apply Role Change" }).click();
    await expectToastWith(
      page,
      action === "Grant" ? "Role granted" : "Role revoked",
      `${role} ${action === "Grant" ? "granted to" : "revoked from"} ${account}`,
    );
    await closeTxModal(page);
    await chainEquals(() => usdx.hasRole(ROLES[role], account), action === "Grant");
  }

  /** Blocks (confirming 'Block account') or unblocks `account` with the Blocklist form inside `form`; checks the toast and the chain. */
  async function changeBlock(page: Page, form: Locator, account: string, action: "Block" | "Unblock"): Promise<void> {
    await form.getByLabel("Account Address").fill(account);
    await form.getByRole("radio", { name: action, exact: true }).click();
    await form.getByRole("button", { name: "Apply Blocklist Change" }).click();
    if (action === "Block") await page.getByRole("button", { name: "Block account" }).click();
    await expectToastWith(page, action === "Block" ? "Account blocked" : "Account unblocked", account);
    await closeTxModal(page);
    await chainEquals(() => usdx.isBlocked(account), action === "Block");
  }

  it("Role Management: the admin grants MINTER_ROLE to erin, then revokes it", async () => {
    const page = await start("admin", "/roles");
    expect(await usdx.hasRole(ROLES.MINTER_ROLE, erin)).to.equal(false);

    await changeRole(page, page.locator("main"), erin, "MINTER_ROLE", "Grant");
    await changeRole(page, page.locator("main"), erin, "MINTER_ROLE", "Revoke");
    expect(session!.errors).to.deep.equal([]);
  });

  it("Blocklist: the blocklister blocks erin (confirming 'Block account'), then unblocks her", async () => {
    const page = await start("blocklister", "/blocklist");
    expect(await usdx.isBlocked(erin)).to.equal(false);

    await changeBlock(page, page.locator("main"), erin, "Block");
    await changeBlock(page, page.locator("main"), erin, "Unblock");
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
    // The oracle's guard: the change to every balance as it is typed; a step this big is typed again before it can be sent.
    const now = before + parseTokenAmount("0.01");
    await dialog
      .getByTestId("multiplier-change")
      .getByText(changeToEveryBalance(now, parseTokenAmount("1.5")))
      .waitFor();
    await dialog
      .getByRole("alert")
      .getByText(/more than the 1% one change may move it without a second look/)
      .waitFor();
    const setValue = dialog.getByRole("button", { name: "Set Value" });
    expect(await setValue.isDisabled()).to.equal(true);
    await dialog.getByLabel("Type the new multiplier again to confirm").fill("1.50");
    expect(await setValue.isDisabled(), "'1.50' is not what was typed").to.equal(true);
    await dialog.getByLabel("Type the new multiplier again to confirm").fill("1.5");
    await setValue.click();
    expect(await expectToast(page, "Reward multiplier updated")).to.contain("Reward multiplier has been set to 1.5");
    await closeTxModal(page);
    await chainEquals(() => usdx.rewardMultiplier(), parseTokenAmount("1.5"));
    await page.getByTestId("reward-multiplier").getByText("1.5000x").waitFor();
    expect(session!.errors).to.deep.equal([]);
  });

  it("alice (no role) has no Admin Functions and a disabled 'Add 0.01'; switched to the oracle, the tabs name the roles it lacks; /admin sends a non-admin to '/'", async () => {
    const page = await start("alice");
    await page.getByText("Only ORACLE_ROLE holders can change it.").waitFor();
    expect(await page.getByRole("button", { name: "Add 0.01" }).isDisabled()).to.equal(true);
    expect(await page.getByRole("button", { name: "Advanced Settings" }).isDisabled()).to.equal(true);
    expect(await page.getByText("Admin Functions", { exact: true }).count()).to.equal(0);

    // The oracle holds one role: Admin Functions shows, 'Add 0.01' works, and each form it may
    // not use is replaced by the role it needs, so no button can send what the contract refuses.
    await switchAccount(page, "oracle");
    await page.getByText("Admin Functions", { exact: true }).waitFor();
    expect(await page.getByRole("button", { name: "Add 0.01" }).isEnabled()).to.equal(true);
    const notes: [string, string[]][] = [
      ["Token Operations", ["MINTER_ROLE", "BURNER_ROLE"]],
      ["Role Management", ["DEFAULT_ADMIN_ROLE"]],
      ["Security", ["PAUSE_ROLE", "BLOCKLIST_ROLE"]],
    ];
    for (const [tab, roles] of notes) {
      await page.getByRole("tab", { name: tab }).click();
      for (const role of roles)
        await page
          .getByRole("tabpanel")
          .getByText(new RegExp(`^You need ${role} to `))
          .waitFor();
    }
    for (const button of ["Mint", "Burn", "Apply Role Change", "Pause Contract", "Apply Blocklist Change"]) {
      expect(await page.getByRole("button", { name: button, exact: true }).count(), button).to.equal(0);
    }

    await navigate(page, "/admin");
    await page.waitForURL(url("/"));
    await page.getByRole("heading", { name: "Dashboard" }).waitFor();
    expect(await page.getByRole("heading", { name: "USDX Admin Panel" }).count()).to.equal(0);
    expect(session!.errors).to.deep.equal([]);
  });

  it("Dashboard Admin Functions: the admin grants and revokes BLOCKLIST_ROLE (Role Management tab), then, switched to the blocklister, blocks and unblocks erin (Security tab)", async () => {
    const page = await start("admin");
    await page.getByRole("tab", { name: "Role Management" }).click();
    const panel = page.getByRole("tabpanel");
    for (const action of ["Grant", "Revoke"] as const) await changeRole(page, panel, erin, "BLOCKLIST_ROLE", action);

    // The same browser, the wallet switched to the blocklister: the Security tab now has the form.
    await switchAccount(page, "blocklister");
    await page.getByRole("tab", { name: "Security" }).click();
    for (const action of ["Block", "Unblock"] as const) await changeBlock(page, panel, erin, action);
    expect(session!.errors).to.deep.equal([]);
  });

  it("Admin Panel: the admin's mint is refused (no MINTER_ROLE, in words); the admin grants itself each role there, then mints, burns, blocks, unblocks, pauses, unpauses, sets the multiplier and revokes a role", async function () {
    this.timeout(180_000);
    const page = await start("admin", "/admin");
    const admin = addressOf("admin");
    const alice = addressOf("alice");
    await page.getByRole("heading", { name: "USDX Admin Panel" }).waitFor();
    const mintForm = page.getByRole("tabpanel").locator("form").nth(0);
    const burnForm = page.getByRole("tabpanel").locator("form").nth(1);

    // Without MINTER_ROLE the panel still tries, and the contract's refusal (its dry run) comes back in words.
    await mintForm.getByText("Requires MINTER_ROLE: your wallet does not hold it, so the contract will refuse").waitFor();
    await mintForm.getByLabel("Recipient Address").fill(erin);
    await mintForm.getByLabel("Amount", { exact: true }).fill("7");
    await mintForm.getByRole("button", { name: "Mint", exact: true }).click();
    expect(await expectToast(page, "Mint failed")).to.contain(`The account ${admin} does not hold MINTER_ROLE, which this action needs.`);
    // The dry run refused it before the wallet was asked: 'Transaction not sent'.
    await closeTxModal(page, "Transaction not sent");

    // Role Management tab: the admin grants itself every operating role.
    await page.getByRole("tab", { name: "Role Management" }).click();
    const roleForm = page.getByRole("tabpanel").locator("form");
    for (const role of ["MINTER_ROLE", "BURNER_ROLE", "BLOCKLIST_ROLE", "PAUSE_ROLE", "ORACLE_ROLE"] as const)
      await changeRole(page, roleForm, admin, role, "Grant");

    // Token Operations: mint to erin, burn from alice.
    await page.getByRole("tab", { name: "Token Operations" }).click();
    await mintForm.getByText("Requires MINTER_ROLE (you hold it)").waitFor();
    const erinBefore = await usdx.balanceOf(erin);
    await mintForm.getByLabel("Recipient Address").fill(erin);
    await mintForm.getByLabel("Amount", { exact: true }).fill("7");
    await mintForm.getByRole("button", { name: "Mint", exact: true }).click();
    expect(await expectToast(page, "Tokens minted successfully")).to.contain(`7 USDX minted to ${erin}`);
    await closeTxModal(page);
    const minted = (await usdx.balanceOf(erin)) - erinBefore;
    expect(minted <= parseTokenAmount("7") && minted >= parseTokenAmount("7") - 2n, `erin gained ${minted}`).to.equal(true);

    const aliceBefore = await usdx.balanceOf(alice);
    await burnForm.getByLabel("From Address").fill(alice);
    await burnForm.getByLabel("Amount", { exact: true }).fill("3");
    await burnForm.getByRole("button", { name: "Burn", exact: true }).click();
    await page.getByRole("button", { name: "Burn tokens" }).click();
    expect(await expectToast(page, "Tokens burned successfully")).to.contain(`3 USDX burned from ${alice}`);
    await closeTxModal(page);
    const burned = aliceBefore - (await usdx.balanceOf(alice));
    expect(burned >= parseTokenAmount("3") && burned <= parseTokenAmount("3") + 2n, `alice lost ${burned}`).to.equal(true);

    // Blocklist tab: block, then unblock erin.
    await page.getByRole("tab", { name: "Blocklist" }).click();
    const blockForm = page.getByRole("tabpanel").locator("form");
    for (const action of ["Block", "Unblock"] as const) await changeBlock(page, blockForm, erin, action);

    // The panel's pause toggle: pause, then unpause.
    await page.getByRole("button", { name: "Pause Contract" }).click();
    await expectToast(page, "Contract paused");
    await closeTxModal(page);
    await chainEquals(() => usdx.paused(), true);
    await page.getByRole("button", { name: "Unpause Contract" }).click();
    await expectToast(page, "Contract unpaused");
    await closeTxModal(page);
    await chainEquals(() => usdx.paused(), false);

    // Settings tab: set the multiplier.
    await page.getByRole("tab", { name: "Settings" }).click();
    await page.getByRole("tabpanel").getByLabel("Reward Multiplier").fill("1.25");
    // More than 1% from the multiplier now: typed again.
    await page.getByRole("tabpanel").getByLabel("Type the new multiplier again to confirm").fill("1.25");
    await page.getByRole("tabpanel").getByRole("button", { name: "Update Reward Multiplier" }).click();
    expect(await expectToast(page, "Reward multiplier updated")).to.contain("1.25");
    await closeTxModal(page);
    await chainEquals(() => usdx.rewardMultiplier(), parseTokenAmount("1.25"));

    // And gives one role back.
    await page.getByRole("tab", { name: "Role Management" }).click();
    await changeRole(page, roleForm, admin, "ORACLE_ROLE", "Revoke");
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
