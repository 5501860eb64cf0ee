import { expect } from "chai";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import type { USDX } from "@bindings";
import { deployFixture, fundedFixture, mult, ONE, usd } from "./helpers/fixtures";
import { isReadable, MAX_UINT, maxMintAmount, maxMultiplierFor, maxSharesAt, SUPPLY_LIMIT } from "./helpers/limits";

// The contract's own arithmetic (Math.mulDiv, rounding down).
const toShares = (amount: bigint, m: bigint) => (amount * ONE) / m;
const toTokens = (shares: bigint, m: bigint) => (shares * m) / ONE;

/** totalSupply and the holders' balances read (no revert) and equal the shares' worth. */
async function expectReadable(usdx: USDX, holders: string[]): Promise<void> {
  const [shares, m] = [await usdx.totalShares(), await usdx.rewardMultiplier()];
  expect(await usdx.totalSupply()).to.equal(toTokens(shares, m));
  for (const holder of holders) expect(await usdx.balanceOf(holder)).to.equal(toTokens(await usdx.sharesOf(holder), m));
}

describe("USDX: the supply bound keeps totalSupply and balanceOf readable", () => {
  it("checks the bound helpers against themselves: exact, neither conservative nor loose", () => {
    for (const m of [ONE, ONE + 1n, mult("1.5"), mult("1.333333333333333333"), mult("7"), MAX_UINT]) {
      expect(isReadable(maxSharesAt(m), m)).to.equal(true);
      expect(isReadable(maxSharesAt(m) + 1n, m)).to.equal(false);
    }
    expect(maxSharesAt(ONE)).to.equal(MAX_UINT);
    expect(maxMultiplierFor(ONE)).to.equal(MAX_UINT); // 1e18 shares may reach any multiplier
    expect(isReadable(ONE + 1n, MAX_UINT)).to.equal(false);
    expect(SUPPLY_LIMIT).to.equal(2n ** 256n * ONE);
  });

  it("at 1.0: mints up to 2^256 - 1 tokens in all, then 1 wei more reverts USDXSupplyOverflow (not a Panic)", async () => {
    const { usdx, minter, alice, bob } = await loadFixture(deployFixture);
    await usdx.connect(minter).mint(alice.address, MAX_UINT);
    await expectReadable(usdx, [alice.address, bob.address]);
    expect(await usdx.totalSupply()).to.equal(MAX_UINT);
    expect(await usdx.balanceOf(alice.address)).to.equal(MAX_UINT);
    await expect(usdx.connect(minter).mint(bob.address, 1))
      .to.be.revertedWithCustomError(usdx, "USDXSupplyOverflow")
      .withArgs(MAX_UINT, 1n, ONE);
  });

  it("at 1.0 with a supply: 2^256 - 1 - supply is the largest mint, 1 wei more reverts", async () => {
    const { usdx, minter, alice, bob, carol } = await loadFixture(fundedFixture);
    const supply = usd(1500);
    expect(maxMintAmount(supply, ONE)).to.equal(MAX_UINT - supply);
    await expect(usdx.connect(minter).mint(carol.address, MAX_UINT - supply + 1n))
      .to.be.revertedWithCustomError(usdx, "USDXSupplyOverflow")
      .withArgs(supply, MAX_UINT - supply + 1n, ONE);
    await expect(usdx.connect(minter).mint(carol.address, MAX_UINT)).to.be.revertedWithCustomError(usdx, "USDXSupplyOverflow");
    await usdx.connect(minter).mint(carol.address, MAX_UINT - supply);
    expect(await usdx.totalSupply()).to.equal(MAX_UINT);
    await expectReadable(usdx, [alice.address, bob.address, carol.address]);
  });

  for (const label of ["1.000000000000000001", "1.5", "1.333333333333333333", "7", "1000000"]) {
    it(`above 1.0 (${label}): the largest mint allowed succeeds and leaves every figure readable; 1 wei more reverts`, async () => {
      const { usdx, minter, oracle, alice, bob, carol } = await loadFixture(fundedFixture);
      const m = mult(label);
      await usdx.connect(oracle).setRewardMultiplier(m);
      const shares = await usdx.totalShares();
      const most = maxMintAmount(shares, m);
      expect(most).to.be.lessThan(MAX_UINT);
      // One wei more is exactly one share more than the bound allows.
      expect(shares + toShares(most + 1n, m)).to.equal(maxSharesAt(m) + 1n);
      await expect(usdx.connect(minter).mint(carol.address, most + 1n))
        .to.be.revertedWithCustomError(usdx, "USDXSupplyOverflow")
        .withArgs(shares, toShares(most + 1n, m), m);
      // The case: mint(2^256 - 1) on top of a supply, above 1.0.
      await expect(usdx.connect(minter).mint(carol.address, MAX_UINT))
        .to.be.revertedWithCustomError(usdx, "USDXSupplyOverflow")
        .withArgs(shares, toShares(MAX_UINT, m), m);

      await usdx.connect(minter).mint(carol.address, most);
      expect(await usdx.totalShares()).to.equal(maxSharesAt(m));
      await expectReadable(usdx, [alice.address, bob.address, carol.address]);
      // Full: no share can be added, and no higher multiplier is allowed.
      await expect(usdx.connect(oracle).addRewardMultiplier(1))
        .to.be.revertedWithCustomError(usdx, "USDXSupplyOverflow")
        .withArgs(maxSharesAt(m), 0n, m + 1n);
      // The holders can still move and burn what they hold.
      await usdx.connect(carol).transfer(alice.address, most / 2n);
      await expectReadable(usdx, [alice.address, bob.address, carol.address]);
    });
  }

  it("setRewardMultiplier: the largest multiplier the shares allow succeeds, 1 more reverts USDXSupplyOverflow", async () => {
    const { usdx, oracle, alice, bob } = await loadFixture(fundedFixture);
    const shares = await usdx.totalShares();
    const most = maxMultiplierFor(shares);
    expect(isReadable(shares, most) && !isReadable(shares, most + 1n)).to.equal(true);
    await expect(usdx.connect(oracle).setRewardMultiplier(most + 1n))
      .to.be.revertedWithCustomError(usdx, "USDXSupplyOverflow")
      .withArgs(shares, 0n, most + 1n);
    await expect(usdx.connect(oracle).setRewardMultiplier(MAX_UINT))
      .to.be.revertedWithCustomError(usdx, "USDXSupplyOverflow")
      .withArgs(shares, 0n, MAX_UINT);
    await expect(usdx.connect(oracle).setRewardMultiplier(most)).to.emit(usdx, "RewardMultiplier").withArgs(most);
    await expectReadable(usdx, [alice.address, bob.address]);
  });

  it("addRewardMultiplier: an increment too large for the shares reverts USDXSupplyOverflow; up to the bound succeeds", async () => {
    const { usdx, oracle, alice, bob } = await loadFixture(fundedFixture);
    await usdx.connect(oracle).setRewardMultiplier(mult("1.5"));
    const shares = await usdx.totalShares();
    const room = maxMultiplierFor(shares) - mult("1.5");
    await expect(usdx.connect(oracle).addRewardMultiplier(room + 1n))
      .to.be.revertedWithCustomError(usdx, "USDXSupplyOverflow")
      .withArgs(shares, 0n, maxMultiplierFor(shares) + 1n);
    await usdx.connect(oracle).addRewardMultiplier(room);
    expect(await usdx.rewardMultiplier()).to.equal(maxMultiplierFor(shares));
    await expectReadable(usdx, [alice.address, bob.address]);
  });

  it("addRewardMultiplier past 2^256 - 1 reverts USDXRewardMultiplierOverflow, never a Panic", async () => {
    const { usdx, minter, oracle, alice } = await loadFixture(deployFixture);
    await usdx.connect(oracle).setRewardMultiplier(mult("1.5"));
    await expect(usdx.connect(oracle).addRewardMultiplier(MAX_UINT))
      .to.be.revertedWithCustomError(usdx, "USDXRewardMultiplierOverflow")
      .withArgs(mult("1.5"), MAX_UINT);
    // 1e18 shares (1 token at 1.0) are readable at any multiplier: the uint itself is the limit.
    await usdx.connect(oracle).setRewardMultiplier(ONE);
    await usdx.connect(minter).mint(alice.address, usd(1));
    await usdx.connect(oracle).addRewardMultiplier(MAX_UINT - ONE - 1n);
    await usdx.connect(oracle).addRewardMultiplier(1);
    expect(await usdx.rewardMultiplier()).to.equal(MAX_UINT);
    expect(await usdx.balanceOf(alice.address)).to.equal(MAX_UINT);
    await expect(usdx.connect(oracle).addRewardMultiplier(1))
      .to.be.revertedWithCustomError(usdx, "USDXRewardMultiplierOverflow")
      .withArgs(MAX_UINT, 1n);
  });

  it("with no shares any multiplier is allowed, and a later mint is still bounded", async () => {
    const { usdx, minter, oracle, alice, bob } = await loadFixture(deployFixture);
    await expect(usdx.connect(oracle).setRewardMultiplier(MAX_UINT)).to.emit(usdx, "RewardMultiplier").withArgs(MAX_UINT);
    await expectReadable(usdx, [alice.address]);
    // At 2^256 - 1 there may be at most 1e18 shares: mint(2^256 - 1) makes exactly that many.
    expect(maxSharesAt(MAX_UINT)).to.equal(ONE);
    await usdx.connect(minter).mint(alice.address, MAX_UINT);
    expect(await usdx.sharesOf(alice.address)).to.equal(ONE);
    expect(await usdx.totalSupply()).to.equal(MAX_UINT);
    // The smallest amount worth one share more is refused; one wei less is worth no share.
    const oneShare = (MAX_UINT + ONE - 1n) / ONE;
    await expect(usdx.connect(minter).mint(bob.address, oneShare))
      .to.be.revertedWithCustomError(usdx, "USDXSupplyOverflow")
      .withArgs(ONE, 1n, MAX_UINT);
    await usdx.connect(minter).mint(bob.address, oneShare - 1n);
    expect(await usdx.sharesOf(bob.address)).to.equal(0n);
    await expectReadable(usdx, [alice.address, bob.address]);
  });

  it("from no shares even mint(2^256 - 1) stays readable at a huge multiplier; the next mint is bounded exactly", async () => {
    const { usdx, minter, oracle, alice, bob } = await loadFixture(deployFixture);
    const m = mult("1" + "0".repeat(59)); // 1e77: at most about 1.16e18 shares
    await usdx.connect(oracle).setRewardMultiplier(m);
    // A mint's shares are worth at most its amount, so a first mint can never pass the bound.
    expect(maxMintAmount(0n, m)).to.equal(MAX_UINT);
    await usdx.connect(minter).mint(alice.address, MAX_UINT);
    await expectReadable(usdx, [alice.address]);
    const shares = await usdx.totalShares();
    const most = maxMintAmount(shares, m);
    expect(toShares(most + 1n, m)).to.equal(maxSharesAt(m) - shares + 1n);
    await expect(usdx.connect(minter).mint(bob.address, most + 1n))
      .to.be.revertedWithCustomError(usdx, "USDXSupplyOverflow")
      .withArgs(shares, maxSharesAt(m) - shares + 1n, m);
    await usdx.connect(minter).mint(bob.address, most);
    expect(await usdx.totalShares()).to.equal(maxSharesAt(m));
    await expectReadable(usdx, [alice.address, bob.address]);
  });
});
