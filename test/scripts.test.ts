import { expect } from "chai";
import hre, { ethers, upgrades } from "hardhat";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { USDX__factory, BatchPayments__factory } from "@bindings";
import { deployUSDX } from "../scripts/deploy";
import { seedLocalChain } from "../scripts/seed";
import { readStatus, formatStatus } from "../scripts/lib/status";
import { loadDeployment, manifestPath, readManifest, writeManifest } from "@common/manifestFile";
import type { DeploymentManifest } from "@common/manifest";
import { ROLES } from "@common/roles";
import { SEEDED_ACCOUNTS, SEEDED_SAFE, seededAccount } from "@common/seedAccounts";
import { DEFAULT_SCENARIO, loadScenario } from "../server/src/services/scenarios/load";
import { SAFE_INTERFACE, SAFE_VERSION } from "@common/safe";
import { usd, mult } from "./helpers/fixtures";

let dir: string;
const savedDir = process.env.DEPLOYMENTS_DIR;

before(() => {
  dir = mkdtempSync(path.join(tmpdir(), "usdx-deployments-"));
  process.env.DEPLOYMENTS_DIR = dir;
});

after(() => {
  if (savedDir === undefined) delete process.env.DEPLOYMENTS_DIR;
  else process.env.DEPLOYMENTS_DIR = savedDir;
  rmSync(dir, { recursive: true, force: true });
});

async function deployedFixture() {
  const { manifest } = await deployUSDX(hre);
  return manifest;
}

async function seededFixture() {
  await deployUSDX(hre);
  await seedLocalChain(hre);
  // The seed adds the Safe's contracts and the Operations Safe to the manifest.
  return readManifest(hre.network.name);
}

/** loadFixture reverts the chain to the fixture's snapshot; put its manifest back on disk to match. */
async function use(fixture: () => Promise<DeploymentManifest>): Promise<DeploymentManifest> {
  const manifest = await loadFixture(fixture);
  writeManifest(manifest);
  return manifest;
}

/** Runs a `usdx` task, returning what it printed. */
async function task(name: string, args: Record<string, unknown> = {}): Promise<string> {
  const lines: string[] = [];
  const log = console.log;
  console.log = (...parts: unknown[]) => lines.push(parts.join(" "));
  try {
    await hre.run({ scope: "usdx", task: name }, args);
  } finally {
    console.log = log;
  }
  return lines.join("\n");
}

const address = async (name: string) => (await ethers.getSigners())[seededAccount(name).index].address;

describe("scripts/deploy.ts", () => {
  it("deploys USDX behind a UUPS proxy and BatchPayments, and writes a manifest that matches the chain", async () => {
    const manifest = await use(deployedFixture);
    const [deployer] = await ethers.getSigners();
    expect(readManifest("hardhat")).to.deep.equal(manifest);
    expect(manifest.chainId).to.equal(31337);
    expect(manifest.owner).to.equal(deployer.address);
    expect(manifest.implementation).to.equal(await upgrades.erc1967.getImplementationAddress(manifest.proxy));
    const usdx = USDX__factory.connect(manifest.proxy, ethers.provider);
    expect(await usdx.name()).to.equal("XFT Digital Dollar");
    expect(await usdx.hasRole(ROLES.DEFAULT_ADMIN_ROLE, deployer.address)).to.equal(true);
    expect(await BatchPayments__factory.connect(manifest.batchPayments, ethers.provider).token()).to.equal(manifest.proxy);
    const block = await ethers.provider.getBlock(manifest.deploymentBlock);
    expect(block!.hash).to.equal(manifest.deploymentBlockHash);
    const initialized = await usdx.queryFilter(usdx.filters.Initialized(), manifest.deploymentBlock, manifest.deploymentBlock);
    expect(initialized).to.have.length(1);
  });

  it("makes USDX_OWNER the admin instead of the deployer", async () => {
    const [deployer, , , , , , , , , , , , other] = await ethers.getSigners();
    const { manifest } = await deployUSDX(hre, { owner: other.address });
    const usdx = USDX__factory.connect(manifest.proxy, ethers.provider);
    expect(await usdx.hasRole(ROLES.DEFAULT_ADMIN_ROLE, other.address)).to.equal(true);
    expect(await usdx.hasRole(ROLES.DEFAULT_ADMIN_ROLE, deployer.address)).to.equal(false);
    await expect(deployUSDX(hre, { owner: "0x1234" })).to.be.rejectedWith("USDX_OWNER '0x1234' is not a valid address.");
  });

  it("treats an empty USDX_OWNER (as .env.example leaves it) as the deployer", async () => {
    const saved = process.env.USDX_OWNER;
    process.env.USDX_OWNER = "";
    try {
      const { manifest } = await deployUSDX(hre);
      expect(manifest.owner).to.equal((await ethers.getSigners())[0].address);
    } finally {
      if (saved === undefined) delete process.env.USDX_OWNER;
      else process.env.USDX_OWNER = saved;
    }
  });

  it("is readable through the manifest alone by a plain ethers client (every view function)", async () => {
    const manifest = await use(seededFixture);
    const usdx = USDX__factory.connect(readManifest("hardhat").proxy, ethers.provider);
    const alice = await address("alice");
    const reads = await Promise.all([
      usdx.name(),
      usdx.symbol(),
      usdx.decimals(),
      usdx.totalSupply(),
      usdx.totalShares(),
      usdx.balanceOf(alice),
      usdx.sharesOf(alice),
      usdx.allowance(alice, manifest.batchPayments),
      usdx.nonces(alice),
      usdx.convertToShares(usd(1)),
      usdx.convertToTokens(usd(1)),
      usdx.rewardMultiplier(),
      usdx.paused(),
      usdx.isBlocked(alice),
      usdx.hasRole(ROLES.MINTER_ROLE, alice),
      usdx.getRoleAdmin(ROLES.MINTER_ROLE),
      usdx.DOMAIN_SEPARATOR(),
      usdx.eip712Domain(),
    ]);
    expect(reads).to.have.length(18);
    expect(reads[11]).to.equal(mult("1.015"));
  });
});

describe("common/manifestFile: loading a deployment", () => {
  it("says how to deploy when there is no manifest", () => {
    expect(() => readManifest("nowhere")).to.throw(/No USDX deployment for network 'nowhere'.*Deploy first/);
  });

  it("refuses a manifest from another run of the chain (its deployment block hash differs)", async () => {
    await use(deployedFixture);
    const file = manifestPath("hardhat");
    const original = readFileSync(file, "utf8");
    try {
      writeFileSync(file, original.replace(/"deploymentBlockHash": "0x[0-9a-f]{64}"/, `"deploymentBlockHash": "0x${"0".repeat(64)}"`));
      await expect(loadDeployment("hardhat", ethers.provider)).to.be.rejectedWith(/a deployment this chain does not have/);
    } finally {
      writeFileSync(file, original);
    }
  });

  it("refuses a manifest that is not JSON, naming the file", async () => {
    const file = manifestPath("broken");
    writeFileSync(file, "{ not json");
    expect(() => readManifest("broken")).to.throw(/broken.json is not valid JSON/);
  });
});

const defaultScenario = loadScenario(DEFAULT_SCENARIO);

describe("scripts/seed.ts (scenarios/default.yaml through the scenario engine)", () => {
  it("gives every role to its own named account, funds holders, blocks one and raises the multiplier", async () => {
    const manifest = await use(seededFixture);
    const usdx = USDX__factory.connect(manifest.proxy, ethers.provider);
    const signers = await ethers.getSigners();
    for (const account of SEEDED_ACCOUNTS) {
      const who = signers[account.index].address;
      for (const role of account.roles) expect(await usdx.hasRole(ROLES[role], who), `${account.name} ${role}`).to.equal(true);
      expect(await usdx.isBlocked(who), account.name).to.equal(account.blocked === true);
      if (account.funds) expect(await usdx.balanceOf(who), account.name).to.be.greaterThan(0n);
    }
    expect(await usdx.rewardMultiplier()).to.equal(mult("1.015"));
    // Both of the oracle's calls: set, then add.
    const steps = await usdx.queryFilter(usdx.filters.RewardMultiplier());
    expect(steps.map((e) => e.args.value)).to.deep.equal([mult("1"), mult("1.0125"), mult("1.015")]);
    const transfers = await usdx.queryFilter(usdx.filters.Transfer());
    // Each funded account's mint (its funds, at 1.0), the Operations Safe's, then the transfers.
    const funded = SEEDED_ACCOUNTS.filter((a) => a.funds);
    expect(transfers.slice(0, funded.length).map((t) => [t.args.to, t.args.value])).to.deep.equal(
      funded.map((a) => [signers[a.index].address, usd(a.funds!)]),
    );
    expect(transfers).to.have.length(funded.length + 1 + defaultScenario.history!.transfers!.length);
  });

  it("creates the Operations Safe: Safe v1.4.1, 2 of admin, minter and approver, holding MINTER, ORACLE and PAUSE beside their keys", async () => {
    const manifest = await use(seededFixture);
    const usdx = USDX__factory.connect(manifest.proxy, ethers.provider);
    const signers = await ethers.getSigners();
    expect(manifest.safes).to.have.length(1);
    const [named] = manifest.safes!;
    expect(named.name).to.equal("Operations Safe");
    const safe = new ethers.Contract(named.address, SAFE_INTERFACE, ethers.provider);
    expect(await safe.VERSION()).to.equal(SAFE_VERSION);
    expect(await safe.getOwners()).to.deep.equal(SEEDED_SAFE.owners.map((name) => signers[seededAccount(name).index].address));
    expect(await safe.getThreshold()).to.equal(2n);
    // Funded, so its owners can pay a batch from it at once.
    // (Its balance is the mint times the reward multiplier set after it.)
    const [mint] = await usdx.queryFilter(usdx.filters.Transfer(ethers.ZeroAddress, named.address));
    expect(mint.args.value).to.equal(usd("50000"));
    for (const role of ["MINTER_ROLE", "ORACLE_ROLE", "PAUSE_ROLE"] as const) {
      expect(await usdx.hasRole(ROLES[role], named.address), role).to.equal(true);
    }
    for (const role of ["DEFAULT_ADMIN_ROLE", "BURNER_ROLE", "BLOCKLIST_ROLE", "UPGRADE_ROLE"] as const) {
      expect(await usdx.hasRole(ROLES[role], named.address), role).to.equal(false);
    }
    // Each contract the manifest names for Safe has code on the chain.
    for (const address of Object.values(manifest.safeContracts!)) expect(await ethers.provider.getCode(address)).to.not.equal("0x");
  });

  it("changes nothing on a chain that is already seeded, and says so", async () => {
    await use(seededFixture);
    const blockBefore = await ethers.provider.getBlockNumber();
    const lines: string[] = [];
    const result = await seedLocalChain(hre, { log: (l) => lines.push(l) });
    expect(result.alreadySeeded).to.equal(true);
    expect(lines).to.deep.equal(["Plan for scenarios/default.yaml: nothing to send.", "The chain is already in this state: nothing sent."]);
    expect(await ethers.provider.getBlockNumber()).to.equal(blockBefore);
    expect(result.accounts.find((a) => a.name === "dave")!.blocked).to.equal(true);
    expect(result.safes.map((s) => [s.name, s.owners.join(","), s.threshold, s.roles.join(",")])).to.deep.equal([
      ["Operations Safe", "admin,minter,approver", 2, "MINTER,ORACLE,PAUSE"],
    ]);
  });

  it("refuses a chain without a deployment, saying to deploy first", async () => {
    const saved = process.env.DEPLOYMENTS_DIR;
    process.env.DEPLOYMENTS_DIR = path.join(dir, "empty");
    try {
      await expect(seedLocalChain(hre)).to.be.rejectedWith(/Deploy first/);
    } finally {
      process.env.DEPLOYMENTS_DIR = saved;
    }
  });
});

describe("tasks: npx hardhat usdx <task>", () => {
  it("status prints supply, multiplier, pause state, role holders by name and blocked accounts", async () => {
    await use(seededFixture);
    const out = await task("status");
    expect(out).to.match(/reward multiplier\s+1\.0150x/);
    expect(out).to.match(/paused\s+no/);
    // Holders are listed in address order: the Operations Safe, which holds MINTER_ROLE too, may come first.
    expect(out).to.match(new RegExp(`MINTER_ROLE\\s+(\\S+ \\([^)]+\\), )*${await address("minter")} \\(minter\\)`));
    expect(out).to.contain(`${await address("dave")} (dave)`);
  });

  it("status reads role holders through events, confirmed on chain (a revoked role disappears)", async () => {
    const manifest = await use(seededFixture);
    const usdx = USDX__factory.connect(manifest.proxy, (await ethers.getSigners())[0]);
    await usdx.revokeRole(ROLES.PAUSE_ROLE, await address("pauser"));
    await usdx.revokeRole(ROLES.ORACLE_ROLE, await address("oracle"));
    await usdx.revokeRole(ROLES.BURNER_ROLE, await address("burner"));
    const status = await readStatus(hre, manifest, 3);
    // The Operations Safe holds PAUSE and ORACLE beside the keys: it stays, named.
    const [safe] = manifest.safes!;
    expect(status.roleHolders.PAUSE_ROLE).to.deep.equal([safe.address]);
    expect(status.roleHolders.ORACLE_ROLE).to.deep.equal([safe.address]);
    expect(status.roleHolders.BURNER_ROLE).to.deep.equal([]);
    expect(status.blocked).to.deep.equal([await address("dave")]);
    expect(formatStatus(status)).to.match(/BURNER_ROLE\s+None assigned/);
    expect(formatStatus(status)).to.contain(`PAUSE_ROLE          ${safe.address} (Operations Safe)`);
  });

  it("mint sends as the account holding MINTER_ROLE and prints the transaction hash", async () => {
    const manifest = await use(seededFixture);
    const usdx = USDX__factory.connect(manifest.proxy, ethers.provider);
    const erin = await address("erin");
    const before = await usdx.balanceOf(erin);
    const out = await task("mint", { to: erin, amount: "12.5" });
    expect(out).to.match(/transaction 0x[0-9a-f]{64}/);
    expect(out).to.contain(`from ${await address("minter")}`);
    expect(await usdx.balanceOf(erin)).to.be.within(before + usd("12.5") - 1n, before + usd("12.5"));
  });

  it("burn from a blocked account fails with the custom error in words", async () => {
    await use(seededFixture);
    await expect(task("burn", { from: await address("dave"), amount: "1" })).to.be.rejectedWith(
      /is blocked: it cannot send tokens or have tokens burned/,
    );
  });

  it("--as sends as a named account, and a missing role is explained", async () => {
    await use(seededFixture);
    await expect(task("mint", { to: await address("erin"), amount: "1", as: "alice" })).to.be.rejectedWith(/does not hold MINTER_ROLE/);
    await expect(task("pause", { as: "nobody" })).to.be.rejectedWith(/No seeded account named 'nobody'/);
  });

  it("checks input before sending anything", async () => {
    await use(seededFixture);
    const block = await ethers.provider.getBlockNumber();
    await expect(task("mint", { to: "0x1234", amount: "1" })).to.be.rejectedWith(/not a valid address/);
    await expect(task("mint", { to: await address("erin"), amount: "-1" })).to.be.rejectedWith(/not a plain decimal/);
    await expect(task("mint", { to: await address("erin"), amount: "0" })).to.be.rejectedWith(/greater than 0/);
    await expect(task("grant-role", { role: "boss", account: await address("erin") })).to.be.rejectedWith("Invalid role: boss");
    expect(await ethers.provider.getBlockNumber()).to.equal(block);
  });

  it("block and unblock take one account or a comma-separated list", async () => {
    const manifest = await use(seededFixture);
    const usdx = USDX__factory.connect(manifest.proxy, ethers.provider);
    const [alice, bob] = [await address("alice"), await address("bob")];
    await task("block", { accounts: `${alice},${bob}` });
    expect([await usdx.isBlocked(alice), await usdx.isBlocked(bob)]).to.deep.equal([true, true]);
    await task("unblock", { accounts: alice });
    expect(await usdx.isBlocked(alice)).to.equal(false);
    await expect(task("unblock", { accounts: alice })).to.be.rejectedWith(/already in that blocklist state/);
  });

  it("pause, unpause, grant-role, revoke-role, set-multiplier and add-multiplier change the chain", async () => {
    const manifest = await use(seededFixture);
    const usdx = USDX__factory.connect(manifest.proxy, ethers.provider);
    await task("pause");
    expect(await usdx.paused()).to.equal(true);
    await expect(task("pause")).to.be.rejectedWith("USDX is already paused.");
    await task("unpause");
    expect(await usdx.paused()).to.equal(false);
    const erin = await address("erin");
    await task("grant-role", { role: "oracle", account: erin });
    expect(await usdx.hasRole(ROLES.ORACLE_ROLE, erin)).to.equal(true);
    await task("revoke-role", { role: "ORACLE_ROLE", account: erin });
    expect(await usdx.hasRole(ROLES.ORACLE_ROLE, erin)).to.equal(false);
    await task("set-multiplier", { value: "1.1", confirm: "1.1" });
    await task("add-multiplier", { increment: "0.01" });
    expect(await usdx.rewardMultiplier()).to.equal(mult("1.11"));
    await expect(task("set-multiplier", { value: "0.5", confirm: "0.5" })).to.be.rejectedWith(/cannot go below 1.0/);
  });

  it("set-multiplier and add-multiplier say the change to every balance, and refuse a decrease or a step above the bound unless --confirm repeats the value", async () => {
    const manifest = await use(seededFixture);
    const usdx = USDX__factory.connect(manifest.proxy, ethers.provider);
    expect(await usdx.rewardMultiplier()).to.equal(mult("1.015"));

    // 1.015 -> 1.1 is +8.37% to every balance: above the default 1%.
    await expect(task("set-multiplier", { value: "1.1" })).to.be.rejectedWith(
      "This raises every holder's balance by 8.3744%, more than the 1% one change may move it without a second look. " +
        "Nothing was sent. To send it, type the new multiplier again: --confirm 1.1",
    );
    await expect(task("set-multiplier", { value: "1.1", confirm: "1.10" })).to.be.rejectedWith(
      "--confirm 1.10 does not match 1.1: type the same new multiplier twice. Nothing was sent.",
    );
    expect(await usdx.rewardMultiplier()).to.equal(mult("1.015"));
    expect(await task("set-multiplier", { value: "1.1", confirm: "1.1" })).to.contain(
      "Set the reward multiplier to 1.1 (1.015 -> 1.1: +8.3744% to every balance)",
    );
    expect(await usdx.rewardMultiplier()).to.equal(mult("1.1"));

    // A step within the bound goes as it is, computed from the multiplier on the chain.
    expect(await task("add-multiplier", { increment: "0.01" })).to.contain(
      "Add 0.01 to the reward multiplier (1.1 -> 1.11: +0.9091% to every balance)",
    );

    // Any decrease, however small, is typed again.
    await expect(task("set-multiplier", { value: "1.105" })).to.be.rejectedWith(
      "This lowers the multiplier, so every holder's balance goes down (\u22120.4505%). Nothing was sent. To send it, type the new multiplier again: --confirm 1.105",
    );
    expect(await usdx.rewardMultiplier()).to.equal(mult("1.11"));

    // The bound: --max-step, else MULTIPLIER_MAX_STEP_PERCENT, else 1%.
    expect(await task("add-multiplier", { increment: "0.02", maxStep: "2" })).to.contain("+1.8019% to every balance");
    process.env.MULTIPLIER_MAX_STEP_PERCENT = "0.5";
    try {
      await expect(task("add-multiplier", { increment: "0.01" })).to.be.rejectedWith(
        /more than the 0\.5% one change may move it without a second look\. Nothing was sent\. To send it, type the increment again: --confirm 0\.01$/,
      );
      expect(await task("add-multiplier", { increment: "0.01", confirm: "0.01" })).to.contain("+0.885% to every balance");
    } finally {
      delete process.env.MULTIPLIER_MAX_STEP_PERCENT;
    }
    await expect(task("add-multiplier", { maxStep: "1%" })).to.be.rejectedWith(/percentage from 0 to 1000/);
    expect(await usdx.rewardMultiplier()).to.equal(mult("1.14"));
  });
});
