import { expect } from "chai";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import { deployFixture, fundedFixture, mult, ONE, usd } from "./helpers/fixtures";

// Off-chain model of the contract's arithmetic: both conversions round down.
const toShares = (amount: bigint, m: bigint) => (amount * ONE) / m;
const toTokens = (shares: bigint, m: bigint) => (shares * m) / ONE;

describe("USDX: shares and the reward multiplier", () => {
  it("mints by token amount: shares = amount / multiplier", async () => {
    const { usdx, minter, oracle, alice } = await loadFixture(deployFixture);
    await usdx.connect(oracle).setRewardMultiplier(mult("1.25"));
    await usdx.connect(minter).mint(alice.address, usd(100));
    expect(await usdx.sharesOf(alice.address)).to.equal(usd(80));
    expect(await usdx.balanceOf(alice.address)).to.equal(usd(100));
  });

  it("rounds convertToShares down", async () => {
    const { usdx, oracle } = await loadFixture(deployFixture);
    await usdx.connect(oracle).setRewardMultiplier(mult("1.5"));
    expect(await usdx.convertToShares(1n)).to.equal(0n); // 0.67 shares
    expect(await usdx.convertToShares(2n)).to.equal(1n); // 1.33 shares
    expect(await usdx.convertToShares(usd(3))).to.equal(usd(2));
  });

  it("rounds convertToTokens down", async () => {
    const { usdx, oracle } = await loadFixture(deployFixture);
    await usdx.connect(oracle).setRewardMultiplier(mult("1.5"));
    expect(await usdx.convertToTokens(1n)).to.equal(1n); // 1.5 tokens
    expect(await usdx.convertToTokens(3n)).to.equal(4n); // 4.5 tokens
    expect(await usdx.convertToTokens(usd(2))).to.equal(usd(3));
  });

  it("keeps totalSupply equal to convertToTokens(totalShares) through mints, transfers, burns and rebases", async () => {
    const { usdx, minter, burner, oracle, alice, bob, carol } = await loadFixture(deployFixture);
    const check = async () => expect(await usdx.totalSupply()).to.equal(await usdx.convertToTokens(await usdx.totalShares()));
    await usdx.connect(minter).mint(alice.address, usd("333.333333333333333333"));
    await check();
    await usdx.connect(oracle).setRewardMultiplier(mult("1.000000000000000007"));
    await usdx.connect(minter).mint(bob.address, usd("0.000000000000000013"));
    await check();
    await usdx.connect(alice).transfer(carol.address, usd("111.111111111111111111"));
    await check();
    await usdx.connect(oracle).addRewardMultiplier(mult("0.333333333333333333"));
    await usdx.connect(burner).burn(carol.address, usd("7.7"));
    await check();
    const holders = [alice, bob, carol].map((s) => s.address);
    const shares = await Promise.all(holders.map((a) => usdx.sharesOf(a)));
    expect(shares.reduce((a, b) => a + b, 0n)).to.equal(await usdx.totalShares());
  });

  it("moves convertToShares(amount) shares on a transfer of a token amount", async () => {
    const { usdx, oracle, alice, bob } = await loadFixture(fundedFixture);
    await usdx.connect(oracle).setRewardMultiplier(mult("1.0003"));
    const amount = usd("123.456789");
    const expectedShares = toShares(amount, mult("1.0003"));
    const [aliceBefore, bobBefore] = [await usdx.sharesOf(alice.address), await usdx.sharesOf(bob.address)];
    await usdx.connect(alice).transfer(bob.address, amount);
    expect(await usdx.sharesOf(alice.address)).to.equal(aliceBefore - expectedShares);
    expect(await usdx.sharesOf(bob.address)).to.equal(bobBefore + expectedShares);
  });

  it("never lets a transfer create tokens: the receiver gains at most the amount, the sender loses at least it", async () => {
    const { usdx, oracle, alice, bob } = await loadFixture(fundedFixture);
    await usdx.connect(oracle).setRewardMultiplier(mult("1.333333333333333333"));
    for (const amount of [1n, 2n, 3n, 7n, usd("0.1"), usd("99.999999999999999999")]) {
      const [a0, b0, supply0] = [await usdx.balanceOf(alice.address), await usdx.balanceOf(bob.address), await usdx.totalSupply()];
      await usdx.connect(alice).transfer(bob.address, amount);
      const [a1, b1, supply1] = [await usdx.balanceOf(alice.address), await usdx.balanceOf(bob.address), await usdx.totalSupply()];
      expect(b1 - b0).to.be.lte(amount);
      expect(a0 - a1).to.be.gte(b1 - b0);
      expect(supply1).to.equal(supply0);
    }
  });

  it("a transfer worth less than one share (1 wei at 1.5) moves 0 shares, succeeds and emits Transfer with the amount asked for, as USDM does", async () => {
    const { usdx, oracle, alice, bob, carol } = await loadFixture(fundedFixture);
    await usdx.connect(oracle).setRewardMultiplier(mult("1.5"));
    expect(await usdx.convertToShares(1n)).to.equal(0n); // 1 wei is 0.67 of a share
    const before = async () =>
      Promise.all([alice, bob].map(async (s) => [await usdx.sharesOf(s.address), await usdx.balanceOf(s.address)]));
    const start = await before();
    await expect(usdx.connect(alice).transfer(bob.address, 1n)).to.emit(usdx, "Transfer").withArgs(alice.address, bob.address, 1n);
    expect(await before()).to.deep.equal(start); // no share and no token moved
    // transferFrom alike, and it spends the 1 wei of allowance asked for.
    await usdx.connect(alice).approve(carol.address, 5n);
    await expect(usdx.connect(carol).transferFrom(alice.address, bob.address, 1n))
      .to.emit(usdx, "Transfer")
      .withArgs(alice.address, bob.address, 1n);
    expect(await before()).to.deep.equal(start);
    expect(await usdx.allowance(alice.address, carol.address)).to.equal(4n);
    // 2 wei is 1.33 shares: 1 share moves, worth 1 wei to bob (1.5 rounded down).
    await expect(usdx.connect(alice).transfer(bob.address, 2n)).to.emit(usdx, "Transfer").withArgs(alice.address, bob.address, 2n);
    expect(await usdx.sharesOf(alice.address)).to.equal(start[0][0] - 1n);
    expect(await usdx.sharesOf(bob.address)).to.equal(start[1][0] + 1n);
  });

  it("raises every balance when the multiplier rises, without touching shares", async () => {
    const { usdx, oracle, alice, bob } = await loadFixture(fundedFixture);
    const sharesBefore = await usdx.sharesOf(alice.address);
    await expect(usdx.connect(oracle).setRewardMultiplier(mult("1.05")))
      .to.emit(usdx, "RewardMultiplier")
      .withArgs(mult("1.05"));
    expect(await usdx.sharesOf(alice.address)).to.equal(sharesBefore);
    expect(await usdx.balanceOf(alice.address)).to.equal(usd(1050));
    expect(await usdx.balanceOf(bob.address)).to.equal(usd(525));
    expect(await usdx.totalSupply()).to.equal(usd(1575));
  });

  it("keeps allowances in tokens: a rebase does not change them and transferFrom spends the token amount", async () => {
    const { usdx, oracle, alice, bob, carol } = await loadFixture(fundedFixture);
    await usdx.connect(alice).approve(bob.address, usd(100));
    await usdx.connect(oracle).setRewardMultiplier(mult("1.1"));
    expect(await usdx.allowance(alice.address, bob.address)).to.equal(usd(100));
    await usdx.connect(bob).transferFrom(alice.address, carol.address, usd(60));
    expect(await usdx.allowance(alice.address, bob.address)).to.equal(usd(40));
    expect(await usdx.balanceOf(carol.address)).to.be.within(usd(60) - 1n, usd(60));
  });

  it("stays exact through three years of daily multiplier increments", async () => {
    const { usdx, minter, oracle, alice, bob, carol } = await loadFixture(deployFixture);
    // 5% a year, added daily as a fixed increment: 0.05 / 365 per day.
    const daily = mult("0.05") / 365n;
    const holders = [
      { signer: alice, amount: usd("1000000") },
      { signer: bob, amount: usd("0.000000000000000001") },
      { signer: carol, amount: usd("12345.678901234567890123".slice(0, 24)) },
    ];
    for (const h of holders) await usdx.connect(minter).mint(h.signer.address, h.amount);
    const shares = await Promise.all(holders.map((h) => usdx.sharesOf(h.signer.address)));

    let m = ONE;
    for (let day = 1; day <= 3 * 365; day++) {
      await usdx.connect(oracle).addRewardMultiplier(daily);
      m += daily;
      if (day % 73 === 0) {
        expect(await usdx.rewardMultiplier()).to.equal(m);
        for (let i = 0; i < holders.length; i++) {
          expect(await usdx.balanceOf(holders[i].signer.address)).to.equal(toTokens(shares[i], m));
        }
      }
    }
    expect(await usdx.rewardMultiplier()).to.equal(ONE + daily * 1095n);
    // Linear 5% a year for three years: 1,000,000 becomes 1,150,000 within the increment's truncation.
    const aliceBalance = await usdx.balanceOf(alice.address);
    expect(aliceBalance).to.be.within(usd("1149999.999"), usd("1150000"));
    expect(await usdx.totalSupply()).to.equal(toTokens(await usdx.totalShares(), m));
    for (const h of holders) expect(await usdx.sharesOf(h.signer.address)).to.equal(shares[holders.indexOf(h)]);
  });

  it("converts amounts up to the full uint256 range without overflow", async () => {
    const { usdx, oracle, alice, bob } = await loadFixture(fundedFixture);
    await usdx.connect(oracle).setRewardMultiplier(mult("2"));
    const huge = 2n ** 255n;
    expect(await usdx.convertToShares(huge)).to.equal(huge / 2n);
    await expect(usdx.connect(alice).transfer(bob.address, huge))
      .to.be.revertedWithCustomError(usdx, "ERC20InsufficientBalance")
      .withArgs(alice.address, usd(2000), huge);
  });
});
