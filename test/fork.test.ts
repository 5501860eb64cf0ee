/**
 * `npm start -- --fork <rpc-url>`'s core, prepareFork, against a stand-in upstream: a Hardhat node
 * with Sepolia's chain id on which `npm run deploy:sepolia` deployed USDX for an owner the fork node
 * does not sign for, and a second Hardhat node forking it. The live token is adopted on the fork
 * (the owner impersonated there), and the upstream sees none of it.
 */
import { expect } from "chai";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Contract, HDNodeWallet, JsonRpcProvider, Wallet, toQuantity } from "ethers";
import { USDX__factory } from "@bindings";
import { ForkPreparation, prepareFork, recordFork } from "../scripts/lib/fork";
import { parseForkOptions, parseStartOptions, shownRpcUrl } from "../scripts/lib/forkOptions";
import { applyScenario } from "../server/src/services/scenarios/apply";
import { parseScenario } from "../server/src/services/scenarios/load";
import { readAccounts } from "../server/src/services/scenarios/report";
import { parseTokenAmount } from "@common/amounts";
import type { DeploymentManifest } from "@common/manifest";
import { checkDeploymentOnChain, readManifest, writeManifest } from "@common/manifestFile";
import { LOCAL_CHAIN, SEPOLIA, chainIdHex } from "@common/networks";
import { ROLE_NAMES, ROLES } from "@common/roles";
import { LOCAL_DEV_MNEMONIC, SEEDED_ACCOUNTS, SEEDED_SAFE, localAccountPath, seededAccount, seededAddresses } from "@common/seedAccounts";
import { SAFE_INTERFACE, execTransactionArgs, packSignatures, plainSafeTx, safeTypedData } from "@common/safe";
import { encodeTokenCall } from "@common/safeCalls";
import { createSafe, deploySafeContracts } from "../server/src/services/scenarios/safeContracts";
import { rpc } from "../server/test/stack";
import { OWNER, RunningNode, deployToStandIn, startNode, startStandIn, waitForChain } from "../scripts/lib/standIn";

const nodes: RunningNode[] = [];
let work: string;
let upstreamUrl: string;
let forkUrl: string;
let deployed: DeploymentManifest;
let forkBlock: number;
let upstreamHeight: number;
let upstream: JsonRpcProvider;
let fork: JsonRpcProvider;
let adopted: ForkPreparation;
/** The upstream's Safe: 4 outside owners, all 4 needed, holding MINTER_ROLE. */
let upstreamSafe: string;
let upstreamSafeOwners: string[];
let safeGrantBlock: number;
const dirOf = (name: string) => path.join(work, name);
const addressOf = (name: string) => seededAddresses()[seededAccount(name).index];

/**
 * A Safe on the upstream that the fork node signs for none of: 4 owners outside the seeded accounts,
 * threshold 4, holding MINTER_ROLE (granted by the token's owner), named in the live manifest.
 */
async function addUpstreamSafe(): Promise<void> {
  const provider = new JsonRpcProvider(upstreamUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
  try {
    const deployer = await provider.getSigner(0);
    const contracts = await deploySafeContracts(deployer);
    upstreamSafeOwners = [41, 42, 43, 44].map((i) => HDNodeWallet.fromPhrase(LOCAL_DEV_MNEMONIC, undefined, localAccountPath(i)).address);
    upstreamSafe = await createSafe(deployer, contracts, upstreamSafeOwners, 4);
    const ownerKey = HDNodeWallet.fromPhrase(LOCAL_DEV_MNEMONIC, undefined, localAccountPath(40));
    await provider.send("hardhat_setBalance", [OWNER, toQuantity(10n ** 18n)]);
    const asOwner = USDX__factory.connect(deployed.proxy, new Wallet(ownerKey.privateKey, provider));
    const receipt = await (await asOwner.grantRole(ROLES.MINTER_ROLE, upstreamSafe)).wait();
    safeGrantBlock = receipt!.blockNumber;
    deployed = { ...deployed, safes: [{ name: "Treasury Safe", address: upstreamSafe }] };
    writeManifest(deployed, { DEPLOYMENTS_DIR: dirOf("live") });
  } finally {
    provider.destroy();
  }
}

describe("prepareFork: a Hardhat node forking a chain with a live USDX", () => {
  before(async function () {
    this.timeout(120_000);
    work = mkdtempSync(path.join(tmpdir(), "usdx-fork-"));
    const standIn = await startStandIn();
    nodes.push(standIn);
    upstreamUrl = standIn.url;
    deployed = await deployToStandIn(upstreamUrl, dirOf("live"));
    await addUpstreamSafe();
    // One evm_mine at a time: the node's hardhat_mine leaves blocks without code (see adopt.test.ts).
    for (let i = 0; i < 5; i++) await rpc(upstreamUrl, "evm_mine");

    upstreamHeight = Number(await rpc<string>(upstreamUrl, "eth_blockNumber"));
    // A fork block before the tip: FORK_BLOCK's path, and a block number the badge must name exactly.
    forkBlock = upstreamHeight - 1;
    const forkNode = await startNode([], ["--fork", upstreamUrl, "--fork-block-number", String(forkBlock)]);
    nodes.push(forkNode);
    forkUrl = forkNode.url;
    await waitForChain(forkUrl, LOCAL_CHAIN.chainId, forkNode.child);
    upstream = new JsonRpcProvider(upstreamUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
    fork = new JsonRpcProvider(forkUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
    adopted = await prepareFork({ rpcUrl: forkUrl, upstreamUrl, deploymentsDir: dirOf("live") });
  });

  after(async () => {
    upstream?.destroy();
    fork?.destroy();
    await Promise.all(nodes.map((node) => node.stop()));
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("keeps the local chain id on the fork, so a wallet never takes it for the real network", async () => {
    expect(await rpc<string>(forkUrl, "eth_chainId")).to.equal(chainIdHex(LOCAL_CHAIN.chainId));
  });

  it("adopts the live USDX and writes localhost.json: the upstream's proxy and history, the fork's chain id, and what it forks", async () => {
    expect(adopted.kind).to.equal("adopted");
    const manifest = readManifest("localhost", { DEPLOYMENTS_DIR: dirOf("live") });
    expect(manifest).to.deep.equal({
      ...deployed,
      network: "localhost",
      chainId: LOCAL_CHAIN.chainId,
      fork: { chainId: SEPOLIA.chainId, name: "Sepolia", block: forkBlock },
    });
    expect(manifest.owner).to.equal(OWNER);
    // What the server checks before it indexes: the upstream's deployment block, seen through the fork.
    await checkDeploymentOnChain(manifest, fork);
  });

  it("serves the token's history from its deployment block through the fork, as the indexer reads it", async () => {
    const usdx = USDX__factory.connect(deployed.proxy, fork);
    const grants = await usdx.queryFilter(usdx.filters.RoleGranted(), deployed.deploymentBlock);
    const before = grants.filter((e) => e.blockNumber <= forkBlock);
    const after = grants.filter((e) => e.blockNumber > forkBlock);
    expect(before.map((e) => [e.blockNumber, e.args.account])).to.deep.equal([
      [deployed.deploymentBlock, OWNER],
      [safeGrantBlock, upstreamSafe],
    ]);
    const roles = SEEDED_ACCOUNTS.reduce((n, a) => n + a.roles.length, 0);
    expect(after.map((e) => e.args.sender)).to.deep.equal(Array(roles).fill(OWNER));
  });

  it("gives each seeded account its roles, its ETH and its test balance on the fork, and blocks the one marked blocked", async () => {
    const usdx = USDX__factory.connect(deployed.proxy, fork);
    const rows = await readAccounts(
      usdx,
      SEEDED_ACCOUNTS.map((a) => ({ name: a.name, address: addressOf(a.name) })),
    );
    for (const [i, account] of SEEDED_ACCOUNTS.entries()) {
      const row = rows[i];
      expect(row.roles, account.name).to.deep.equal(account.roles.map((r) => r.replace(/_ROLE$/, "")));
      expect(row.balance, account.name).to.equal(account.funds ? parseTokenAmount(account.funds) : 0n);
      expect(row.blocked, account.name).to.equal(account.blocked === true);
      expect(await fork.getBalance(row.address), account.name).to.be.greaterThanOrEqual(10n ** 21n);
    }
    // The impersonation ended with the preparation.
    await expect(fork.send("eth_sendTransaction", [{ from: OWNER, to: OWNER, value: "0x0" }])).to.be.rejected;
  });

  it("makes the seeded Safe owners owners of the upstream's Safe on the fork, keeping its owners, and lowers a threshold they could not reach", async () => {
    const safe = new Contract(upstreamSafe, SAFE_INTERFACE, fork);
    const seeded = SEEDED_SAFE.owners.map(addressOf);
    expect([...(await safe.getOwners())].sort()).to.deep.equal([...upstreamSafeOwners, ...seeded].sort());
    expect(await safe.getThreshold()).to.equal(BigInt(seeded.length));
    // Rehearsal: the seeded owners alone mint through the Safe on the fork.
    const tx = plainSafeTx(deployed.proxy, encodeTokenCall("mint", [addressOf("erin"), parseTokenAmount("7")]), await safe.nonce());
    const { domain, types, message } = safeTypedData(LOCAL_CHAIN.chainId, upstreamSafe, tx);
    const signatures = await Promise.all(
      seeded.map(async (owner) => ({
        owner,
        signature: await (await fork.getSigner(owner)).signTypedData(domain, { SafeTx: [...types.SafeTx] }, message),
      })),
    );
    const asAdmin = safe.connect(await fork.getSigner(addressOf("admin"))) as Contract;
    await (await asAdmin.getFunction("execTransaction")(...execTransactionArgs(tx, packSignatures(signatures)))).wait();
    expect(await USDX__factory.connect(deployed.proxy, fork).balanceOf(addressOf("erin"))).to.equal(parseTokenAmount("7"));
    // The impersonation ended with the preparation.
    await expect(fork.send("eth_sendTransaction", [{ from: upstreamSafe, to: upstreamSafe, value: "0x0" }])).to.be.rejected;
  });

  it("changes nothing on a second run (the holders are topped up only below their test balance)", async () => {
    const height = await fork.getBlockNumber();
    const again = await prepareFork({ rpcUrl: forkUrl, upstreamUrl, deploymentsDir: dirOf("live") });
    expect(again.kind).to.equal("adopted");
    expect(await fork.getBlockNumber()).to.equal(height);
  });

  it("lets a seeded holder transfer on the fork", async () => {
    const usdx = USDX__factory.connect(deployed.proxy, await fork.getSigner(addressOf("alice")));
    const before = await usdx.balanceOf(addressOf("bob"));
    await (await usdx.transfer(addressOf("bob"), parseTokenAmount("12.5"))).wait();
    expect(await usdx.balanceOf(addressOf("bob"))).to.equal(before + parseTokenAmount("12.5"));
  });

  it("applies a scenario on the fork of the live token, sending as the live owner (impersonated) where only it may act; again, nothing", async () => {
    const env = { DEPLOYMENTS_DIR: dirOf("live") };
    const s = parseScenario(
      `description: On a fork.\naccounts:\n  admin: { index: 0 }\n  alice: { index: 7 }\nroles:\n  DEFAULT_ADMIN_ROLE: [${OWNER}]\n  PAUSE_ROLE: [alice]\nbalances:\n  alice: "123"\n`,
      "scenarios/fork.yaml",
      "fork",
    );
    const first = await applyScenario(s, { provider: fork, env });
    expect(first.steps.map((x) => x.label)).to.deep.equal([
      "grant PAUSE_ROLE to alice (as admin)",
      // An address the file does not name is shown as itself.
      `revoke PAUSE_ROLE from ${addressOf("pauser")} (as admin)`,
      `revoke DEFAULT_ADMIN_ROLE from admin (as ${OWNER})`,
      `burn 100,000 USDX from admin (as ${addressOf("burner")})`,
      `burn 9,864.5 USDX from alice (as ${addressOf("burner")})`,
    ]);
    const usdx = USDX__factory.connect(deployed.proxy, fork);
    expect(await usdx.hasRole(ROLES.DEFAULT_ADMIN_ROLE, addressOf("admin"))).to.equal(false);
    expect(await usdx.hasRole(ROLES.PAUSE_ROLE, addressOf("alice"))).to.equal(true);
    expect(await usdx.balanceOf(addressOf("alice"))).to.equal(parseTokenAmount("123"));
    const height = await fork.getBlockNumber();
    expect((await applyScenario(s, { provider: fork, env })).steps).to.deep.equal([]);
    expect(await fork.getBlockNumber()).to.equal(height);
    // The impersonation ended with the apply.
    await expect(fork.send("eth_sendTransaction", [{ from: OWNER, to: OWNER, value: "0x0" }])).to.be.rejected;
  });

  it("leaves the upstream as it was: no new block, no roles or balances for the seeded accounts", async () => {
    expect(await upstream.getBlockNumber()).to.equal(upstreamHeight);
    const usdx = USDX__factory.connect(deployed.proxy, upstream);
    for (const address of seededAddresses()) {
      for (const role of ROLE_NAMES) expect(await usdx.hasRole(ROLES[role], address), role).to.equal(false);
      expect(await usdx.balanceOf(address)).to.equal(0n);
    }
    expect(await usdx.hasRole(ROLES.DEFAULT_ADMIN_ROLE, OWNER)).to.equal(true);
    expect(await usdx.totalSupply()).to.equal(0n);
    const safe = new Contract(upstreamSafe, SAFE_INTERFACE, upstream);
    expect(await safe.getOwners()).to.deep.equal(upstreamSafeOwners);
    expect(await safe.getThreshold()).to.equal(4n);
  });

  describe("when there is no live USDX to adopt", () => {
    it("answers 'replica' without a manifest for the forked chain, and changes nothing", async () => {
      mkdirSync(dirOf("empty"));
      const height = await fork.getBlockNumber();
      const answer = await prepareFork({ rpcUrl: forkUrl, upstreamUrl, deploymentsDir: dirOf("empty") });
      expect(answer).to.deep.equal({
        kind: "replica",
        fork: { chainId: SEPOLIA.chainId, name: "Sepolia", block: forkBlock },
        reason: "no manifest in the deployments for Sepolia (chain 11155111)",
      });
      expect(await fork.getBlockNumber()).to.equal(height);
    });

    it("answers 'replica' when the manifest's proxy has no code on the fork", async () => {
      writeManifest({ ...deployed, proxy: OWNER }, { DEPLOYMENTS_DIR: dirOf("stale") });
      const answer = await prepareFork({ rpcUrl: forkUrl, upstreamUrl, deploymentsDir: dirOf("stale") });
      expect(answer.kind).to.equal("replica");
      expect(answer.kind === "replica" && answer.reason).to.equal(
        `the sepolia manifest's proxy ${OWNER} has no code at block ${forkBlock}`,
      );
    });

    it("recordFork adds the fork's description to the replica's manifest", () => {
      const env = { DEPLOYMENTS_DIR: dirOf("replica") };
      writeManifest({ ...deployed, network: "localhost", chainId: LOCAL_CHAIN.chainId }, env);
      const fork = { chainId: SEPOLIA.chainId, name: "Sepolia", block: forkBlock };
      recordFork(fork, dirOf("replica"));
      expect(readManifest("localhost", env).fork).to.deep.equal(fork);
    });
  });
});

describe("npm start's fork options", () => {
  const url = "https://eth-sepolia.example/v2/key";
  it("reads --fork and --fork-block, in either spelling, before FORK_URL and FORK_BLOCK", () => {
    expect(parseForkOptions(["--fork", url], {})).to.deep.equal({ url });
    expect(parseForkOptions([`--fork=${url}`, "--fork-block=7012345"], {})).to.deep.equal({ url, block: 7012345 });
    expect(parseForkOptions([], { FORK_URL: url, FORK_BLOCK: "12" })).to.deep.equal({ url, block: 12 });
    expect(parseForkOptions(["--fork", "http://127.0.0.1:8546"], { FORK_URL: url })).to.deep.equal({ url: "http://127.0.0.1:8546" });
  });

  it("is null without a fork: npm start as it always was", () => {
    expect(parseForkOptions([], {})).to.equal(null);
    expect(parseForkOptions([], { FORK_URL: "" })).to.equal(null);
  });

  it("refuses what it cannot use, saying why", () => {
    expect(() => parseForkOptions(["--fork"], {})).to.throw("--fork needs a value");
    expect(() => parseForkOptions(["--forks", url], {})).to.throw("Unknown option '--forks'");
    expect(() => parseForkOptions(["--fork", "sepolia"], {})).to.throw("'sepolia' is not a URL");
    expect(() => parseForkOptions(["--fork", "wss://x.example"], {})).to.throw("must be http or https");
    expect(() => parseForkOptions(["--fork", url, "--fork-block", "latest"], {})).to.throw("not 'latest'");
    expect(() => parseForkOptions([], { FORK_BLOCK: "5" })).to.throw("needs a chain to fork");
  });

  it("reads --scenario, alone or beside a fork; without it npm start seeds scenarios/default.yaml as always", () => {
    expect(parseStartOptions(["--scenario", "scenarios/paused.yaml"], {})).to.deep.equal({ fork: null, scenario: "scenarios/paused.yaml" });
    expect(parseStartOptions(["--fork", url, "--scenario=scenarios/empty.yaml"], {})).to.deep.equal({
      fork: { url },
      scenario: "scenarios/empty.yaml",
    });
    expect(parseStartOptions([], {})).to.deep.equal({ fork: null, scenario: null });
    expect(() => parseStartOptions(["--scenario"], {})).to.throw("--scenario needs a value");
  });

  it("prints a provider's URL without the path that holds its key", () => {
    expect(shownRpcUrl(url)).to.equal("https://eth-sepolia.example");
  });
});
