import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import { ZeroAddress } from "ethers";
import { MIN_REWARD_MULTIPLIER, MULTIPLIER_QUICK_ADD, multiplierRefusal, type MultiplierOperation } from "@common/token";
import { deadlineIn, fundedFixture, mult, ONE, signPermit, usd } from "./helpers/fixtures";

describe("USDX: mint", () => {
  it("creates tokens and shares for the receiver and emits Transfer from the zero address", async () => {
    const { usdx, minter, carol } = await loadFixture(fundedFixture);
    const supply = await usdx.totalSupply();
    await expect(usdx.connect(minter).mint(carol.address, usd(25)))
      .to.emit(usdx, "Transfer")
      .withArgs(ZeroAddress, carol.address, usd(25));
    expect(await usdx.balanceOf(carol.address)).to.equal(usd(25));
    expect(await usdx.totalSupply()).to.equal(supply + usd(25));
  });

  it("reverts USDXInvalidMintReceiver for the zero address", async () => {
    const { usdx, minter } = await loadFixture(fundedFixture);
    await expect(usdx.connect(minter).mint(ZeroAddress, 1))
      .to.be.revertedWithCustomError(usdx, "USDXInvalidMintReceiver")
      .withArgs(ZeroAddress);
  });

  it("mints to a blocked account: receivers are not checked", async () => {
    const { usdx, minter, blocklister, carol } = await loadFixture(fundedFixture);
    await usdx.connect(blocklister).blockAccount(carol.address);
    await expect(usdx.connect(minter).mint(carol.address, usd(1))).to.changeTokenBalance(usdx, carol, usd(1));
  });
});

describe("USDX: burn", () => {
  it("destroys tokens and shares of the holder and emits Transfer to the zero address", async () => {
    const { usdx, burner, alice } = await loadFixture(fundedFixture);
    const [supply, shares] = [await usdx.totalSupply(), await usdx.totalShares()];
    await expect(usdx.connect(burner).burn(alice.address, usd(300)))
      .to.emit(usdx, "Transfer")
      .withArgs(alice.address, ZeroAddress, usd(300));
    expect(await usdx.balanceOf(alice.address)).to.equal(usd(700));
    expect(await usdx.totalSupply()).to.equal(supply - usd(300));
    expect(await usdx.totalShares()).to.equal(shares - usd(300));
  });

  it("reverts USDXInvalidBurnSender for the zero address", async () => {
    const { usdx, burner } = await loadFixture(fundedFixture);
    await expect(usdx.connect(burner).burn(ZeroAddress, 1))
      .to.be.revertedWithCustomError(usdx, "USDXInvalidBurnSender")
      .withArgs(ZeroAddress);
  });

  it("reverts USDXInsufficientBurnBalance with the balance and the amount, in tokens", async () => {
    const { usdx, burner, oracle, bob } = await loadFixture(fundedFixture);
    await usdx.connect(oracle).setRewardMultiplier(mult("1.2"));
    await expect(usdx.connect(burner).burn(bob.address, usd(601)))
      .to.be.revertedWithCustomError(usdx, "USDXInsufficientBurnBalance")
      .withArgs(bob.address, usd(600), usd(601));
  });
});

describe("USDX: blocklist", () => {
  it("blocks and unblocks one account, with events and isBlocked", async () => {
    const { usdx, blocklister, carol } = await loadFixture(fundedFixture);
    await expect(usdx.connect(blocklister).blockAccount(carol.address)).to.emit(usdx, "AccountBlocked").withArgs(carol.address);
    expect(await usdx.isBlocked(carol.address)).to.equal(true);
    await expect(usdx.connect(blocklister).unblockAccount(carol.address)).to.emit(usdx, "AccountUnblocked").withArgs(carol.address);
    expect(await usdx.isBlocked(carol.address)).to.equal(false);
  });

  it("blocks and unblocks a list of accounts in one call", async () => {
    const { usdx, blocklister, alice, bob, carol } = await loadFixture(fundedFixture);
    const list = [alice.address, bob.address, carol.address];
    const tx = usdx.connect(blocklister).blockAccounts(list);
    for (const a of list) await expect(tx).to.emit(usdx, "AccountBlocked").withArgs(a);
    for (const a of list) expect(await usdx.isBlocked(a)).to.equal(true);
    await usdx.connect(blocklister).unblockAccounts(list);
    for (const a of list) expect(await usdx.isBlocked(a)).to.equal(false);
  });

  it("reverts USDXInvalidBlockedAccount when blocking a blocked account or unblocking an unblocked one", async () => {
    const { usdx, blocklister, alice, bob } = await loadFixture(fundedFixture);
    await expect(usdx.connect(blocklister).unblockAccount(alice.address))
      .to.be.revertedWithCustomError(usdx, "USDXInvalidBlockedAccount")
      .withArgs(alice.address);
    await usdx.connect(blocklister).blockAccount(alice.address);
    await expect(usdx.connect(blocklister).blockAccount(alice.address))
      .to.be.revertedWithCustomError(usdx, "USDXInvalidBlockedAccount")
      .withArgs(alice.address);
    await expect(usdx.connect(blocklister).blockAccounts([bob.address, alice.address]))
      .to.be.revertedWithCustomError(usdx, "USDXInvalidBlockedAccount")
      .withArgs(alice.address);
    await expect(usdx.connect(blocklister).unblockAccounts([alice.address, bob.address]))
      .to.be.revertedWithCustomError(usdx, "USDXInvalidBlockedAccount")
      .withArgs(bob.address);
  });

  it("reverts a list that names an account twice, blocking none of it", async () => {
    const { usdx, blocklister, alice, bob } = await loadFixture(fundedFixture);
    await expect(usdx.connect(blocklister).blockAccounts([alice.address, bob.address, bob.address]))
      .to.be.revertedWithCustomError(usdx, "USDXInvalidBlockedAccount")
      .withArgs(bob.address);
    expect(await usdx.isBlocked(alice.address)).to.equal(false);
  });
});

describe("USDX: pause", () => {
  it("pauses and unpauses with Paused and Unpaused events", async () => {
    const { usdx, pauser } = await loadFixture(fundedFixture);
    await expect(usdx.connect(pauser).pause()).to.emit(usdx, "Paused").withArgs(pauser.address);
    expect(await usdx.paused()).to.equal(true);
    await expect(usdx.connect(pauser).unpause()).to.emit(usdx, "Unpaused").withArgs(pauser.address);
    expect(await usdx.paused()).to.equal(false);
  });

  it("reverts EnforcedPause when pausing twice and ExpectedPause when unpausing an active token", async () => {
    const { usdx, pauser } = await loadFixture(fundedFixture);
    await expect(usdx.connect(pauser).unpause()).to.be.revertedWithCustomError(usdx, "ExpectedPause");
    await usdx.connect(pauser).pause();
    await expect(usdx.connect(pauser).pause()).to.be.revertedWithCustomError(usdx, "EnforcedPause");
  });
});

describe("USDX: reward multiplier", () => {
  it("sets the multiplier and emits RewardMultiplier", async () => {
    const { usdx, oracle } = await loadFixture(fundedFixture);
    await expect(usdx.connect(oracle).setRewardMultiplier(mult("1.0001")))
      .to.emit(usdx, "RewardMultiplier")
      .withArgs(mult("1.0001"));
    expect(await usdx.rewardMultiplier()).to.equal(mult("1.0001"));
  });

  it("adds to the multiplier (the dashboard's 'Add 0.01')", async () => {
    const { usdx, oracle } = await loadFixture(fundedFixture);
    await expect(usdx.connect(oracle).addRewardMultiplier(mult("0.01")))
      .to.emit(usdx, "RewardMultiplier")
      .withArgs(mult("1.01"));
    expect(await usdx.rewardMultiplier()).to.equal(mult("1.01"));
  });

  it("allows setting exactly 1.0 and lowering back to it", async () => {
    const { usdx, oracle } = await loadFixture(fundedFixture);
    await usdx.connect(oracle).setRewardMultiplier(mult("1.5"));
    await usdx.connect(oracle).setRewardMultiplier(ONE);
    expect(await usdx.rewardMultiplier()).to.equal(ONE);
  });

  it("reverts USDXInvalidRewardMultiplier below 1.0 and for an increment of 0", async () => {
    const { usdx, oracle } = await loadFixture(fundedFixture);
    await expect(usdx.connect(oracle).setRewardMultiplier(ONE - 1n))
      .to.be.revertedWithCustomError(usdx, "USDXInvalidRewardMultiplier")
      .withArgs(ONE - 1n);
    await expect(usdx.connect(oracle).setRewardMultiplier(0))
      .to.be.revertedWithCustomError(usdx, "USDXInvalidRewardMultiplier")
      .withArgs(0);
    await expect(usdx.connect(oracle).addRewardMultiplier(0))
      .to.be.revertedWithCustomError(usdx, "USDXInvalidRewardMultiplier")
      .withArgs(0);
  });

  it("refuses exactly what common/token.ts's multiplierRefusal says it refuses (the dashboard and the server read the rule there)", async () => {
    const { usdx, oracle } = await loadFixture(fundedFixture);
    const cases: [MultiplierOperation, bigint][] = [
      ["set", 0n],
      ["set", MIN_REWARD_MULTIPLIER - 1n],
      ["set", MIN_REWARD_MULTIPLIER],
      ["set", MIN_REWARD_MULTIPLIER + 1n],
      ["add", 0n],
      ["add", 1n],
      ["add", MULTIPLIER_QUICK_ADD],
    ];
    for (const [operation, value] of cases) {
      const send = operation === "set" ? usdx.connect(oracle).setRewardMultiplier(value) : usdx.connect(oracle).addRewardMultiplier(value);
      if (multiplierRefusal(operation, value) === null) await expect(send, `${operation} ${value}`).not.to.be.reverted;
      else await expect(send, `${operation} ${value}`).to.be.revertedWithCustomError(usdx, "USDXInvalidRewardMultiplier").withArgs(value);
    }
  });
});

describe("USDX: pause and blocklist against every entry point", () => {
  it("while paused: transfer, transferFrom, mint and burn revert USDXPausedTransfers", async () => {
    const { usdx, pauser, minter, burner, alice, bob } = await loadFixture(fundedFixture);
    await usdx.connect(alice).approve(bob.address, usd(10));
    await usdx.connect(pauser).pause();
    await expect(usdx.connect(alice).transfer(bob.address, 1)).to.be.revertedWithCustomError(usdx, "USDXPausedTransfers");
    await expect(usdx.connect(bob).transferFrom(alice.address, bob.address, 1)).to.be.revertedWithCustomError(usdx, "USDXPausedTransfers");
    await expect(usdx.connect(minter).mint(alice.address, 1)).to.be.revertedWithCustomError(usdx, "USDXPausedTransfers");
    await expect(usdx.connect(burner).burn(alice.address, 1)).to.be.revertedWithCustomError(usdx, "USDXPausedTransfers");
  });

  it("while paused: approve and permit still work (they move no tokens)", async () => {
    const { usdx, pauser, alice, bob } = await loadFixture(fundedFixture);
    await usdx.connect(pauser).pause();
    await usdx.connect(alice).approve(bob.address, usd(5));
    expect(await usdx.allowance(alice.address, bob.address)).to.equal(usd(5));
    const deadline = await deadlineIn(3600);
    const sig = await signPermit(usdx, bob, alice.address, usd(7), deadline);
    await usdx.permit(bob.address, alice.address, usd(7), deadline, sig.v, sig.r, sig.s);
    expect(await usdx.allowance(bob.address, alice.address)).to.equal(usd(7));
  });

  it("after unpausing, tokens move again", async () => {
    const { usdx, pauser, alice, bob } = await loadFixture(fundedFixture);
    await usdx.connect(pauser).pause();
    await usdx.connect(pauser).unpause();
    await expect(usdx.connect(alice).transfer(bob.address, usd(1))).to.changeTokenBalance(usdx, bob, usd(1));
  });

  it("a blocked account cannot transfer, be spent from, or be burned (USDXBlockedSender)", async () => {
    const { usdx, blocklister, burner, alice, bob } = await loadFixture(fundedFixture);
    await usdx.connect(alice).approve(bob.address, usd(10));
    await usdx.connect(blocklister).blockAccount(alice.address);
    await expect(usdx.connect(alice).transfer(bob.address, 1))
      .to.be.revertedWithCustomError(usdx, "USDXBlockedSender")
      .withArgs(alice.address);
    await expect(usdx.connect(bob).transferFrom(alice.address, bob.address, 1))
      .to.be.revertedWithCustomError(usdx, "USDXBlockedSender")
      .withArgs(alice.address);
    await expect(usdx.connect(burner).burn(alice.address, 1))
      .to.be.revertedWithCustomError(usdx, "USDXBlockedSender")
      .withArgs(alice.address);
  });

  it("a blocked account can still receive, approve and permit", async () => {
    const { usdx, blocklister, alice, bob } = await loadFixture(fundedFixture);
    await usdx.connect(blocklister).blockAccount(alice.address);
    await expect(usdx.connect(bob).transfer(alice.address, usd(1))).to.changeTokenBalance(usdx, alice, usd(1));
    await usdx.connect(alice).approve(bob.address, usd(3));
    expect(await usdx.allowance(alice.address, bob.address)).to.equal(usd(3));
    const deadline = await deadlineIn(3600);
    const sig = await signPermit(usdx, alice, bob.address, usd(4), deadline);
    await usdx.permit(alice.address, bob.address, usd(4), deadline, sig.v, sig.r, sig.s);
    expect(await usdx.allowance(alice.address, bob.address)).to.equal(usd(4));
  });

  it("a blocked spender may move another holder's tokens: only senders are checked", async () => {
    const { usdx, blocklister, alice, bob, carol } = await loadFixture(fundedFixture);
    await usdx.connect(alice).approve(bob.address, usd(10));
    await usdx.connect(blocklister).blockAccount(bob.address);
    await expect(usdx.connect(bob).transferFrom(alice.address, carol.address, usd(10))).to.changeTokenBalance(usdx, carol, usd(10));
  });

  it("checks the blocklist before the pause: a blocked sender on a paused token sees USDXBlockedSender", async () => {
    const { usdx, blocklister, pauser, alice, bob } = await loadFixture(fundedFixture);
    await usdx.connect(blocklister).blockAccount(alice.address);
    await usdx.connect(pauser).pause();
    await expect(usdx.connect(alice).transfer(bob.address, 1)).to.be.revertedWithCustomError(usdx, "USDXBlockedSender");
  });

  it("after unblocking, the account can send again", async () => {
    const { usdx, blocklister, alice, bob } = await loadFixture(fundedFixture);
    await usdx.connect(blocklister).blockAccount(alice.address);
    await usdx.connect(blocklister).unblockAccount(alice.address);
    await expect(usdx.connect(alice).transfer(bob.address, usd(2))).to.changeTokenBalance(usdx, bob, usd(2));
  });
});

describe("USDX: permit (EIP-2612)", () => {
  it("sets the allowance from a valid signature, emits Approval and uses the nonce", async () => {
    const { usdx, alice, bob, stranger } = await loadFixture(fundedFixture);
    const deadline = await deadlineIn(3600);
    const sig = await signPermit(usdx, alice, bob.address, usd(50), deadline);
    expect(await usdx.nonces(alice.address)).to.equal(0n);
    await expect(usdx.connect(stranger).permit(alice.address, bob.address, usd(50), deadline, sig.v, sig.r, sig.s))
      .to.emit(usdx, "Approval")
      .withArgs(alice.address, bob.address, usd(50));
    expect(await usdx.allowance(alice.address, bob.address)).to.equal(usd(50));
    expect(await usdx.nonces(alice.address)).to.equal(1n);
  });

  it("reverts ERC2612ExpiredDeadline after the deadline", async () => {
    const { usdx, alice, bob } = await loadFixture(fundedFixture);
    const deadline = await deadlineIn(-1);
    const sig = await signPermit(usdx, alice, bob.address, usd(50), deadline);
    // The block's time is set before the permit is sent: sent first, it could be mined first (a race
    // the slower coverage run lost), and the timestamp would then be in the past.
    const next = (await ethers.provider.getBlock("latest"))!.timestamp + 1;
    await ethers.provider.send("evm_setNextBlockTimestamp", [next]);
    await expect(usdx.permit(alice.address, bob.address, usd(50), deadline, sig.v, sig.r, sig.s))
      .to.be.revertedWithCustomError(usdx, "ERC2612ExpiredDeadline")
      .withArgs(deadline, next);
  });

  it("reverts ERC2612InvalidSignature when the permit is reused", async () => {
    const { usdx, alice, bob } = await loadFixture(fundedFixture);
    const deadline = await deadlineIn(3600);
    const sig = await signPermit(usdx, alice, bob.address, usd(50), deadline);
    await usdx.permit(alice.address, bob.address, usd(50), deadline, sig.v, sig.r, sig.s);
    await expect(usdx.permit(alice.address, bob.address, usd(50), deadline, sig.v, sig.r, sig.s))
      .to.be.revertedWithCustomError(usdx, "ERC2612InvalidSignature")
      .withArgs(alice.address, bob.address);
  });

  it("reverts ERC2612InvalidSignature for a signature by someone other than the owner", async () => {
    const { usdx, alice, bob, stranger } = await loadFixture(fundedFixture);
    const deadline = await deadlineIn(3600);
    const sig = await signPermit(usdx, stranger, bob.address, usd(50), deadline, 0n);
    await expect(usdx.permit(alice.address, bob.address, usd(50), deadline, sig.v, sig.r, sig.s))
      .to.be.revertedWithCustomError(usdx, "ERC2612InvalidSignature")
      .withArgs(alice.address, bob.address);
  });

  it("reverts ERC2612InvalidSignature when the value or spender differ from what was signed", async () => {
    const { usdx, alice, bob, carol } = await loadFixture(fundedFixture);
    const deadline = await deadlineIn(3600);
    const sig = await signPermit(usdx, alice, bob.address, usd(50), deadline);
    await expect(usdx.permit(alice.address, bob.address, usd(51), deadline, sig.v, sig.r, sig.s)).to.be.revertedWithCustomError(
      usdx,
      "ERC2612InvalidSignature",
    );
    await expect(usdx.permit(alice.address, carol.address, usd(50), deadline, sig.v, sig.r, sig.s)).to.be.revertedWithCustomError(
      usdx,
      "ERC2612InvalidSignature",
    );
  });

  it("reverts ERC2612InvalidSignature for a malformed signature", async () => {
    const { usdx, alice, bob } = await loadFixture(fundedFixture);
    const deadline = await deadlineIn(3600);
    await expect(usdx.permit(alice.address, bob.address, 1, deadline, 27, ethers.ZeroHash, ethers.ZeroHash))
      .to.be.revertedWithCustomError(usdx, "ERC2612InvalidSignature")
      .withArgs(alice.address, bob.address);
  });

  it("reverts ERC20InvalidApprover for the zero address as owner", async () => {
    const { usdx, bob } = await loadFixture(fundedFixture);
    const deadline = await deadlineIn(3600);
    await expect(usdx.permit(ZeroAddress, bob.address, 1, deadline, 27, ethers.ZeroHash, ethers.ZeroHash))
      .to.be.revertedWithCustomError(usdx, "ERC20InvalidApprover")
      .withArgs(ZeroAddress);
  });

  it("reverts ERC20InvalidSpender for a valid permit to the zero address", async () => {
    const { usdx, alice } = await loadFixture(fundedFixture);
    const deadline = await deadlineIn(3600);
    const sig = await signPermit(usdx, alice, ZeroAddress, 1n, deadline);
    await expect(usdx.permit(alice.address, ZeroAddress, 1, deadline, sig.v, sig.r, sig.s))
      .to.be.revertedWithCustomError(usdx, "ERC20InvalidSpender")
      .withArgs(ZeroAddress);
  });

  it("signs under the domain it reports: name, version 1, chain id, the proxy's address", async () => {
    const { usdx } = await loadFixture(fundedFixture);
    const { chainId } = await ethers.provider.getNetwork();
    const domain = { name: "XFT Digital Dollar", version: "1", chainId, verifyingContract: await usdx.getAddress() };
    expect(await usdx.DOMAIN_SEPARATOR()).to.equal(ethers.TypedDataEncoder.hashDomain(domain));
    const reported = await usdx.eip712Domain();
    expect([reported.name, reported.version, reported.chainId, reported.verifyingContract]).to.deep.equal([
      domain.name,
      domain.version,
      chainId,
      domain.verifyingContract,
    ]);
  });
});
