import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/signers";
import type { ContractTransactionResponse } from "ethers";
import type { USDX } from "@bindings";
import { ROLES, RoleName } from "@common/roles";
import { fundedFixture, mult, usd } from "./helpers/fixtures";

type Fixture = Awaited<ReturnType<typeof fundedFixture>>;

interface GatedCall {
  name: string;
  role: RoleName;
  /** Puts the chain in a state where the call can succeed (e.g. blocked before unblock). */
  setup?: (f: Fixture) => Promise<unknown>;
  call: (usdx: USDX, f: Fixture) => Promise<ContractTransactionResponse>;
}

async function newImplementation(): Promise<string> {
  const v2 = await (await ethers.getContractFactory("USDXV2")).deploy();
  return v2.getAddress();
}

// Every role-gated function of USDX, with the role it needs.
const GATED: GatedCall[] = [
  { name: "mint", role: "MINTER_ROLE", call: (u, f) => u.mint(f.carol.address, usd(1)) },
  { name: "burn", role: "BURNER_ROLE", call: (u, f) => u.burn(f.alice.address, usd(1)) },
  { name: "blockAccount", role: "BLOCKLIST_ROLE", call: (u, f) => u.blockAccount(f.carol.address) },
  {
    name: "unblockAccount",
    role: "BLOCKLIST_ROLE",
    setup: (f) => f.usdx.connect(f.blocklister).blockAccount(f.carol.address),
    call: (u, f) => u.unblockAccount(f.carol.address),
  },
  { name: "blockAccounts", role: "BLOCKLIST_ROLE", call: (u, f) => u.blockAccounts([f.carol.address, f.dave.address]) },
  {
    name: "unblockAccounts",
    role: "BLOCKLIST_ROLE",
    setup: (f) => f.usdx.connect(f.blocklister).blockAccounts([f.carol.address, f.dave.address]),
    call: (u, f) => u.unblockAccounts([f.carol.address, f.dave.address]),
  },
  { name: "pause", role: "PAUSE_ROLE", call: (u) => u.pause() },
  { name: "unpause", role: "PAUSE_ROLE", setup: (f) => f.usdx.connect(f.pauser).pause(), call: (u) => u.unpause() },
  { name: "setRewardMultiplier", role: "ORACLE_ROLE", call: (u) => u.setRewardMultiplier(mult("1.02")) },
  { name: "addRewardMultiplier", role: "ORACLE_ROLE", call: (u) => u.addRewardMultiplier(mult("0.01")) },
  { name: "upgradeTo", role: "UPGRADE_ROLE", call: async (u) => u.upgradeTo(await newImplementation()) },
  { name: "upgradeToAndCall", role: "UPGRADE_ROLE", call: async (u) => u.upgradeToAndCall(await newImplementation(), "0x") },
  { name: "grantRole", role: "DEFAULT_ADMIN_ROLE", call: (u, f) => u.grantRole(ROLES.MINTER_ROLE, f.carol.address) },
  {
    name: "revokeRole",
    role: "DEFAULT_ADMIN_ROLE",
    call: (u, f) => u.revokeRole(ROLES.MINTER_ROLE, f.minter.address),
  },
];

// Each role on its own account, plus one account with no role at all.
const CALLERS: { label: string; pick: (f: Fixture) => HardhatEthersSigner; role?: RoleName }[] = [
  { label: "admin", pick: (f) => f.owner, role: "DEFAULT_ADMIN_ROLE" },
  { label: "minter", pick: (f) => f.minter, role: "MINTER_ROLE" },
  { label: "burner", pick: (f) => f.burner, role: "BURNER_ROLE" },
  { label: "blocklister", pick: (f) => f.blocklister, role: "BLOCKLIST_ROLE" },
  { label: "oracle", pick: (f) => f.oracle, role: "ORACLE_ROLE" },
  { label: "pauser", pick: (f) => f.pauser, role: "PAUSE_ROLE" },
  { label: "upgrader", pick: (f) => f.upgrader, role: "UPGRADE_ROLE" },
  { label: "an account with no role", pick: (f) => f.stranger },
];

describe("USDX: access-control matrix", () => {
  for (const gated of GATED) {
    describe(gated.name, () => {
      for (const caller of CALLERS) {
        const allowed = caller.role === gated.role;
        it(`${allowed ? "succeeds" : "reverts AccessControlUnauthorizedAccount"} when called by ${caller.label}`, async () => {
          const f = await loadFixture(fundedFixture);
          await gated.setup?.(f);
          const signer = caller.pick(f);
          const tx = gated.call(f.usdx.connect(signer), f);
          if (allowed) {
            await expect(tx).not.to.be.reverted;
          } else {
            await expect(tx)
              .to.be.revertedWithCustomError(f.usdx, "AccessControlUnauthorizedAccount")
              .withArgs(signer.address, ROLES[gated.role]);
          }
        });
      }
    });
  }

  it("lets a holder renounce its own role, and reverts AccessControlBadConfirmation for anyone else's", async () => {
    const f = await loadFixture(fundedFixture);
    await expect(f.usdx.connect(f.owner).renounceRole(ROLES.MINTER_ROLE, f.minter.address)).to.be.revertedWithCustomError(
      f.usdx,
      "AccessControlBadConfirmation",
    );
    await expect(f.usdx.connect(f.minter).renounceRole(ROLES.MINTER_ROLE, f.minter.address))
      .to.emit(f.usdx, "RoleRevoked")
      .withArgs(ROLES.MINTER_ROLE, f.minter.address, f.minter.address);
    expect(await f.usdx.hasRole(ROLES.MINTER_ROLE, f.minter.address)).to.equal(false);
  });

  it("grants and revokes with RoleGranted and RoleRevoked naming the admin", async () => {
    const f = await loadFixture(fundedFixture);
    await expect(f.usdx.grantRole(ROLES.ORACLE_ROLE, f.carol.address))
      .to.emit(f.usdx, "RoleGranted")
      .withArgs(ROLES.ORACLE_ROLE, f.carol.address, f.owner.address);
    await expect(f.usdx.revokeRole(ROLES.ORACLE_ROLE, f.carol.address))
      .to.emit(f.usdx, "RoleRevoked")
      .withArgs(ROLES.ORACLE_ROLE, f.carol.address, f.owner.address);
  });
});
