import { expect } from "chai";
import { Contract, JsonRpcProvider } from "ethers";
import type { Page } from "playwright-core";
import { parseTokenAmount } from "@common/amounts";
import { SAFE_INTERFACE } from "@common/safe";
import {
  addressOf,
  chainToken,
  connectWallet,
  expectToast,
  forgetSafeProposals,
  isolateEachTest,
  navigate,
  openBrowser,
  type Session,
  signUp,
  switchAccount,
} from "./browser";
import { e2e } from "./hooks";

/**
 * Roles held by a Safe (issue 28), in two browsers as two owners of the seeded Operations Safe
 * (2 of admin, minter, approver): the approver, who holds no role itself, proposes a mint from the
 * Dashboard's form; the admin approves and executes it on Approvals; the chain and History show it.
 */

const SAFE_NAME = "Operations Safe";

async function operationsSafe(): Promise<{ address: string; safe: Contract; provider: JsonRpcProvider }> {
  const provider = new JsonRpcProvider(e2e().stack.rpcUrl, undefined, { staticNetwork: true });
  // The seed names the Safe in the manifest; the chain says who holds MINTER_ROLE.
  const usdx = (await chainToken()).token;
  const minters: string[] = [];
  for (const log of await usdx.queryFilter(usdx.filters.RoleGranted(await usdx.MINTER_ROLE()))) minters.push(log.args.account);
  for (const candidate of minters) {
    if ((await provider.getCode(candidate)) === "0x") continue;
    return { address: candidate, safe: new Contract(candidate, SAFE_INTERFACE, provider), provider };
  }
  throw new Error("No Safe holds MINTER_ROLE on the test chain: the seed creates the Operations Safe.");
}

describe("Roles held by a Safe (browser)", function () {
  this.timeout(120_000);
  const sessions: Session[] = [];
  let current: Session | undefined;
  isolateEachTest(() => current);
  beforeEach(forgetSafeProposals);
  afterEach(async () => {
    // isolateEachTest closes the last session; the other owner's browser closes here.
    for (const s of sessions.splice(0)) if (s !== current) await s.context.close().catch(() => undefined);
  });

  async function owner(name: string, route: string): Promise<Page> {
    const session = await openBrowser(name);
    sessions.push(session);
    current = session;
    await signUp(session.page);
    await connectWallet(session.page);
    if (route !== "/") await navigate(session.page, route);
    return session.page;
  }

  it("the approver proposes 'mint 250 USDX to alice'; the admin approves and executes it; alice holds 250 more and History shows the mint", async () => {
    const { token } = await chainToken();
    const { safe, provider } = await operationsSafe();
    const alice = addressOf("alice");
    const before = await token.balanceOf(alice);
    const nonceBefore = (await safe.nonce()) as bigint;

    // 1. The approver holds no role: the Dashboard's form proposes to the Safe instead of sending.
    const proposer = await owner("approver", "/");
    await proposer.getByRole("tab", { name: "Token Operations" }).click();
    await proposer.getByLabel("Recipient Address").fill(alice);
    await proposer.getByLabel("Amount", { exact: true }).fill("250");
    await proposer
      .getByRole("button", { name: `Propose to ${SAFE_NAME}` })
      .first()
      .click();
    expect(await expectToast(proposer, `Proposed to ${SAFE_NAME}`)).to.match(/Awaiting 1 more approval/);
    expect(await token.balanceOf(alice)).to.equal(before);

    // 2. The admin, another owner, sees it in words with 1 of 2 approvals, approves, then executes.
    const approver = await owner("admin", "/approvals");
    const proposal = approver.getByRole("listitem", { name: "Mint 250.00 USDX to 0x14dC...9955" });
    await proposal.waitFor({ timeout: 20_000 });
    await proposal.getByText("1 of 2").waitFor();
    await proposal.getByRole("button", { name: "Approve" }).click();
    await proposal.getByText("2 of 2").waitFor({ timeout: 20_000 });
    await proposal.getByRole("button", { name: "Execute" }).click();
    const modal = approver.getByRole("dialog", { name: "Transaction confirmed" });
    await modal.waitFor({ timeout: 30_000 });
    await modal.getByRole("button", { name: "Close" }).first().click();

    // 3. The chain: the Safe used one nonce and minted (a mint buys shares: a wei or two may round away).
    expect(await safe.nonce()).to.equal(nonceBefore + 1n);
    const gained = (await token.balanceOf(alice)) - before;
    const amount = parseTokenAmount("250");
    expect(gained <= amount && gained >= amount - 2n, `alice gained ${gained}`).to.equal(true);
    const [executed] = await safe.queryFilter(safe.filters.ExecutionSuccess());
    expect(executed, "an ExecutionSuccess of the Safe").to.not.equal(undefined);
    const hash = executed.transactionHash;
    provider.destroy();

    // 4. Approvals lists it as executed; alice's History shows the mint, by the execution's transaction.
    const ended = approver.getByRole("list", { name: "Ended proposals" }).getByRole("listitem").filter({ hasText: "Mint 250.00 USDX" });
    await ended.getByText("Executed").waitFor({ timeout: 20_000 });
    await ended.getByRole("link", { name: `Transaction ${hash}` }).waitFor({ timeout: 20_000 });
    await switchAccount(proposer, "alice");
    await navigate(proposer, "/transactions");
    await proposer
      .getByRole("tabpanel")
      .locator(`table:visible a[aria-label="Transaction ${hash}"], table:visible a[aria-label="Transaction ${hash.toLowerCase()}"]`)
      .first()
      .waitFor({ timeout: 20_000 });
    for (const s of sessions) expect(s.errors, "console errors").to.deep.equal([]);
  });

  it("the approver proposes a multiplier of 1.02 and a pause; the admin approves both and executes them in nonce order; the chain holds both", async () => {
    const { token } = await chainToken();
    const { safe, provider } = await operationsSafe();
    const nonce = (await safe.nonce()) as bigint;

    const proposer = await owner("approver", "/");
    await proposer.getByRole("button", { name: "Advanced Settings" }).click();
    const dialog = proposer.getByRole("dialog", { name: "Update Reward Multiplier" });
    await dialog.getByLabel("New Multiplier Value").fill("1.02");
    await dialog.getByRole("button", { name: `Propose to ${SAFE_NAME}` }).click();
    await expectToast(proposer, `Proposed to ${SAFE_NAME}`);
    await proposer.keyboard.press("Escape");
    await proposer.getByRole("tab", { name: "Security" }).click();
    await proposer.getByRole("button", { name: "Propose Pause" }).click();
    await expectToast(proposer, `Proposed to ${SAFE_NAME}`);
    expect(await token.paused()).to.equal(false);

    const approver = await owner("admin", "/approvals");
    const multiplier = approver.getByRole("listitem", { name: /^Set the reward multiplier to 1\.0200x/ });
    const pause = approver.getByRole("listitem", { name: "Pause USDX: stop all transfers, mints and burns" });
    await multiplier.getByText(`Nonce ${nonce}`).waitFor({ timeout: 20_000 });
    await pause.getByText(`Nonce ${nonce + 1n}`).waitFor();
    for (const proposal of [multiplier, pause]) {
      await proposal.getByRole("button", { name: "Approve" }).click();
      await proposal.getByText("2 of 2").waitFor({ timeout: 20_000 });
    }
    // A Safe runs its transactions in nonce order: the pause waits for the multiplier.
    expect(await pause.getByRole("button", { name: "Execute" }).isDisabled()).to.equal(true);
    for (const proposal of [multiplier, pause]) {
      await proposal.getByRole("button", { name: "Execute" }).click();
      const modal = approver.getByRole("dialog", { name: "Transaction confirmed" });
      await modal.waitFor({ timeout: 30_000 });
      await modal.getByRole("button", { name: "Close" }).first().click();
      await modal.waitFor({ state: "hidden" });
    }
    expect(await token.rewardMultiplier()).to.equal(parseTokenAmount("1.02"));
    expect(await token.paused()).to.equal(true);
    expect(await safe.nonce()).to.equal(nonce + 2n);
    provider.destroy();
    for (const s of sessions) expect(s.errors, "console errors").to.deep.equal([]);
  });
});
