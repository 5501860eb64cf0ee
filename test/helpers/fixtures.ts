import { ethers, upgrades } from "hardhat";
import { parseUnits, Signature } from "ethers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/signers";
import type { BatchPayments, USDX } from "@bindings";
import { ROLES } from "@common/roles";
import { TOKEN_NAME, TOKEN_SYMBOL } from "@common/token";
import { PERMIT_TYPES, PermitMessage, permitDomain } from "@common/permit";

/** USDX amounts in tests: usd("12.5") is 12.5 tokens in base units. */
export const usd = (amount: string | number): bigint => parseUnits(String(amount), 18);

/** A reward multiplier: mult("1.0125") is 1.0125e18. */
export const mult = usd;

export const ONE = 10n ** 18n;

/**
 * USDX behind a UUPS proxy with each role on its own account, and BatchPayments bound to it.
 * Use with loadFixture: the chain is snapshotted once and reverted before every test.
 */
export async function deployFixture() {
  const signers = await ethers.getSigners();
  const [owner, minter, burner, blocklister, oracle, pauser, upgrader, alice, bob, carol, dave, stranger] = signers;
  const usdx = (await upgrades.deployProxy(await ethers.getContractFactory("USDX"), [TOKEN_NAME, TOKEN_SYMBOL, owner.address], {
    kind: "uups",
    initializer: "initialize",
  })) as unknown as USDX;
  await usdx.waitForDeployment();

  await usdx.grantRole(ROLES.MINTER_ROLE, minter.address);
  await usdx.grantRole(ROLES.BURNER_ROLE, burner.address);
  await usdx.grantRole(ROLES.BLOCKLIST_ROLE, blocklister.address);
  await usdx.grantRole(ROLES.ORACLE_ROLE, oracle.address);
  await usdx.grantRole(ROLES.PAUSE_ROLE, pauser.address);
  await usdx.grantRole(ROLES.UPGRADE_ROLE, upgrader.address);

  const batch = (await (await ethers.getContractFactory("BatchPayments")).deploy(await usdx.getAddress())) as unknown as BatchPayments;
  await batch.waitForDeployment();

  return { usdx, batch, owner, minter, burner, blocklister, oracle, pauser, upgrader, alice, bob, carol, dave, stranger, signers };
}

/** The fixture, with alice holding 1,000 USDX and bob 500. */
export async function fundedFixture() {
  const f = await deployFixture();
  await f.usdx.connect(f.minter).mint(f.alice.address, usd(1000));
  await f.usdx.connect(f.minter).mint(f.bob.address, usd(500));
  return f;
}

/** Signs an EIP-2612 permit as `owner` and returns the split signature. */
export async function signPermit(
  usdx: USDX,
  owner: HardhatEthersSigner,
  spender: string,
  value: bigint,
  deadline: bigint,
  nonce?: bigint,
): Promise<Signature> {
  const { chainId } = await ethers.provider.getNetwork();
  const domain = permitDomain(chainId, await usdx.getAddress(), await usdx.name());
  const message: PermitMessage = { owner: owner.address, spender, value, nonce: nonce ?? (await usdx.nonces(owner.address)), deadline };
  return Signature.from(await owner.signTypedData(domain, PERMIT_TYPES, message));
}

/** A deadline `seconds` after the latest block. */
export async function deadlineIn(seconds: number): Promise<bigint> {
  const block = await ethers.provider.getBlock("latest");
  return BigInt(block!.timestamp + seconds);
}
