import { expect } from "chai";
import { ethers, upgrades } from "hardhat";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import type { USDXV2 } from "@bindings";
import { ROLES } from "@common/roles";
import { deadlineIn, fundedFixture, mult, signPermit, usd } from "./helpers/fixtures";

/** The funded fixture with every kind of state set, so an upgrade has something to keep. */
async function richStateFixture() {
  const f = await fundedFixture();
  const { usdx } = f;
  await usdx.connect(f.oracle).setRewardMultiplier(mult("1.0375"));
  await usdx.connect(f.alice).approve(f.bob.address, usd(77));
  const deadline = await deadlineIn(3600);
  const sig = await signPermit(usdx, f.carol, f.bob.address, usd(5), deadline);
  await usdx.permit(f.carol.address, f.bob.address, usd(5), deadline, sig.v, sig.r, sig.s);
  await usdx.connect(f.blocklister).blockAccount(f.dave.address);
  await usdx.connect(f.pauser).pause();
  return f;
}

async function snapshotState(f: Awaited<ReturnType<typeof richStateFixture>>) {
  const { usdx } = f;
  return {
    name: await usdx.name(),
    symbol: await usdx.symbol(),
    totalShares: await usdx.totalShares(),
    totalSupply: await usdx.totalSupply(),
    multiplier: await usdx.rewardMultiplier(),
    alice: [await usdx.balanceOf(f.alice.address), await usdx.sharesOf(f.alice.address)],
    bob: [await usdx.balanceOf(f.bob.address), await usdx.sharesOf(f.bob.address)],
    allowance: await usdx.allowance(f.alice.address, f.bob.address),
    nonce: await usdx.nonces(f.carol.address),
    blocked: await usdx.isBlocked(f.dave.address),
    paused: await usdx.paused(),
    minter: await usdx.hasRole(ROLES.MINTER_ROLE, f.minter.address),
    admin: await usdx.hasRole(ROLES.DEFAULT_ADMIN_ROLE, f.owner.address),
    domain: await usdx.DOMAIN_SEPARATOR(),
  };
}

describe("USDX: upgrades (UUPS)", () => {
  it("keeps every balance, share, allowance, nonce, role, blocklist entry, multiplier and the pause across an upgrade", async () => {
    const f = await loadFixture(richStateFixture);
    const before = await snapshotState(f);
    const proxy = await f.usdx.getAddress();
    const upgraded = (await upgrades.upgradeProxy(proxy, (await ethers.getContractFactory("USDXV2")).connect(f.upgrader), {
      call: { fn: "initializeV2", args: ["kept"] },
    })) as unknown as USDXV2;
    expect(await upgraded.getAddress()).to.equal(proxy);
    expect(await upgraded.version()).to.equal("2");
    expect(await upgraded.memo()).to.equal("kept");
    expect(await snapshotState(f)).to.deep.equal(before);
  });

  it("emits Upgraded with the new implementation and points the proxy at it", async () => {
    const f = await loadFixture(fundedFixture);
    const v2 = await (await ethers.getContractFactory("USDXV2")).deploy();
    await expect(f.usdx.connect(f.upgrader).upgradeTo(await v2.getAddress()))
      .to.emit(f.usdx, "Upgraded")
      .withArgs(await v2.getAddress());
    expect(await upgrades.erc1967.getImplementationAddress(await f.usdx.getAddress())).to.equal(await v2.getAddress());
  });

  it("lets the V2 initialiser run only once", async () => {
    const f = await loadFixture(fundedFixture);
    const upgraded = (await upgrades.upgradeProxy(
      await f.usdx.getAddress(),
      (await ethers.getContractFactory("USDXV2")).connect(f.upgrader),
      {
        call: { fn: "initializeV2", args: ["first"] },
      },
    )) as unknown as USDXV2;
    await expect(upgraded.initializeV2("second")).to.be.revertedWithCustomError(upgraded, "InvalidInitialization");
  });

  it("reverts AccessControlUnauthorizedAccount for a caller without UPGRADE_ROLE, even the admin", async () => {
    const f = await loadFixture(fundedFixture);
    const factory = (await ethers.getContractFactory("USDXV2")).connect(f.owner);
    await expect(upgrades.upgradeProxy(await f.usdx.getAddress(), factory))
      .to.be.revertedWithCustomError(f.usdx, "AccessControlUnauthorizedAccount")
      .withArgs(f.owner.address, ROLES.UPGRADE_ROLE);
  });

  it("rejects an unsafe V2 in hardhat-upgrades validation, before anything is sent", async () => {
    const f = await loadFixture(fundedFixture);
    const unsafe = (await ethers.getContractFactory("USDXV2Unsafe")).connect(f.upgrader);
    const implementation = await upgrades.erc1967.getImplementationAddress(await f.usdx.getAddress());
    const rejection = upgrades.upgradeProxy(await f.usdx.getAddress(), unsafe);
    await expect(rejection).to.be.rejectedWith(/USDXV2Unsafe` is not upgrade safe/);
    await expect(rejection).to.be.rejectedWith(/Use of delegatecall is not allowed/);
    await expect(rejection).to.be.rejectedWith(/`feeBasisPoints` is assigned an initial value/);
    expect(await upgrades.erc1967.getImplementationAddress(await f.usdx.getAddress())).to.equal(implementation);
  });

  it("reverts ERC1967InvalidImplementation for a contract that is not a UUPS implementation, and refuses an account with no code", async () => {
    const f = await loadFixture(fundedFixture);
    // No code to ask for proxiableUUID: Solidity's own check reverts before OpenZeppelin's catch.
    await expect(f.usdx.connect(f.upgrader).upgradeTo(f.alice.address)).to.be.revertedWithoutReason();
    const batch = await f.batch.getAddress();
    await expect(f.usdx.connect(f.upgrader).upgradeTo(batch))
      .to.be.revertedWithCustomError(f.usdx, "ERC1967InvalidImplementation")
      .withArgs(batch);
  });

  it("reverts UUPSUnsupportedProxiableUUID for an implementation that reports another slot", async () => {
    const f = await loadFixture(fundedFixture);
    const wrong = await (await ethers.getContractFactory("WrongUUIDImplementation")).deploy();
    await expect(f.usdx.connect(f.upgrader).upgradeTo(await wrong.getAddress()))
      .to.be.revertedWithCustomError(f.usdx, "UUPSUnsupportedProxiableUUID")
      .withArgs(ethers.zeroPadValue("0x01", 32));
  });

  it("reverts UUPSUnauthorizedCallContext when upgrading the implementation directly", async () => {
    const f = await loadFixture(fundedFixture);
    const implementation = await ethers.getContractAt("USDX", await upgrades.erc1967.getImplementationAddress(await f.usdx.getAddress()));
    const v2 = await (await ethers.getContractFactory("USDXV2")).deploy();
    await expect(implementation.connect(f.upgrader).upgradeTo(await v2.getAddress())).to.be.revertedWithCustomError(
      f.usdx,
      "UUPSUnauthorizedCallContext",
    );
    await expect(implementation.proxiableUUID()).to.eventually.match(/^0x360894a1/);
    await expect(f.usdx.proxiableUUID()).to.be.revertedWithCustomError(f.usdx, "UUPSUnauthorizedCallContext");
  });

  it("reverts FailedCall when the call made with the upgrade reverts without a reason, keeping the old implementation", async () => {
    const f = await loadFixture(fundedFixture);
    const before = await upgrades.erc1967.getImplementationAddress(await f.usdx.getAddress());
    const v2 = await (await ethers.getContractFactory("USDXV2")).deploy();
    await expect(f.usdx.connect(f.upgrader).upgradeToAndCall(await v2.getAddress(), "0xdeadbeef")).to.be.revertedWithCustomError(
      f.usdx,
      "FailedCall",
    );
    expect(await upgrades.erc1967.getImplementationAddress(await f.usdx.getAddress())).to.equal(before);
  });

  it("reverts ERC1967NonPayable when ETH is sent with an upgrade that calls nothing", async () => {
    const f = await loadFixture(fundedFixture);
    const v2 = await (await ethers.getContractFactory("USDXV2")).deploy();
    await expect(f.usdx.connect(f.upgrader).upgradeToAndCall(await v2.getAddress(), "0x", { value: 1 })).to.be.revertedWithCustomError(
      f.usdx,
      "ERC1967NonPayable",
    );
  });
});
