import { expect } from "chai";
import { JsonRpcProvider } from "ethers";
import type { Locator, Page } from "playwright-core";
import { formatTokenAmount, parseTokenAmount } from "@common/amounts";
import { USDX__factory } from "@bindings/factories/contracts/USDX__factory";
import type { USDX } from "@bindings";
import { addressOf, connectWallet, expectToast, fillTransfer, isolateEachTest, openBrowser, type Session, signUp } from "./browser";
import { e2e } from "./hooks";

/** The token as the chain holds it, read through the stack's node (not the page). */
async function chainToken(): Promise<USDX> {
  const config = await fetch(`${e2e().server.url}/api/config`).then((r) => r.json() as Promise<{ contracts: { proxy: string } }>);
  return USDX__factory.connect(config.contracts.proxy, new JsonRpcProvider(e2e().stack.rpcUrl, undefined, { staticNetwork: true }));
}

/** The cards' thousands separators (frontend/src/lib/format.ts groupDigits). */
function grouped(decimal: string): string {
  const [whole, fraction] = decimal.split(".");
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}${fraction !== undefined ? `.${fraction}` : ""}`;
}
const shown = (value: bigint, places = 2) => grouped(formatTokenAmount(value, places));

/** Waits (up to 10 s) until the element's normalised text equals `expected`; fails showing the last text. */
async function expectText(locator: Locator, expected: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  let last: string;
  for (;;) {
    last = ((await locator.textContent({ timeout: 10_000 })) ?? "").replace(/\s+/g, " ").trim();
    if (last === expected || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(last).to.equal(expected);
}

const txModal = (page: Page, title: string) => page.getByRole("dialog", { name: title });

describe("Dashboard (browser)", function () {
  this.timeout(90_000);
  let session: Session;
  let usdx: USDX;

  before(async () => {
    usdx = await chainToken();
  });
  isolateEachTest(() => session);

  async function start(account: string): Promise<Page> {
    session = await openBrowser(account);
    await signUp(session.page);
    await connectWallet(session.page);
    return session.page;
  }

  it("shows alice's balance, shares, total supply and multiplier as the chain holds them", async () => {
    const page = await start("alice");
    const alice = addressOf("alice");
    const [balance, shares, supply, totalShares, multiplier] = await Promise.all([
      usdx.balanceOf(alice),
      usdx.sharesOf(alice),
      usdx.totalSupply(),
      usdx.totalShares(),
      usdx.rewardMultiplier(),
    ]);
    // Seeded figures: alice holds about 10k USDX and the multiplier is above 1.
    expect(balance > parseTokenAmount("9000")).to.equal(true);

    await expectText(page.getByTestId("balance"), `${shown(balance)} USDX`);
    await expectText(page.getByTestId("shares"), `${shown(shares)} shares × multiplier ${formatTokenAmount(multiplier, 4)}`);
    await expectText(page.getByTestId("total-supply"), `${shown(supply)} USDX`);
    await expectText(page.getByTestId("total-shares"), shown(totalShares));
    await expectText(page.getByTestId("reward-multiplier"), `${formatTokenAmount(multiplier, 4)}x`);
    expect(session.errors).to.deep.equal([]);
  });

  it("transfers 12.5 USDX from alice to bob: 'Transfer successful', both balances move on chain", async () => {
    const page = await start("alice");
    const alice = addressOf("alice");
    const bob = addressOf("bob");
    const amount = parseTokenAmount("12.5");
    const [aliceBefore, bobBefore] = await Promise.all([usdx.balanceOf(alice), usdx.balanceOf(bob)]);

    const dialog = await fillTransfer(page, bob, "12.5");
    expect(await expectToast(page, "Transfer successful")).to.contain(`12.5 USDX transferred to ${bob}`);
    await txModal(page, "Transaction confirmed").waitFor();
    await txModal(page, "Transaction confirmed").getByRole("button", { name: "Close" }).first().click();
    await dialog.waitFor({ state: "hidden" });

    const [aliceAfter, bobAfter] = await Promise.all([usdx.balanceOf(alice), usdx.balanceOf(bob)]);
    // Balances are shares x multiplier: the sender loses at least the amount, the receiver gains it
    // less at most 2 wei of rounding.
    expect(
      aliceBefore - aliceAfter >= amount && aliceBefore - aliceAfter <= amount + 2n,
      `alice lost ${aliceBefore - aliceAfter}`,
    ).to.equal(true);
    expect(bobAfter - bobBefore <= amount && bobAfter - bobBefore >= amount - 2n, `bob gained ${bobAfter - bobBefore}`).to.equal(true);
    // The card follows the chain.
    await expectText(page.getByTestId("balance"), `${shown(aliceAfter)} USDX`);
    expect(session.errors).to.deep.equal([]);
  });

  it("refuses an invalid recipient with 'Invalid address' and sends nothing", async () => {
    const page = await start("alice");
    const alice = addressOf("alice");
    const before = await usdx.balanceOf(alice);
    const block = await usdx.runner!.provider!.getBlockNumber();

    const dialog = await fillTransfer(page, "0x1234", "1");
    expect(await expectToast(page, "Invalid address")).to.contain("Please enter a valid Ethereum address");
    await dialog.getByText("Please enter a valid Ethereum address").waitFor();
    expect(await dialog.getByLabel("Recipient Address").getAttribute("aria-invalid")).to.equal("true");

    expect(await usdx.balanceOf(alice)).to.equal(before);
    expect(await usdx.runner!.provider!.getBlockNumber()).to.equal(block);
  });

  it("refuses an amount above the balance with 'Insufficient balance' and sends nothing", async () => {
    const page = await start("alice");
    const alice = addressOf("alice");
    const before = await usdx.balanceOf(alice);
    const block = await usdx.runner!.provider!.getBlockNumber();

    const dialog = await fillTransfer(page, addressOf("bob"), "1000000");
    expect(await expectToast(page, "Insufficient balance")).to.contain(`You only have ${shown(before)} USDX available`);
    await dialog.getByText(`You only have ${shown(before)} USDX available`).waitFor();

    expect(await usdx.balanceOf(alice)).to.equal(before);
    expect(await usdx.runner!.provider!.getBlockNumber()).to.equal(block);
  });

  it("a blocked sender (dave) sees the contract's reason, 'is blocked', and nothing moves", async () => {
    const page = await start("dave");
    const dave = addressOf("dave");
    const bob = addressOf("bob");
    expect(await usdx.isBlocked(dave)).to.equal(true);
    const [daveBefore, bobBefore] = await Promise.all([usdx.balanceOf(dave), usdx.balanceOf(bob)]);

    await fillTransfer(page, bob, "1");
    const toast = await expectToast(page, "Transfer failed");
    expect(toast).to.contain(`The account ${dave} is blocked`);
    // Refused by the dry run: nothing was sent, and the modal says so.
    expect(toast).to.contain("Nothing was sent: your wallet was not asked to sign.");
    const modal = txModal(page, "Transaction not sent");
    await modal.waitFor();
    expect(await modal.getByRole("alert").textContent()).to.contain("is blocked");
    await modal.getByRole("button", { name: "Close" }).first().click();
    await modal.waitFor({ state: "hidden" });

    expect(await usdx.balanceOf(dave)).to.equal(daveBefore);
    expect(await usdx.balanceOf(bob)).to.equal(bobBefore);
  });

  it("a transfer rejected in the wallet says 'You rejected the request in your wallet.' and nothing moves", async () => {
    const page = await start("alice");
    const alice = addressOf("alice");
    const bob = addressOf("bob");
    const [aliceBefore, bobBefore] = await Promise.all([usdx.balanceOf(alice), usdx.balanceOf(bob)]);
    const block = await usdx.runner!.provider!.getBlockNumber();

    await page.evaluate(() => (window as unknown as { __e2eWallet: { rejectNextRequest(): void } }).__e2eWallet.rejectNextRequest());
    const dialog = await fillTransfer(page, bob, "1");
    expect(await expectToast(page, "Transfer failed")).to.contain("You rejected the request in your wallet.");
    const modal = txModal(page, "Transaction failed");
    await modal.waitFor();
    expect(await modal.getByRole("alert").textContent()).to.equal("You rejected the request in your wallet.");
    await modal.getByRole("button", { name: "Close" }).first().click();
    // The transfer dialog stays open with what was typed, so the user may try again.
    expect(await dialog.getByLabel("Recipient Address").inputValue()).to.equal(bob);

    expect(await usdx.balanceOf(alice)).to.equal(aliceBefore);
    expect(await usdx.balanceOf(bob)).to.equal(bobBefore);
    expect(await usdx.runner!.provider!.getBlockNumber()).to.equal(block);
  });
});
