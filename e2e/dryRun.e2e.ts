import { expect } from "chai";
import type { JsonRpcProvider } from "ethers";
import type { Page } from "playwright-core";
import { exactTokenAmount } from "@common/amounts";
import { ROLES } from "@common/roles";
import type { USDX } from "@bindings";
import { rpc } from "../server/test/stack";
import {
  addressOf,
  chainToken,
  connectWallet,
  expectToastWith,
  fillTransfer,
  isolateEachTest,
  openBrowser,
  type Session,
  signUp,
  uploadRows,
} from "./browser";
import { e2e } from "./hooks";

/**
 * A dry run before every signature (issue 18): each write the dashboard asks a wallet to sign is
 * simulated first, against the latest block, from the wallet's address. Here the chain is changed
 * behind the page's back (another account, through the node) after the page read it, as it can be
 * between reading and signing, so the form's own checks pass and only the contract would refuse.
 * Each time the person is told the contract's reason, the wallet is asked for no signature, and no
 * transaction is mined.
 */

const NOT_ASKED = "Nothing was sent: your wallet was not asked to sign.";
/** What a wallet asks its user to approve with a signature. */
const SIGNING = ["eth_sendTransaction", "eth_signTypedData_v4", "personal_sign"];

type E2EWindow = { __e2eWallet: { requests: readonly string[]; rejectNextRequest(): void } };

describe("A dry run before every signature (browser)", function () {
  this.timeout(90_000);
  let session: Session | undefined;
  let usdx: USDX;
  let provider: JsonRpcProvider;
  const [alice, bob, erin, dave] = ["alice", "bob", "erin", "dave"].map(addressOf);

  before(async () => {
    ({ token: usdx, provider } = await chainToken());
  });
  after(() => provider.destroy());
  isolateEachTest(() => session);
  beforeEach(() => {
    session = undefined;
  });

  async function start(account: string): Promise<Page> {
    session = await openBrowser(account);
    await signUp(session.page);
    await connectWallet(session.page);
    return session.page;
  }

  /** `name` sends a USDX call through the node (which holds the seeded accounts), behind the page's back. */
  async function onChain(name: string, send: (token: USDX) => Promise<{ wait(): Promise<unknown> }>): Promise<void> {
    const token = usdx.connect(await provider.getSigner(addressOf(name)));
    await (await send(token)).wait();
  }

  const walletRequests = (page: Page) => page.evaluate(() => [...(window as unknown as E2EWindow).__e2eWallet.requests]);

  // Asked of the node directly: ethers' provider keeps the block number for a moment, which would miss the block just mined.
  const blockNumber = async () => Number(await rpc<string>(e2e().stack.rpcUrl, "eth_blockNumber"));
  const nonce = async (account: string) => Number(await rpc<string>(e2e().stack.rpcUrl, "eth_getTransactionCount", [account, "latest"]));

  /** The chain and the wallet now, for `account` (the one that would sign). */
  async function mark(page: Page, account: string) {
    return { account, block: await blockNumber(), nonce: await nonce(account), asked: (await walletRequests(page)).length };
  }

  /** Since `before`: the wallet was asked for no signature (nor anything else), and nothing was mined. */
  async function expectNothingSent(page: Page, before: Awaited<ReturnType<typeof mark>>): Promise<void> {
    const asked = (await walletRequests(page)).slice(before.asked);
    expect(
      asked.filter((method) => SIGNING.includes(method)),
      `the wallet was asked: ${asked.join(", ")}`,
    ).to.deep.equal([]);
    // Stronger still: the dry run runs on the dashboard's read provider, so the wallet heard nothing at all.
    expect(asked, "what the wallet was asked").to.deep.equal([]);
    expect(await blockNumber(), "the block number").to.equal(before.block);
    expect(await nonce(before.account), "the signer's nonce").to.equal(before.nonce);
  }

  /** The failure toast with the contract's reason and that nothing was sent; the modal says so too, then is closed. */
  async function expectRefused(page: Page, title: string, reason: string, modal = true): Promise<void> {
    await expectToastWith(page, title, reason);
    await expectToastWith(page, title, NOT_ASKED);
    if (!modal) return;
    const dialog = page.getByRole("dialog", { name: "Transaction not sent" });
    await dialog.waitFor();
    expect(await dialog.getByRole("alert").textContent()).to.equal(`${reason} ${NOT_ASKED}`);
    await dialog.getByRole("button", { name: "Close" }).first().click();
    await dialog.waitFor({ state: "hidden" });
  }

  it("transfer: refused while paused, and when the balance moved away since the page read it (with the figures); one that would succeed still goes through", async () => {
    const page = await start("alice");
    // A transfer the contract accepts: dry-run, then sent by the wallet and mined.
    let before = await mark(page, alice);
    await fillTransfer(page, bob, "1");
    await expectToastWith(page, "Transfer successful", `1 USDX transferred to ${bob}`);
    await page.getByRole("dialog", { name: "Transaction confirmed" }).getByRole("button", { name: "Close" }).first().click();
    expect((await walletRequests(page)).slice(before.asked)).to.include("eth_sendTransaction");
    expect(await blockNumber()).to.equal(before.block + 1);
    // The runner reads the chain again once more, 2 s after a success: let it, so the view below stays stale.
    await page.waitForTimeout(2_500);

    await onChain("pauser", (t) => t.pause());
    before = await mark(page, alice);
    const dialog = await fillTransfer(page, bob, "2");
    await expectRefused(page, "Transfer failed", "USDX is paused: no tokens can be transferred, minted or burned until it is unpaused.");
    await expectNothingSent(page, before);
    // The refusal showed the page was out of date: it reads the chain again, and now shows the pause.
    await page.getByText("Paused", { exact: true }).first().waitFor();

    // Unpaused, and almost all of alice's USDX moved to bob from elsewhere: the page still shows the old balance.
    await onChain("pauser", (t) => t.unpause());
    await onChain("alice", async (t) => t.transfer(bob, (await usdx.balanceOf(alice)) - 3n * 10n ** 18n));
    const balance = await usdx.balanceOf(alice);
    before = await mark(page, alice);
    await dialog.getByLabel("Amount (USDX)").fill("50");
    await dialog.getByRole("button", { name: "Transfer", exact: true }).click();
    await expectRefused(
      page,
      "Transfer failed",
      `Insufficient balance: ${alice} has ${exactTokenAmount(balance)} USDX, and 50 USDX is needed.`,
    );
    await expectNothingSent(page, before);
    expect(session!.errors).to.deep.equal([]);
  });

  it("mint: the minter's role was revoked after the page read it; the refusal names the role", async () => {
    const page = await start("minter");
    await page.getByRole("tab", { name: "Token Operations" }).click();
    await page.getByRole("button", { name: "Mint", exact: true }).waitFor();
    await onChain("admin", (t) => t.revokeRole(ROLES.MINTER_ROLE, addressOf("minter")));

    const before = await mark(page, addressOf("minter"));
    await page.getByLabel("Recipient Address").fill(erin);
    await page.getByLabel("Amount", { exact: true }).fill("5");
    await page.getByRole("button", { name: "Mint", exact: true }).click();
    await expectRefused(page, "Mint failed", `The account ${addressOf("minter")} does not hold MINTER_ROLE, which this action needs.`);
    await expectNothingSent(page, before);
    expect(session!.errors).to.deep.equal([]);
  });

  it("burn: from a blocked account, and more than the account holds", async () => {
    const page = await start("burner");
    const burner = addressOf("burner");
    await page.getByRole("tab", { name: "Token Operations" }).click();
    const burn = async (from: string, amount: string) => {
      await page.getByLabel("From Address").fill(from);
      await page.getByLabel("Amount", { exact: true }).fill(amount);
      await page.getByRole("button", { name: "Burn", exact: true }).click();
      await page.getByRole("button", { name: "Burn tokens" }).click();
    };

    let before = await mark(page, burner);
    await burn(dave, "1");
    await expectRefused(page, "Burn failed", `The account ${dave} is blocked: it cannot send tokens or have tokens burned.`);
    await expectNothingSent(page, before);

    before = await mark(page, burner);
    await burn(erin, "100");
    await expectRefused(
      page,
      "Burn failed",
      `Cannot burn 100 USDX: ${erin} holds only ${exactTokenAmount(await usdx.balanceOf(erin))} USDX.`,
    );
    await expectNothingSent(page, before);
    expect(session!.errors).to.deep.equal([]);
  });

  it("block: an account blocked meanwhile by someone else cannot be blocked again", async () => {
    const page = await start("blocklister");
    await page.getByRole("tab", { name: "Security" }).click();
    const panel = page.getByRole("tabpanel");
    await panel.getByLabel("Account Address").fill(erin);
    await panel.getByRole("radio", { name: "Block", exact: true }).click();
    // Someone blocks erin on chain while the form is filled in.
    await onChain("blocklister", (t) => t.blockAccount(erin));

    const before = await mark(page, addressOf("blocklister"));
    await panel.getByRole("button", { name: "Apply Blocklist Change" }).click();
    await page.getByRole("button", { name: "Block account" }).click();
    await expectRefused(
      page,
      "Blocklist update failed",
      `Nothing to change: ${erin} is already in that blocklist state (blocked when blocking, or not blocked when unblocking).`,
    );
    await expectNothingSent(page, before);
    expect(session!.errors).to.deep.equal([]);
  });

  it("pause: paused meanwhile by another transaction, so 'Pause Contract' would be refused", async () => {
    const page = await start("pauser");
    await page.getByRole("tab", { name: "Security" }).click();
    await page.getByText("Contract status:").locator("..").getByText("Active", { exact: true }).waitFor();
    await onChain("pauser", (t) => t.pause());

    const before = await mark(page, addressOf("pauser"));
    await page.getByRole("button", { name: "Pause Contract", exact: true }).click();
    await expectRefused(page, "Pause failed", "USDX is already paused.");
    await expectNothingSent(page, before);
    // The page reads the chain again after the refusal: it now says Paused, and offers Unpause.
    await page.getByText("Contract status:").locator("..").getByText("Paused", { exact: true }).waitFor();
    expect(await page.getByRole("button", { name: "Pause Contract", exact: true }).isDisabled()).to.equal(true);
    expect(session!.errors).to.deep.equal([]);
  });

  for (const action of ["Grant", "Revoke"] as const) {
    it(`${action.toLowerCase()} a role: the admin's own DEFAULT_ADMIN_ROLE went meanwhile; then the page, read again, offers no role change`, async () => {
      const page = await start("admin");
      const admin = addressOf("admin");
      await page.getByRole("tab", { name: "Role Management" }).click();
      const panel = page.getByRole("tabpanel");
      await panel.getByRole("button", { name: "Apply Role Change" }).waitFor();
      await onChain("admin", (t) => t.revokeRole(ROLES.DEFAULT_ADMIN_ROLE, admin));

      const before = await mark(page, admin);
      await panel.getByLabel("Account Address").fill(addressOf(action === "Grant" ? "erin" : "minter"));
      await panel.getByRole("combobox", { name: "Role" }).click();
      await page.getByRole("option", { name: "MINTER_ROLE", exact: true }).click();
      await panel.getByRole("radio", { name: action, exact: true }).click();
      await panel.getByRole("button", { name: "Apply Role Change" }).click();
      await expectRefused(
        page,
        "Role management failed",
        `The account ${admin} does not hold DEFAULT_ADMIN_ROLE, which this action needs.`,
      );
      await expectNothingSent(page, before);
      // Read again after the refusal: the wallet holds no role now, so the role form goes away (Admin
      // Functions stays: the admin owns the Operations Safe, which holds no DEFAULT_ADMIN_ROLE).
      await page.getByRole("button", { name: "Apply Role Change" }).waitFor({ state: "detached" });
      expect(session!.errors).to.deep.equal([]);
    });
  }

  it("multiplier: a value whose supply USDX could not count, and the quick add once the oracle's role went", async () => {
    const page = await start("oracle");
    const oracle = addressOf("oracle");
    const totalShares = await usdx.totalShares();

    // 10^55: the shares in existence would be worth more than 2^256 - 1 base units.
    let before = await mark(page, oracle);
    await page.getByRole("button", { name: "Advanced Settings" }).click();
    const dialog = page.getByRole("dialog", { name: "Update Reward Multiplier" });
    await dialog.getByLabel("New Multiplier Value").fill(`1${"0".repeat(55)}`);
    // A step that big is typed again (the oracle's guard) before the dry run is asked.
    await dialog.getByLabel("Type the new multiplier again to confirm").fill(`1${"0".repeat(55)}`);
    await dialog.getByRole("button", { name: "Set Value" }).click();
    await expectRefused(
      page,
      "Update failed",
      `A reward multiplier of 1${"0".repeat(55)} is too large: the ${exactTokenAmount(totalShares)} shares in existence would be worth more than the largest amount USDX can count (2^256 - 1 base units), and balances could no longer be read.`,
    );
    await expectNothingSent(page, before);
    await dialog.getByRole("button", { name: "Cancel" }).click();

    await onChain("admin", (t) => t.revokeRole(ROLES.ORACLE_ROLE, oracle));
    before = await mark(page, oracle);
    await page.getByRole("button", { name: "Add 0.01" }).click();
    await expectRefused(page, "Increment failed", `The account ${oracle} does not hold ORACLE_ROLE, which this action needs.`);
    await expectNothingSent(page, before);
    expect(session!.errors).to.deep.equal([]);
  });

  it("batch payment: a payer paused since the batch was accepted is told before the permit is asked for", async function () {
    this.timeout(120_000);
    session = await openBrowser("alice");
    const { page } = session;
    await uploadRows(page, [
      { name: "Payee 1", address: addressOf("carol"), amount: "1.5", valid: true },
      { name: "Payee 2", address: erin, amount: "2", valid: true },
    ]);
    const erinBefore = await usdx.balanceOf(erin);
    // A first run whose permit the person refuses: the batch is accepted and waits for Try Again.
    await page.evaluate(() => (window as unknown as E2EWindow).__e2eWallet.rejectNextRequest());
    await page.getByRole("button", { name: "Pay 2 recipients" }).click();
    await page.getByText("Batch transfer failed").first().waitFor({ timeout: 30_000 });

    await onChain("pauser", (t) => t.pause());
    const before = await mark(page, alice);
    await page.getByRole("button", { name: "Try Again" }).click();
    await expectRefused(
      page,
      "Transfer failed",
      "USDX is paused: no tokens can be transferred, minted or burned until it is unpaused.",
      false,
    );
    await expectNothingSent(page, before);
    expect(await usdx.balanceOf(erin)).to.equal(erinBefore);
    expect(session.errors).to.deep.equal([]);
  });
});
