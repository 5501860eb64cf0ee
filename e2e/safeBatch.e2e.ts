/**
 * A Safe pays a batch (issue 28 section 4), in two browsers as two owners of the Operations Safe
 * (2 of admin, minter and approver): the minter pays a 3-row CSV from the Safe on Payments, which
 * proposes its one chunk; the approver approves and executes it on Approvals. Each recipient's
 * balance rises by exactly its amount, once, and the minter's Payments screen shows the job completed.
 */
import { expect } from "chai";
import { Wallet, parseUnits } from "ethers";
import {
  chainToken,
  connectWallet,
  forgetSafeProposals,
  isolateEachTest,
  navigate,
  openBrowser,
  signUp,
  type Row,
  type Session,
  uploadRows,
} from "./browser";

describe("A Safe pays a batch (browser)", () => {
  let minter: Session;
  let approver: Session | null = null;
  isolateEachTest(() => minter);
  beforeEach(async () => {
    await forgetSafeProposals();
    minter = await openBrowser("minter");
  });
  afterEach(async () => {
    await approver?.context.close();
    approver = null;
  });

  it("a 3-row CSV paid from the Operations Safe: proposed by one owner, approved and executed by another, each recipient paid once", async function () {
    this.timeout(240_000);
    const { token, provider } = await chainToken();
    const rows: Row[] = ["1.25", "2.5", "3.75"].map((amount, i) => ({
      name: `Payee ${i + 1}`,
      address: Wallet.createRandom().address,
      amount,
      valid: true,
    }));
    for (const r of rows) expect(await token.balanceOf(r.address)).to.equal(0n);

    // The minter, an owner, pays from the Safe: one signature for the chunk's proposal.
    const { page } = minter;
    await uploadRows(page, rows);
    const payFrom = page.getByRole("group", { name: "Pay from" });
    await payFrom.getByRole("radio", { name: /^Operations Safe/ }).click();
    await page.getByRole("button", { name: "Pay 3 recipients" }).click();
    await page.getByText("Proposed to Operations Safe: 1 chunk awaits approval").waitFor({ timeout: 60_000 });
    await page.getByRole("list", { name: "Transactions" }).getByText("Awaiting approval").waitFor();

    // The approver, another owner, approves and executes it on Approvals.
    approver = await openBrowser("approver");
    const other = approver.page;
    await signUp(other);
    await connectWallet(other);
    await navigate(other, "/approvals");
    const proposal = other.getByRole("listitem").filter({ hasText: "Pay 3 recipients 7.50 USDX (a batch chunk)" });
    await proposal.waitFor({ timeout: 30_000 });
    await proposal.getByRole("button", { name: "Approve" }).click();
    await proposal.getByText("2 of 2").waitFor({ timeout: 30_000 });
    await proposal.getByRole("button", { name: "Execute" }).click();
    await other.getByText("Pay 3 recipients 7.50 USDX (a batch chunk)").first().waitFor();

    // The minter's screen follows the job to its end.
    await page.getByText("Batch transfer completed").first().waitFor({ timeout: 120_000 });
    for (const r of rows) {
      const received = await token.queryFilter(token.filters.Transfer(undefined, r.address));
      expect(
        received.map((e) => e.args.value),
        r.name,
      ).to.deep.equal([parseUnits(r.amount, 18)]);
    }
    provider.destroy();
    expect(minter.errors).to.deep.equal([]);
    expect(approver.errors).to.deep.equal([]);
  });
});
