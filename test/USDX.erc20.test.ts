import { expect } from "chai";
import { ethers, upgrades } from "hardhat";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import { MaxUint256, ZeroAddress } from "ethers";
import { ROLE_NAMES, ROLES } from "@common/roles";
import { TOKEN_NAME, TOKEN_SYMBOL } from "@common/token";
import { deployFixture, fundedFixture, ONE, usd } from "./helpers/fixtures";
import ERC1967Proxy from "@openzeppelin/upgrades-core/artifacts/@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol/ERC1967Proxy.json";

describe("USDX: initialisation and metadata", () => {
  it("has the spec's name, symbol and 18 decimals", async () => {
    const { usdx } = await loadFixture(deployFixture);
    expect(await usdx.name()).to.equal("XFT Digital Dollar");
    expect(await usdx.symbol()).to.equal("USDX");
    expect(await usdx.decimals()).to.equal(18n);
  });

  it("starts with no supply, no shares and a multiplier of 1.0", async () => {
    const { usdx } = await loadFixture(deployFixture);
    expect(await usdx.totalSupply()).to.equal(0n);
    expect(await usdx.totalShares()).to.equal(0n);
    expect(await usdx.rewardMultiplier()).to.equal(ONE);
    expect(await usdx.paused()).to.equal(false);
  });

  it("makes the owner the only DEFAULT_ADMIN_ROLE holder, admin of every role", async () => {
    const { usdx, owner, minter } = await loadFixture(deployFixture);
    expect(await usdx.hasRole(ROLES.DEFAULT_ADMIN_ROLE, owner.address)).to.equal(true);
    expect(await usdx.hasRole(ROLES.DEFAULT_ADMIN_ROLE, minter.address)).to.equal(false);
    for (const role of ROLE_NAMES) expect(await usdx.getRoleAdmin(ROLES[role])).to.equal(ROLES.DEFAULT_ADMIN_ROLE);
  });

  it("exposes each role constant as the hash the dashboard uses", async () => {
    const { usdx } = await loadFixture(deployFixture);
    expect(await usdx.DEFAULT_ADMIN_ROLE()).to.equal(ROLES.DEFAULT_ADMIN_ROLE);
    expect(await usdx.MINTER_ROLE()).to.equal(ROLES.MINTER_ROLE);
    expect(await usdx.BURNER_ROLE()).to.equal(ROLES.BURNER_ROLE);
    expect(await usdx.BLOCKLIST_ROLE()).to.equal(ROLES.BLOCKLIST_ROLE);
    expect(await usdx.ORACLE_ROLE()).to.equal(ROLES.ORACLE_ROLE);
    expect(await usdx.UPGRADE_ROLE()).to.equal(ROLES.UPGRADE_ROLE);
    expect(await usdx.PAUSE_ROLE()).to.equal(ROLES.PAUSE_ROLE);
  });

  it("emits the initial RewardMultiplier and RoleGranted events an indexer starts from", async () => {
    const { usdx, owner } = await loadFixture(deployFixture);
    const multipliers = await usdx.queryFilter(usdx.filters.RewardMultiplier());
    expect(multipliers.map((e) => e.args.value)).to.deep.equal([ONE]);
    const grants = await usdx.queryFilter(usdx.filters.RoleGranted(ROLES.DEFAULT_ADMIN_ROLE));
    expect(grants.map((e) => e.args.account)).to.deep.equal([owner.address]);
  });

  it("reverts InvalidInitialization when initialised a second time", async () => {
    const { usdx, owner } = await loadFixture(deployFixture);
    await expect(usdx.initialize("Other", "OTH", owner.address)).to.be.revertedWithCustomError(usdx, "InvalidInitialization");
  });

  it("cannot be initialised on the implementation itself", async () => {
    const { usdx, owner } = await loadFixture(deployFixture);
    const implementation = await ethers.getContractAt("USDX", await upgrades.erc1967.getImplementationAddress(await usdx.getAddress()));
    await expect(implementation.initialize("X", "X", owner.address)).to.be.revertedWithCustomError(usdx, "InvalidInitialization");
  });

  it("reverts USDXInvalidOwner when initialised with the zero address as owner", async () => {
    const factory = await ethers.getContractFactory("USDX");
    const implementation = await factory.deploy();
    const data = factory.interface.encodeFunctionData("initialize", [TOKEN_NAME, TOKEN_SYMBOL, ZeroAddress]);
    const proxyFactory = await ethers.getContractFactory(ERC1967Proxy.abi, ERC1967Proxy.bytecode);
    await expect(proxyFactory.deploy(await implementation.getAddress(), data))
      .to.be.revertedWithCustomError(implementation, "USDXInvalidOwner")
      .withArgs(ZeroAddress);
  });

  it("has every read, write and event the spec names (sections 3 and 7)", async () => {
    const { usdx } = await loadFixture(deployFixture);
    const names = (type: string) =>
      usdx.interface.fragments.filter((f) => f.type === type).map((f) => (f as unknown as { name: string }).name);
    const reads =
      "name symbol decimals totalSupply balanceOf allowance nonces totalShares sharesOf convertToShares convertToTokens rewardMultiplier paused isBlocked hasRole getRoleAdmin";
    const writes =
      "transfer mint burn blockAccount unblockAccount pause unpause setRewardMultiplier addRewardMultiplier grantRole revokeRole approve transferFrom " +
      "increaseAllowance decreaseAllowance permit blockAccounts unblockAccounts renounceRole upgradeTo upgradeToAndCall initialize";
    const events =
      "Transfer Approval RoleGranted RoleRevoked RoleAdminChanged AccountBlocked AccountUnblocked RewardMultiplier Paused Unpaused Upgraded " +
      "AdminChanged BeaconUpgraded Initialized EIP712DomainChanged";
    expect(names("function")).to.include.members(`${reads} ${writes}`.split(" "));
    expect(names("event")).to.include.members(events.split(" "));
  });

  it("supports the ERC-165 interface of AccessControl", async () => {
    const { usdx } = await loadFixture(deployFixture);
    expect(await usdx.supportsInterface("0x7965db0b")).to.equal(true); // IAccessControl
    expect(await usdx.supportsInterface("0xffffffff")).to.equal(false);
  });
});

describe("USDX: transfer", () => {
  it("moves tokens and emits Transfer with the token amount", async () => {
    const { usdx, alice, bob } = await loadFixture(fundedFixture);
    const tx = usdx.connect(alice).transfer(bob.address, usd(100));
    await expect(tx).to.emit(usdx, "Transfer").withArgs(alice.address, bob.address, usd(100));
    await expect(tx).to.changeTokenBalances(usdx, [alice, bob], [-usd(100), usd(100)]);
  });

  it("allows a transfer of zero and a transfer to oneself without changing balances", async () => {
    const { usdx, alice, bob } = await loadFixture(fundedFixture);
    await expect(usdx.connect(alice).transfer(bob.address, 0)).to.changeTokenBalances(usdx, [alice, bob], [0, 0]);
    await expect(usdx.connect(alice).transfer(alice.address, usd(10))).to.changeTokenBalance(usdx, alice, 0);
  });

  it("reverts ERC20InvalidReceiver for the zero address", async () => {
    const { usdx, alice } = await loadFixture(fundedFixture);
    await expect(usdx.connect(alice).transfer(ZeroAddress, 1))
      .to.be.revertedWithCustomError(usdx, "ERC20InvalidReceiver")
      .withArgs(ZeroAddress);
  });

  it("reverts ERC20InsufficientBalance with the balance and the amount, in tokens", async () => {
    const { usdx, alice, bob } = await loadFixture(fundedFixture);
    await expect(usdx.connect(alice).transfer(bob.address, usd(1000) + 1n))
      .to.be.revertedWithCustomError(usdx, "ERC20InsufficientBalance")
      .withArgs(alice.address, usd(1000), usd(1000) + 1n);
  });

  it("sends the whole balance, leaving exactly zero", async () => {
    const { usdx, alice, bob } = await loadFixture(fundedFixture);
    await usdx.connect(alice).transfer(bob.address, usd(1000));
    expect(await usdx.balanceOf(alice.address)).to.equal(0n);
    expect(await usdx.sharesOf(alice.address)).to.equal(0n);
  });
});

describe("USDX: approve, allowance and transferFrom", () => {
  it("sets an allowance in tokens and emits Approval", async () => {
    const { usdx, alice, bob } = await loadFixture(fundedFixture);
    await expect(usdx.connect(alice).approve(bob.address, usd(50)))
      .to.emit(usdx, "Approval")
      .withArgs(alice.address, bob.address, usd(50));
    expect(await usdx.allowance(alice.address, bob.address)).to.equal(usd(50));
    await usdx.connect(alice).approve(bob.address, usd(20));
    expect(await usdx.allowance(alice.address, bob.address)).to.equal(usd(20));
  });

  it("reverts ERC20InvalidSpender when approving the zero address", async () => {
    const { usdx, alice } = await loadFixture(fundedFixture);
    await expect(usdx.connect(alice).approve(ZeroAddress, 1))
      .to.be.revertedWithCustomError(usdx, "ERC20InvalidSpender")
      .withArgs(ZeroAddress);
  });

  it("increases and decreases an allowance, emitting Approval with the new value", async () => {
    const { usdx, alice, bob } = await loadFixture(fundedFixture);
    await expect(usdx.connect(alice).increaseAllowance(bob.address, usd(30)))
      .to.emit(usdx, "Approval")
      .withArgs(alice.address, bob.address, usd(30));
    await expect(usdx.connect(alice).decreaseAllowance(bob.address, usd(10)))
      .to.emit(usdx, "Approval")
      .withArgs(alice.address, bob.address, usd(20));
    expect(await usdx.allowance(alice.address, bob.address)).to.equal(usd(20));
  });

  it("reverts ERC20InsufficientAllowance when decreasing below zero", async () => {
    const { usdx, alice, bob } = await loadFixture(fundedFixture);
    await usdx.connect(alice).approve(bob.address, usd(5));
    await expect(usdx.connect(alice).decreaseAllowance(bob.address, usd(6)))
      .to.be.revertedWithCustomError(usdx, "ERC20InsufficientAllowance")
      .withArgs(bob.address, usd(5), usd(6));
  });

  it("transferFrom moves tokens and spends the allowance without an Approval event", async () => {
    const { usdx, alice, bob, carol } = await loadFixture(fundedFixture);
    await usdx.connect(alice).approve(bob.address, usd(100));
    const tx = usdx.connect(bob).transferFrom(alice.address, carol.address, usd(40));
    await expect(tx).to.changeTokenBalances(usdx, [alice, carol], [-usd(40), usd(40)]);
    await expect(tx).not.to.emit(usdx, "Approval");
    expect(await usdx.allowance(alice.address, bob.address)).to.equal(usd(60));
  });

  it("never spends an infinite (max uint256) allowance", async () => {
    const { usdx, alice, bob, carol } = await loadFixture(fundedFixture);
    await usdx.connect(alice).approve(bob.address, MaxUint256);
    await usdx.connect(bob).transferFrom(alice.address, carol.address, usd(40));
    expect(await usdx.allowance(alice.address, bob.address)).to.equal(MaxUint256);
  });

  it("reverts ERC20InsufficientAllowance with the allowance and the amount", async () => {
    const { usdx, alice, bob, carol } = await loadFixture(fundedFixture);
    await usdx.connect(alice).approve(bob.address, usd(10));
    await expect(usdx.connect(bob).transferFrom(alice.address, carol.address, usd(11)))
      .to.be.revertedWithCustomError(usdx, "ERC20InsufficientAllowance")
      .withArgs(bob.address, usd(10), usd(11));
  });

  it("reverts ERC20InvalidSender and ERC20InvalidReceiver for the zero address", async () => {
    const { usdx, alice, bob } = await loadFixture(fundedFixture);
    await expect(usdx.connect(bob).transferFrom(ZeroAddress, bob.address, 0))
      .to.be.revertedWithCustomError(usdx, "ERC20InvalidSender")
      .withArgs(ZeroAddress);
    await usdx.connect(alice).approve(bob.address, usd(10));
    await expect(usdx.connect(bob).transferFrom(alice.address, ZeroAddress, 1))
      .to.be.revertedWithCustomError(usdx, "ERC20InvalidReceiver")
      .withArgs(ZeroAddress);
  });

  it("reports a short balance before a short allowance, and changes nothing", async () => {
    const { usdx, alice, bob, carol } = await loadFixture(fundedFixture);
    await usdx.connect(alice).approve(bob.address, usd(5000));
    await expect(usdx.connect(bob).transferFrom(alice.address, carol.address, usd(2000)))
      .to.be.revertedWithCustomError(usdx, "ERC20InsufficientBalance")
      .withArgs(alice.address, usd(1000), usd(2000));
    expect(await usdx.allowance(alice.address, bob.address)).to.equal(usd(5000));
    expect(await usdx.balanceOf(alice.address)).to.equal(usd(1000));
  });
});
