/**
 * The scenario engine (server/src/services/scenarios) on a freshly deployed chain (the in-process
 * Hardhat network, reverted to the deployment before each test): every shipped scenario reaches the
 * state its file states and, applied again, plans and sends nothing; the rules of the format; and
 * the CLI (scripts/scenario.ts), which refuses a wrong file and any chain but the local one.
 * Tagged [scenario]: they exercise the engine, not the contracts' lines, and 10,000 holders paid
 * through instrumented contracts would only slow the coverage run (npm run test:contracts:uncovered runs them).
 */
import { expect } from "chai";
import hre from "hardhat";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { BrowserProvider, JsonRpcProvider, Wallet, parseUnits, type Eip1193Provider } from "ethers";
import { deployUSDX } from "../scripts/deploy";
import { parseTokenAmount } from "@common/amounts";
import type { DeploymentManifest } from "@common/manifest";
import { readManifest, writeManifest } from "@common/manifestFile";
import { ROLE_NAMES, ROLES } from "@common/roles";
import { SEEDED_ACCOUNTS, SEEDED_SAFE } from "@common/seedAccounts";
import { crowdAddress, generatedKey, namedAccounts } from "../server/src/services/scenarios/accounts";
import { applyScenario, USER_PART_NOT_APPLIED, type ApplyOptions, type UserPart } from "../server/src/services/scenarios/apply";
import { DEFAULT_SCENARIO, listScenarios, loadScenario, parseScenario } from "../server/src/services/scenarios/load";
import { targetMultiplier } from "../server/src/services/scenarios/plan";
import { shippedScenarios } from "../server/src/services/scenarios/shipped";
import { balanceAt, tolerance } from "../server/src/services/scenarios/planner";
import { readBalances, readRoleHolders, tokenAt } from "../server/src/services/scenarios/read";
import type { Scenario } from "../server/src/services/scenarios/schema";
import { ROOT, run, startStandIn, type RunningNode } from "../scripts/lib/standIn";
import { rpc } from "../scripts/lib/stack/processes";

let dir: string;
let deployed: DeploymentManifest;
let snapshot: string;
const provider = new BrowserProvider(hre.network.provider as Eip1193Provider, undefined, { staticNetwork: true, cacheTimeout: -1 });
const savedDir = process.env.DEPLOYMENTS_DIR;

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "usdx-scenarios-"));
  process.env.DEPLOYMENTS_DIR = dir;
  ({ manifest: deployed } = await deployUSDX(hre));
  snapshot = await provider.send("evm_snapshot", []);
});

after(() => {
  if (savedDir === undefined) delete process.env.DEPLOYMENTS_DIR;
  else process.env.DEPLOYMENTS_DIR = savedDir;
  rmSync(dir, { recursive: true, force: true });
});

/** Back to the chain and the manifest just after the deployment. */
async function freshChain(): Promise<void> {
  await provider.send("evm_revert", [snapshot]);
  snapshot = await provider.send("evm_snapshot", []);
  writeManifest(deployed);
}

async function apply(scenario: Scenario, options: Partial<ApplyOptions> = {}) {
  const lines: string[] = [];
  const result = await applyScenario(scenario, { provider, network: hre.network.name, log: (l) => lines.push(l), ...options });
  return { ...result, lines };
}

const scenario = (yaml: string, name = "rules") => parseScenario(yaml, `scenarios/${name}.yaml`, name);

/** Asserts that the chain is in every state the file states, read back without the engine. */
async function expectState(s: Scenario): Promise<void> {
  const manifest = readManifest(hre.network.name);
  const usdx = tokenAt(manifest, provider);
  const accounts = new Map(namedAccounts(s).map((a) => [a.name, a.address]));
  const safes = new Map((manifest.safes ?? []).map((safe) => [safe.name, safe.address]));
  const addressOf = (name: string) => accounts.get(name) ?? safes.get(name) ?? name;
  const m = await usdx.rewardMultiplier();
  if (s.multiplier !== undefined) expect(m, "multiplier").to.equal(targetMultiplier(s));
  expect(await usdx.paused(), "paused").to.equal(s.paused === true);
  const holders = await readRoleHolders(usdx, manifest);
  for (const role of ROLE_NAMES) {
    const listed = s.roles?.[role];
    if (listed) expect([...holders[role]].sort(), role).to.deep.equal(listed.map(addressOf).sort());
  }
  for (const name of [...accounts.keys(), ...Object.keys(s.safes ?? {})]) {
    const address = addressOf(name);
    const wanted = s.balances?.[name] ?? "0";
    if (typeof wanted === "string") {
      // At its target, or above it by less than one share's worth: never below.
      const balance = await usdx.balanceOf(address);
      const target = parseTokenAmount(wanted);
      expect(balance >= target && balance - target <= tolerance(m), `${name}'s balance ${balance} against ${target}`).to.equal(true);
    } else expect(await usdx.sharesOf(address), `${name}'s shares`).to.equal(BigInt(wanted.shares));
    expect(await usdx.isBlocked(address), `${name} blocked`).to.equal((s.blocked ?? []).includes(name));
  }
  if (s.holders) {
    const crowd = Array.from({ length: s.holders.count }, (_, i) => crowdAddress(s.name, i));
    const shares = await readBalances(usdx, crowd, "sharesOf");
    const target = parseTokenAmount(s.holders.balance);
    const off = shares.filter((sh) => balanceAt(sh, m) < target || balanceAt(sh, m) - target > tolerance(m));
    expect(off.length, "holders below their balance").to.equal(0);
  }
}

describe("scenarios: each shipped file, on a freshly deployed chain [scenario]", () => {
  for (const { name, file } of listScenarios()) {
    it(`${name}: reaches the state its file states, and applied again plans and sends nothing`, async function () {
      this.timeout(600_000);
      await freshChain();
      const s = loadScenario(path.join(ROOT, file));
      const first = await apply(s);
      expect(first.sent, first.lines.join("\n")).to.be.greaterThan(0);
      expect(first.lines.at(-1)).to.match(/^Sent \d+ transactions?/);
      await expectState(s);

      const block = await provider.getBlockNumber();
      const again = await apply(s);
      expect(again.steps, again.lines.join("\n")).to.deep.equal([]);
      expect(again.sent).to.equal(0);
      expect(again.lines.at(-1)).to.equal("The chain is already in this state: nothing sent.");
      expect(await provider.getBlockNumber()).to.equal(block);
    });
  }

  it("default.yaml names the accounts the Development wallet and the tests know (common/seedAccounts.ts), and the same Operations Safe", () => {
    const s = loadScenario(DEFAULT_SCENARIO);
    expect(Object.entries(s.accounts).map(([name, a]) => [name, a.index])).to.deep.equal(SEEDED_ACCOUNTS.map((a) => [a.name, a.index]));
    expect(s.safes).to.deep.equal({ [SEEDED_SAFE.name]: { owners: [...SEEDED_SAFE.owners], threshold: SEEDED_SAFE.threshold } });
    expect(s.blocked).to.deep.equal(SEEDED_ACCOUNTS.filter((a) => a.blocked).map((a) => a.name));
    for (const account of SEEDED_ACCOUNTS) {
      const roles = ROLE_NAMES.filter((r) => s.roles?.[r]?.includes(account.name));
      expect(roles, account.name).to.deep.equal([...account.roles]);
    }
  });

  it("the panel's engine lists the shipped files with their sentences and applies one by name, never a path", async () => {
    await freshChain();
    const engine = shippedScenarios({ provider, network: hre.network.name });
    const list = await engine.list();
    expect(list.map((s) => s.name)).to.deep.equal([
      "blocked-payer",
      "default",
      "empty",
      "high-multiplier",
      "many-holders",
      "paused",
      "safe-admin",
      "sepolia-like",
    ]);
    expect(list.find((s) => s.name === "paused")).to.deep.equal({
      name: "paused",
      file: "scenarios/paused.yaml",
      description: loadScenario(path.join(ROOT, "scenarios", "paused.yaml")).description,
    });
    const progress: number[] = [];
    const result = await engine.apply("paused", (p) => void progress.push(p.done));
    expect(result.sent).to.be.greaterThan(0);
    expect(progress).to.deep.equal(result.steps.map((_, i) => i + 1));
    expect(await tokenAt(deployed, provider).paused()).to.equal(true);
    await expect(engine.apply("../package", () => undefined)).to.be.rejectedWith("There is no shipped scenario named '../package'.");
  });

  it("sepolia-like's generated history moves the chain's clock 30 days and says so", async function () {
    this.timeout(120_000);
    await freshChain();
    const before = (await provider.getBlock("latest"))!.timestamp;
    const result = await apply(loadScenario(path.join(ROOT, "scenarios", "sepolia-like.yaml")));
    const moved = (await provider.getBlock("latest"))!.timestamp - before;
    expect(moved).to.be.within(30 * 86_400 - 60, 30 * 86_400 + 600);
    expect(result.lines.join("\n")).to.contain("The history moves the chain's clock 30 days on.");
    expect(result.report.join("\n")).to.contain("The history moved the chain's clock 30 days on (block time).");
  });
});

const BASE = `description: The format's rules.
accounts:
  admin: { index: 0 }
  alice: { index: 7 }
  bob: { index: 8 }
`;

describe("scenarios: the state a file states [scenario]", () => {
  beforeEach(freshChain);

  it("roles are token-wide: a listed role ends with exactly its holders, an unlisted role keeps its own", async () => {
    const usdx = tokenAt(deployed, provider);
    const [admin, , , , , , , alice, bob] = await hre.ethers.getSigners();
    await usdx.connect(admin).grantRole(ROLES.BURNER_ROLE, bob.address);
    await usdx.connect(admin).grantRole(ROLES.PAUSE_ROLE, bob.address);
    const result = await apply(scenario(`${BASE}roles:\n  DEFAULT_ADMIN_ROLE: [admin]\n  BURNER_ROLE: [alice]\n`));
    expect(result.steps.map((s) => s.label)).to.deep.equal([
      "grant BURNER_ROLE to alice (as admin)",
      "revoke BURNER_ROLE from bob (as admin)",
    ]);
    expect(await usdx.hasRole(ROLES.BURNER_ROLE, alice.address)).to.equal(true);
    expect(await usdx.hasRole(ROLES.BURNER_ROLE, bob.address)).to.equal(false);
    expect(await usdx.hasRole(ROLES.PAUSE_ROLE, bob.address)).to.equal(true);
  });

  it("a named account left out of balances ends at 0 and one left out of blocked ends unblocked; an address it does not name keeps both", async () => {
    const usdx = tokenAt(deployed, provider);
    const signers = await hre.ethers.getSigners();
    const [admin, , , , , , , alice, , , , stranger] = signers;
    await usdx.connect(admin).grantRole(ROLES.MINTER_ROLE, admin.address);
    await usdx.connect(admin).grantRole(ROLES.BLOCKLIST_ROLE, admin.address);
    for (const who of [alice, stranger]) {
      await usdx.connect(admin).mint(who.address, parseTokenAmount("40"));
      await usdx.connect(admin).blockAccount(who.address);
    }
    const result = await apply(scenario(`${BASE}roles:\n  DEFAULT_ADMIN_ROLE: [admin]\n  BURNER_ROLE: [bob]\n`));
    expect(result.steps.map((s) => s.label)).to.deep.equal([
      "grant BURNER_ROLE to bob (as admin)",
      "unblock alice to burn from it (as admin)",
      "burn 40 USDX from alice (as bob)",
    ]);
    expect([await usdx.balanceOf(alice.address), await usdx.isBlocked(alice.address)]).to.deep.equal([0n, false]);
    expect([await usdx.balanceOf(stranger.address), await usdx.isBlocked(stranger.address)]).to.deep.equal([parseTokenAmount("40"), true]);
  });

  it("a role nobody holds is lent to an admin for the moment, and given back", async () => {
    const s = scenario(`${BASE}roles:\n  DEFAULT_ADMIN_ROLE: [admin]\n  MINTER_ROLE: []\nbalances:\n  alice: "12.5"\nblocked: [bob]\n`);
    const result = await apply(s);
    expect(result.steps.map((x) => x.label)).to.deep.equal([
      "grant MINTER_ROLE to admin for the moment (as admin)",
      "mint 12.5 USDX to alice (as admin)",
      "grant BLOCKLIST_ROLE to admin for the moment (as admin)",
      "block bob (as admin)",
      "revoke MINTER_ROLE from admin (as admin)",
      "revoke BLOCKLIST_ROLE from admin (as admin)",
    ]);
    await expectState(s);
    expect((await apply(s)).steps).to.deep.equal([]);
  });

  it("a paused token is unpaused to move tokens, and paused again when the file says so", async () => {
    const s = scenario(`${BASE}roles:\n  MINTER_ROLE: [alice]\n  PAUSE_ROLE: [bob]\nbalances:\n  alice: "1"\npaused: true\n`);
    await apply(s);
    const later = scenario(`${BASE}roles:\n  MINTER_ROLE: [alice]\n  PAUSE_ROLE: [bob]\nbalances:\n  alice: "2"\npaused: true\n`);
    const result = await apply(later);
    expect(result.steps.map((x) => x.label)).to.deep.equal([
      "unpause USDX (as bob)",
      "mint 1 USDX to alice (as alice)",
      "pause USDX (as bob)",
    ]);
    await expectState(later);
    // Left out, paused means not paused.
    const unpaused = await apply(scenario(`${BASE}balances:\n  alice: "2"\n`));
    expect(unpaused.steps.map((x) => x.label)).to.deep.equal(["unpause USDX (as bob)"]);
  });

  it("a balance is a target: reached at it or less than one share's worth above, also after the multiplier moves", async () => {
    const s = scenario(`${BASE}roles:\n  MINTER_ROLE: [admin]\n  ORACLE_ROLE: [admin]\nbalances:\n  alice: "100"\n  bob: { shares: 1 }\n`);
    await apply(s);
    const at = scenario(
      `${BASE}roles:\n  MINTER_ROLE: [admin]\n  ORACLE_ROLE: [admin]\nbalances:\n  alice: "100"\n  bob: { shares: 1 }\nmultiplier: "1.37"\n`,
    );
    const result = await apply(at);
    const labels = result.steps.map((x) => x.label);
    expect(labels[0]).to.equal("set the reward multiplier to 1.37 (as admin)");
    // 100 shares are worth 137 at 1.37: the fewest shares worth 100 are kept, so she ends a wei above it.
    expect(labels.slice(1)).to.deep.equal([
      "grant BURNER_ROLE to admin for the moment (as admin)",
      "burn 36.999999999999999999 USDX from alice (as admin)",
      "revoke BURNER_ROLE from admin (as admin)",
    ]);
    expect(await tokenAt(deployed, provider).balanceOf((await hre.ethers.getSigners())[7].address)).to.equal(parseTokenAmount("100") + 1n);
    await expectState(at);
    const usdx = tokenAt(deployed, provider);
    expect(await usdx.balanceOf((await hre.ethers.getSigners())[8].address)).to.equal(1n);
    expect((await apply(at)).steps).to.deep.equal([]);
  });

  it("a history counts as made when the chain's Transfer logs hold each of its transfers; its senders are funded first", async () => {
    const history = `history:\n  transfers:\n    - { from: alice, to: bob, amount: "30" }\n    - { from: bob, to: alice, amount: "5" }\n`;
    const s = scenario(`${BASE}roles:\n  MINTER_ROLE: [admin]\n  BURNER_ROLE: [admin]\nbalances:\n  bob: "25"\n${history}`);
    const first = await apply(s);
    // alice sends 30 before she gets 5 back: she is funded with 30, and her 5 burned after.
    expect(first.steps.map((x) => x.label)).to.deep.equal([
      "grant MINTER_ROLE to admin (as admin)",
      "grant BURNER_ROLE to admin (as admin)",
      "mint 30 USDX to alice (as admin)",
      "alice sends 30 USDX to bob",
      "bob sends 5 USDX to alice",
      "burn 5 USDX from alice (as admin)",
    ]);
    await expectState(s);
    // Other balances, the same history: the transfers are not made again.
    const more = scenario(`${BASE}roles:\n  MINTER_ROLE: [admin]\n  BURNER_ROLE: [admin]\nbalances:\n  bob: "50"\n${history}`);
    expect((await apply(more)).steps.map((x) => x.label)).to.deep.equal(["mint 25 USDX to bob (as admin)"]);
  });

  it("a generated account gets the same key each time (from the scenario's and its name), ETH for gas, and is printed with its key", async () => {
    const s = scenario(`${BASE}  tester: { generated: true }\nroles:\n  MINTER_ROLE: [tester]\n`, "keys");
    const key = generatedKey("keys", "tester");
    const address = new Wallet(key).address;
    const result = await apply(s);
    expect(result.steps.map((x) => x.label)).to.deep.equal([
      "give tester 10,000 ETH for gas (hardhat_setBalance, not a transaction)",
      "grant MINTER_ROLE to tester (as admin)",
    ]);
    expect(result.lines.at(-1)).to.equal("Sent 1 transaction and made 1 node call.");
    expect(await tokenAt(deployed, provider).hasRole(ROLES.MINTER_ROLE, address)).to.equal(true);
    const report = result.report.join("\n");
    expect(report).to.contain("Seeded accounts (test keys: never use them on a real network)");
    expect(report).to.match(new RegExp(`tester\\s+${address}\\s+${key}`));
    expect(report).to.contain("test keys only, never use them on a real network");
    expect((await apply(s)).steps).to.deep.equal([]);
  });

  it("sends as the Safe itself (impersonated) when only it holds the role, and records a Safe it creates in the manifest", async () => {
    const s = scenario(
      `${BASE}safes:\n  Treasury: { owners: [alice, bob], threshold: 2 }\nroles:\n  DEFAULT_ADMIN_ROLE: [Treasury]\n  MINTER_ROLE: [Treasury]\nbalances:\n  bob: "7"\n`,
    );
    const result = await apply(s);
    expect(result.steps.map((x) => x.label)).to.deep.equal([
      "deploy Safe v1.4.1 (singleton, proxy factory, fallback handler, MultiSendCallOnly: 4 transactions) (as admin)",
      "create the Treasury (2 of alice, bob) (as admin)",
      "grant DEFAULT_ADMIN_ROLE to the Treasury (as admin)",
      "grant MINTER_ROLE to the Treasury (as admin)",
      "revoke DEFAULT_ADMIN_ROLE from admin (as the Treasury)",
      "mint 7 USDX to bob (as the Treasury)",
    ]);
    expect(result.sent).to.equal(9);
    const treasury = readManifest(hre.network.name).safes!.find((x) => x.name === "Treasury")!;
    expect(result.safes.map((x) => [x.name, x.address, x.owners.join(","), x.threshold])).to.deep.equal([
      ["Treasury", treasury.address, "alice,bob", 2],
    ]);
    await expectState(s);
    expect((await apply(s)).steps).to.deep.equal([]);
  });

  it("a step the chain refuses is named, with the contract's reason in words and what was sent before it", async () => {
    const [admin, , , , , , , alice] = await hre.ethers.getSigners();
    const usdx = tokenAt(deployed, provider);
    const s = scenario(`${BASE}roles:\n  MINTER_ROLE: [alice]\nbalances:\n  bob: "5"\n`);
    // The chain changes under the plan: the minter loses its role after the first step.
    const onProgress = async ({ done }: { done: number }) => {
      if (done === 1) await usdx.connect(admin).revokeRole(ROLES.MINTER_ROLE, alice.address);
    };
    await expect(apply(s, { onProgress })).to.be.rejectedWith(
      `Step 2 of 2 (mint 5 USDX to bob (as alice)) failed: The account ${alice.address} does not hold MINTER_ROLE, which this action needs. 1 transaction had been sent; applying the file again plans only what is still missing.`,
    );
  });

  it("--dry-run prints the plan and sends nothing", async () => {
    const block = await provider.getBlockNumber();
    const result = await apply(scenario(`${BASE}roles:\n  MINTER_ROLE: [alice]\n`), { dryRun: true });
    expect(result.lines).to.deep.equal([
      "Plan for scenarios/rules.yaml (1 step):",
      "  1. grant MINTER_ROLE to alice (as admin)",
      "Dry run: nothing sent.",
    ]);
    expect(result.sent).to.equal(0);
    expect(await provider.getBlockNumber()).to.equal(block);
  });

  it("a file's user part: said not to be applied without the API server's hook; with one, planned first and its steps sent after the balances, its payer funded and unblocked, then blocked again", async () => {
    const s = scenario(
      `${BASE}balances:\n  alice: "10"\nblocked: [alice]\nuser:\n  email: tester@example.com\n  password: secret1\n  wallet: alice\n`,
    );
    const without = await apply(s, { dryRun: true });
    expect(without.lines).to.contain(`  - ${USER_PART_NOT_APPLIED}`);
    expect((await apply(s, { dryRun: true, userPartNote: "not now" })).lines).to.contain("  - not now");

    // A stand-in for the API server's part: it pays 3 USDX of alice's to an address the file does not name, as a batch chunk would.
    const usdx = tokenAt(deployed, provider);
    const signers = await hre.ethers.getSigners();
    const [alice, stranger] = [signers[7], signers[11]];
    const seen: string[] = [];
    let paid = false;
    const userPart: UserPart = async (given, ctx) => {
      seen.push(`${given.user!.email} ${ctx.addressOf(given.user!.wallet!)}`);
      if (paid) return { actions: [], payer: null, report: ["the user"] };
      return {
        actions: [
          { label: "create the Firebase test user tester@example.com", transactions: 0, run: async () => undefined },
          {
            label: "pay 3 USDX from alice",
            transactions: 1,
            run: async () => {
              const signer = await ctx.signer("alice");
              // The key's own signer: it signs messages too (the bank's challenge).
              expect(await signer.signMessage("hello")).to.match(/^0x[0-9a-f]{130}$/);
              await (await usdx.connect(signer).transfer(stranger.address, parseUnits("3", 18))).wait();
              paid = true;
            },
          },
        ],
        payer: { address: ctx.addressOf("alice"), amounts: [parseUnits("3", 18)] },
        report: ["the user"],
      };
    };
    const hooked = await apply(s, { userPart });
    expect(seen).to.deep.equal([`tester@example.com ${alice.address}`]);
    expect(hooked.lines).to.not.contain(`  - ${USER_PART_NOT_APPLIED}`);
    const labels = hooked.steps.map((step) => step.label);
    expect(labels).to.deep.equal([
      "grant MINTER_ROLE to admin for the moment (as admin)",
      "mint 13 USDX to alice (as admin)",
      "create the Firebase test user tester@example.com",
      "pay 3 USDX from alice",
      "grant BLOCKLIST_ROLE to admin for the moment (as admin)",
      "block alice (as admin)",
      "revoke MINTER_ROLE from admin (as admin)",
      "revoke BLOCKLIST_ROLE from admin (as admin)",
    ]);
    expect(hooked.lines).to.contain("Sent 7 transactions and made 1 request to the API server.");
    expect(hooked.report.at(-1)).to.equal("the user");
    expect(await usdx.balanceOf(alice.address)).to.equal(parseUnits("10", 18));
    expect(await usdx.isBlocked(alice.address)).to.equal(true);

    // Applied again, the user part has nothing to do: nothing is sent, alice stays blocked.
    const again = await apply(s, { userPart });
    expect(again.sent).to.equal(0);
    expect(again.steps).to.deep.equal([]);
  });
});

describe("scripts/scenario.ts: the CLI [scenario]", () => {
  let standIn: RunningNode;

  before(async function () {
    this.timeout(90_000);
    standIn = await startStandIn();
  });

  after(async () => standIn?.stop());

  const cli = (args: string[], env: Record<string, string> = {}) =>
    run(process.execPath, ["-r", "ts-node/register/transpile-only", path.join(ROOT, "scripts", "scenario.ts"), ...args], env);

  it("refuses a wrong file with its file, line, field and a sentence, exit code 2, before it asks any node", async function () {
    this.timeout(60_000);
    const file = path.join(dir, "wrong.yaml");
    writeFileSync(file, `${BASE}balances:\n  alice: lots\n`);
    const { code, output } = await cli(["apply", file], { LOCAL_RPC_PORT: "1" });
    expect(code).to.equal(2);
    expect(output.trim()).to.equal(`${file}, line 7, balances.alice: must be an amount of USDX such as "1000" or "0.5", or { shares: N }`);
  });

  it("refuses any chain but the local one, naming it, exit code 1, and sends nothing", async function () {
    this.timeout(60_000);
    const block = await rpc<string>(standIn.url, "eth_blockNumber");
    const { code, output } = await cli(["apply", "scenarios/default.yaml", "--rpc-url", standIn.url]);
    expect(code, output).to.equal(1);
    expect(output.trim()).to.equal(
      "This node is chain 11155111 (Sepolia), not the local chain (31337) or a fork of it: a scenario sends as any account it names through the node, so it runs only there. Nothing was sent.",
    );
    expect(await rpc<string>(standIn.url, "eth_blockNumber")).to.equal(block);
    const direct = new JsonRpcProvider(standIn.url, 11155111, { staticNetwork: true });
    try {
      await expect(applyScenario(loadScenario(DEFAULT_SCENARIO), { provider: direct })).to.be.rejectedWith(
        /This node is chain 11155111 \(Sepolia\)/,
      );
    } finally {
      direct.destroy();
    }
  });

  it("says how to use it, exit code 2", async function () {
    this.timeout(60_000);
    const { code, output } = await cli(["apply"]);
    expect(code).to.equal(2);
    expect(output.trim()).to.equal(
      "Which scenario? usage: npm run scenario -- apply <file> [--dry-run] [--rpc-url <url>] [--api-url <url>] | list | snapshot <name> | restore <name> | snapshots",
    );
  });
});
