import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import { encodeBytes32String, getAddress, hexlify, MaxUint256, randomBytes, ZeroAddress } from "ethers";
import { maxRecipientsPerChunk, TRANSACTION_GAS_CAP } from "@common/gasLimits";
import { deadlineIn, fundedFixture, mult, signPermit, usd } from "./helpers/fixtures";

const REF = encodeBytes32String("job-42/chunk-0");

/** Ten fresh recipients with ten different amounts (1.01, 2.02, ... 10.10 USDX). */
function tenPayments() {
  const recipients = Array.from({ length: 10 }, () => ethers.Wallet.createRandom().address);
  const amounts = recipients.map((_, i) => usd(((i + 1) * 1.01).toFixed(2)));
  return { recipients, amounts, total: amounts.reduce((a, b) => a + b, 0n) };
}

describe("BatchPayments", () => {
  it("is bound to the token given at deployment", async () => {
    const { usdx, batch } = await loadFixture(fundedFixture);
    expect(await batch.token()).to.equal(await usdx.getAddress());
  });

  it("reverts BatchPaymentsInvalidToken when deployed without a token", async () => {
    const factory = await ethers.getContractFactory("BatchPayments");
    await expect(factory.deploy(ZeroAddress)).to.be.revertedWithCustomError(factory, "BatchPaymentsInvalidToken");
  });

  describe("pay", () => {
    it("pays each recipient its own amount straight from the payer and keeps nothing", async () => {
      const { usdx, batch, alice } = await loadFixture(fundedFixture);
      const { recipients, amounts, total } = tenPayments();
      await usdx.connect(alice).approve(await batch.getAddress(), total);
      const before = await usdx.balanceOf(alice.address);
      await batch.connect(alice).pay(recipients, amounts, REF);
      for (let i = 0; i < recipients.length; i++) expect(await usdx.balanceOf(recipients[i])).to.equal(amounts[i]);
      expect(await usdx.balanceOf(alice.address)).to.equal(before - total);
      expect(await usdx.balanceOf(await batch.getAddress())).to.equal(0n);
      expect(await usdx.sharesOf(await batch.getAddress())).to.equal(0n);
      expect(await usdx.allowance(alice.address, await batch.getAddress())).to.equal(0n);
    });

    it("emits BatchPaid with the caller's reference, and a Transfer from the payer per recipient", async () => {
      const { usdx, batch, alice } = await loadFixture(fundedFixture);
      const { recipients, amounts, total } = tenPayments();
      await usdx.connect(alice).approve(await batch.getAddress(), total);
      const tx = batch.connect(alice).pay(recipients, amounts, REF);
      await expect(tx).to.emit(batch, "BatchPaid").withArgs(REF, alice.address, 10, total);
      const receipt = await (await tx).wait();
      const transfers = receipt!.logs.map((l) => usdx.interface.parseLog(l)).filter((l) => l?.name === "Transfer");
      expect(transfers.map((t) => [t!.args.from, t!.args.to, t!.args.value])).to.deep.equal(
        recipients.map((r, i) => [alice.address, r, amounts[i]]),
      );
    });

    it("returns the total it paid", async () => {
      const { usdx, batch, alice } = await loadFixture(fundedFixture);
      const { recipients, amounts, total } = tenPayments();
      await usdx.connect(alice).approve(await batch.getAddress(), total);
      expect(await batch.connect(alice).pay.staticCall(recipients, amounts, REF)).to.equal(total);
    });

    it("pays one recipient named twice both amounts, and still works when all amounts are equal", async () => {
      const { usdx, batch, alice, carol } = await loadFixture(fundedFixture);
      await usdx.connect(alice).approve(await batch.getAddress(), MaxUint256);
      await batch.connect(alice).pay([carol.address, carol.address], [usd(1), usd(2)], REF);
      expect(await usdx.balanceOf(carol.address)).to.equal(usd(3));
      const { recipients } = tenPayments();
      await batch.connect(alice).pay(
        recipients,
        recipients.map(() => usd(5)),
        REF,
      );
      for (const r of recipients) expect(await usdx.balanceOf(r)).to.equal(usd(5));
    });

    it("pays a blocked recipient: only senders are checked", async () => {
      const { usdx, batch, alice, carol, blocklister } = await loadFixture(fundedFixture);
      await usdx.connect(blocklister).blockAccount(carol.address);
      await usdx.connect(alice).approve(await batch.getAddress(), usd(1));
      await expect(batch.connect(alice).pay([carol.address], [usd(1)], REF)).to.changeTokenBalance(usdx, carol, usd(1));
    });

    it("moves exactly the recipients' shares from the payer after a rebase", async () => {
      const { usdx, batch, alice, oracle } = await loadFixture(fundedFixture);
      await usdx.connect(oracle).setRewardMultiplier(mult("1.0123456789"));
      const { recipients, amounts, total } = tenPayments();
      await usdx.connect(alice).approve(await batch.getAddress(), total);
      const sharesBefore = await usdx.sharesOf(alice.address);
      await batch.connect(alice).pay(recipients, amounts, REF);
      const received = await Promise.all(recipients.map((r) => usdx.sharesOf(r)));
      expect(sharesBefore - (await usdx.sharesOf(alice.address))).to.equal(received.reduce((a, b) => a + b, 0n));
      for (let i = 0; i < recipients.length; i++) expect(received[i]).to.equal(await usdx.convertToShares(amounts[i]));
    });
  });

  describe("pay: refusals (the whole chunk reverts, nothing moves)", () => {
    it("reverts BatchPaymentsEmpty for an empty list", async () => {
      const { batch, alice } = await loadFixture(fundedFixture);
      await expect(batch.connect(alice).pay([], [], REF)).to.be.revertedWithCustomError(batch, "BatchPaymentsEmpty");
    });

    it("reverts BatchPaymentsLengthMismatch with both lengths", async () => {
      const { batch, alice, bob } = await loadFixture(fundedFixture);
      await expect(batch.connect(alice).pay([bob.address, bob.address], [usd(1)], REF))
        .to.be.revertedWithCustomError(batch, "BatchPaymentsLengthMismatch")
        .withArgs(2, 1);
    });

    it("reverts BatchPaymentsZeroAddress with the index of the zero address", async () => {
      const { usdx, batch, alice, bob } = await loadFixture(fundedFixture);
      await usdx.connect(alice).approve(await batch.getAddress(), usd(3));
      await expect(batch.connect(alice).pay([bob.address, ZeroAddress], [usd(1), usd(2)], REF))
        .to.be.revertedWithCustomError(batch, "BatchPaymentsZeroAddress")
        .withArgs(1);
      expect(await usdx.balanceOf(bob.address)).to.equal(usd(500));
    });

    it("reverts BatchPaymentsZeroAmount with the index of the zero amount", async () => {
      const { usdx, batch, alice, bob, carol } = await loadFixture(fundedFixture);
      await usdx.connect(alice).approve(await batch.getAddress(), usd(3));
      await expect(batch.connect(alice).pay([bob.address, carol.address], [usd(1), 0], REF))
        .to.be.revertedWithCustomError(batch, "BatchPaymentsZeroAmount")
        .withArgs(1);
    });

    it("reverts USDXPausedTransfers while the token is paused", async () => {
      const { usdx, batch, alice, bob, pauser } = await loadFixture(fundedFixture);
      await usdx.connect(alice).approve(await batch.getAddress(), usd(1));
      await usdx.connect(pauser).pause();
      await expect(batch.connect(alice).pay([bob.address], [usd(1)], REF)).to.be.revertedWithCustomError(usdx, "USDXPausedTransfers");
    });

    it("reverts USDXBlockedSender when the payer is blocked", async () => {
      const { usdx, batch, alice, bob, blocklister } = await loadFixture(fundedFixture);
      await usdx.connect(alice).approve(await batch.getAddress(), usd(1));
      await usdx.connect(blocklister).blockAccount(alice.address);
      await expect(batch.connect(alice).pay([bob.address], [usd(1)], REF))
        .to.be.revertedWithCustomError(usdx, "USDXBlockedSender")
        .withArgs(alice.address);
    });

    it("reverts ERC20InsufficientBalance when the payer cannot cover the chunk, leaving earlier rows unpaid", async () => {
      const { usdx, batch, alice, bob, carol } = await loadFixture(fundedFixture);
      await usdx.connect(alice).approve(await batch.getAddress(), MaxUint256);
      await expect(batch.connect(alice).pay([carol.address, bob.address], [usd(600), usd(600)], REF))
        .to.be.revertedWithCustomError(usdx, "ERC20InsufficientBalance")
        .withArgs(alice.address, usd(400), usd(600));
      expect(await usdx.balanceOf(carol.address)).to.equal(0n);
      expect(await usdx.balanceOf(alice.address)).to.equal(usd(1000));
    });

    it("reverts ERC20InsufficientAllowance when the allowance does not cover the chunk", async () => {
      const { usdx, batch, alice, bob, carol } = await loadFixture(fundedFixture);
      const spender = await batch.getAddress();
      await usdx.connect(alice).approve(spender, usd(5));
      await expect(batch.connect(alice).pay([carol.address, bob.address], [usd(3), usd(3)], REF))
        .to.be.revertedWithCustomError(usdx, "ERC20InsufficientAllowance")
        .withArgs(spender, usd(2), usd(3));
    });

    it("reverts BatchPaymentsTransferFailed when a token returns false instead of reverting", async () => {
      const { alice, bob } = await loadFixture(fundedFixture);
      const token = await (await ethers.getContractFactory("FalseReturningToken")).deploy();
      const batch = await (await ethers.getContractFactory("BatchPayments")).deploy(await token.getAddress());
      await expect(batch.connect(alice).pay([bob.address], [1], REF))
        .to.be.revertedWithCustomError(batch, "BatchPaymentsTransferFailed")
        .withArgs(0);
    });
  });

  describe("payWithPermit", () => {
    it("pays the first chunk with one signature for the whole job, then later chunks on the same allowance", async () => {
      const { usdx, batch, alice } = await loadFixture(fundedFixture);
      const spender = await batch.getAddress();
      const chunk1 = tenPayments();
      const chunk2 = tenPayments();
      const jobTotal = chunk1.total + chunk2.total;
      const deadline = await deadlineIn(3600);
      const sig = await signPermit(usdx, alice, spender, jobTotal, deadline);

      await expect(batch.connect(alice).payWithPermit(chunk1.recipients, chunk1.amounts, REF, jobTotal, deadline, sig.v, sig.r, sig.s))
        .to.emit(batch, "BatchPaid")
        .withArgs(REF, alice.address, 10, chunk1.total);
      expect(await usdx.allowance(alice.address, spender)).to.equal(chunk2.total);
      const ref2 = encodeBytes32String("job-42/chunk-1");
      await batch.connect(alice).pay(chunk2.recipients, chunk2.amounts, ref2);
      for (const c of [chunk1, chunk2]) {
        for (let i = 0; i < 10; i++) expect(await usdx.balanceOf(c.recipients[i])).to.equal(c.amounts[i]);
      }
      expect(await usdx.balanceOf(alice.address)).to.equal(usd(1000) - jobTotal);
      expect(await usdx.allowance(alice.address, spender)).to.equal(0n);
      expect(await usdx.nonces(alice.address)).to.equal(1n);
    });

    it("still pays when someone relayed the permit first (the allowance is already there)", async () => {
      const { usdx, batch, alice, stranger } = await loadFixture(fundedFixture);
      const spender = await batch.getAddress();
      const { recipients, amounts, total } = tenPayments();
      const deadline = await deadlineIn(3600);
      const sig = await signPermit(usdx, alice, spender, total, deadline);
      await usdx.connect(stranger).permit(alice.address, spender, total, deadline, sig.v, sig.r, sig.s);
      await batch.connect(alice).payWithPermit(recipients, amounts, REF, total, deadline, sig.v, sig.r, sig.s);
      expect(await usdx.balanceOf(recipients[9])).to.equal(amounts[9]);
    });

    it("raises the token's ERC2612ExpiredDeadline when the permit expired and no allowance is in place", async () => {
      const { usdx, batch, alice, bob } = await loadFixture(fundedFixture);
      const deadline = await deadlineIn(-10);
      const sig = await signPermit(usdx, alice, await batch.getAddress(), usd(1), deadline);
      await expect(
        batch.connect(alice).payWithPermit([bob.address], [usd(1)], REF, usd(1), deadline, sig.v, sig.r, sig.s),
      ).to.be.revertedWithCustomError(usdx, "ERC2612ExpiredDeadline");
    });

    it("raises ERC2612InvalidSignature when another account signed", async () => {
      const { usdx, batch, alice, bob, carol } = await loadFixture(fundedFixture);
      const deadline = await deadlineIn(3600);
      const sig = await signPermit(usdx, carol, await batch.getAddress(), usd(1), deadline, 0n);
      await expect(batch.connect(alice).payWithPermit([bob.address], [usd(1)], REF, usd(1), deadline, sig.v, sig.r, sig.s))
        .to.be.revertedWithCustomError(usdx, "ERC2612InvalidSignature")
        .withArgs(alice.address, await batch.getAddress());
    });

    it("cannot spend a permit signed by someone else: the payer is always the caller", async () => {
      const { usdx, batch, alice, stranger } = await loadFixture(fundedFixture);
      const deadline = await deadlineIn(3600);
      const sig = await signPermit(usdx, alice, await batch.getAddress(), usd(100), deadline);
      await expect(
        batch.connect(stranger).payWithPermit([stranger.address], [usd(100)], REF, usd(100), deadline, sig.v, sig.r, sig.s),
      ).to.be.revertedWithCustomError(usdx, "ERC2612InvalidSignature");
      expect(await usdx.balanceOf(alice.address)).to.equal(usd(1000));
    });
  });
  describe("chunk size", () => {
    it("[gas] the server's largest chunk of new recipients, with its permit, stays under the per-transaction gas cap", async () => {
      const { usdx, batch, alice } = await loadFixture(fundedFixture);
      const n = maxRecipientsPerChunk();
      const recipients = Array.from({ length: n }, () => getAddress(hexlify(randomBytes(20))));
      // Odd amounts, so no storage slot is cheaper than a real payroll's would be.
      const amounts = recipients.map((_, i) => usd("1") + BigInt(i) * 1_000_003n);
      const total = amounts.reduce((a, b) => a + b, 0n);
      const deadline = await deadlineIn(3600);
      const sig = await signPermit(usdx, alice, await batch.getAddress(), total, deadline);
      const tx = await batch
        .connect(alice)
        .payWithPermit(recipients, amounts, REF, total, deadline, sig.v, sig.r, sig.s, { gasLimit: TRANSACTION_GAS_CAP });
      const receipt = await tx.wait();
      expect(receipt!.status).to.equal(1);
      expect(receipt!.gasUsed).to.be.below(BigInt(TRANSACTION_GAS_CAP));
      expect(await usdx.balanceOf(recipients[n - 1])).to.equal(amounts[n - 1]);
    });
  });
});
