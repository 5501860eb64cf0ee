/**
 * `npm start -- --fork <rpc-url>` as a person runs it (issue 14), offline: a Hardhat node with
 * Sepolia's chain id stands in for Sepolia; the project's own `npm run deploy:sepolia` deploys USDX
 * onto it for an owner nobody here signs for; the real `npm start` forks it on free ports, adopts
 * that live USDX, and the browser works against the stack it prints: Vite's dev server (which
 * forwards /api to the API server), the Auth emulator, and the fork node the wallet signs on.
 * Every test checks the chain, not only the page; the upstream must come out unchanged.
 */
import { ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "chai";
import { JsonRpcProvider, Wallet, parseUnits } from "ethers";
import { parseTokenAmount } from "@common/amounts";
import type { DeploymentManifest } from "@common/manifest";
import { LOCAL_CHAIN, SEPOLIA } from "@common/networks";
import { ROLE_NAMES, ROLES } from "@common/roles";
import { SEEDED_ACCOUNTS, seededAddresses } from "@common/seedAccounts";
import { readAccounts } from "../../server/src/services/scenarios/report";
import { freePort, kill, rpc } from "../../server/test/stack";
import { OWNER, QUIET, ROOT, type RunningNode, deployToStandIn, startStandIn } from "../../scripts/lib/standIn";
import { USDX__factory } from "@bindings/factories/contracts/USDX__factory";
import {
  addressOf,
  connectWallet,
  expectToast,
  fillTransfer,
  isolateEachTest,
  openBrowser,
  type Row,
  saveScreen,
  type Session,
  signUp,
  uploadRows,
} from "../browser";
import { useStack } from "./hooks";

// Blocks the stand-in has before the deploy, so the fork block needs a thousands separator.
const BLOCKS_BEFORE_DEPLOY = 1200;
// And after it: without a block the node forks a recent one, as many blocks behind the tip as a
// reorg may reach (128 for Sepolia), and that block must hold the deployment.
const BLOCKS_AFTER_DEPLOY = 150;
const READY_WITHIN_MS = 180_000;

let upstream: RunningNode;
let deployed: DeploymentManifest;
/** The stand-in's height once set up (deployed, then a while of life): the upstream must stay there. */
let upstreamHeight: number;

/** `count` distinct free loopback ports. */
async function freePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

/**
 * The fork node keeps what it read of a reorg-safe block in the repo's Hardhat cache, by the
 * upstream's host and port: this run's stand-in is gone, and a later one on the same port must not
 * be answered from it.
 */
function forgetForkCache(upstreamUrl: string): void {
  const { hostname, port } = new URL(upstreamUrl);
  rmSync(path.join(ROOT, "cache", "hardhat-network-fork", "rpc_cache", `${hostname}_${port}`), { recursive: true, force: true });
}

/** The real `npm start -- --fork`, in its own process group; resolves once it prints 'Ready in'. */
function npmStart(upstreamUrl: string, env: NodeJS.ProcessEnv): { child: ChildProcess; ready: Promise<string> } {
  const child = spawn("npm", ["start", "--", "--fork", upstreamUrl], { cwd: ROOT, env, detached: true });
  let output = "";
  const ready = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`npm start was not ready within ${READY_WITHIN_MS / 1000} s:\n${output}`)),
      READY_WITHIN_MS,
    );
    const read = (chunk: Buffer) => {
      output += chunk;
      if (/Ready in [\d.]+ s/.test(output)) {
        clearTimeout(timer);
        resolve(output);
      }
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited (${signal ?? `code ${code}`}) before it was ready:\n${output}`));
    });
  });
  return { child, ready };
}

async function startForkStack() {
  const t0 = Date.now();
  const work = mkdtempSync(path.join(tmpdir(), "usdx-fork-e2e-"));
  const deploymentsDir = path.join(work, "deployments");
  let start: ChildProcess | null = null;
  try {
    upstream = await startStandIn();
    await rpc(upstream.url, "hardhat_mine", [`0x${BLOCKS_BEFORE_DEPLOY.toString(16)}`]);
    deployed = await deployToStandIn(upstream.url, deploymentsDir);
    // One evm_mine at a time: hardhat_mine's blocks answer eth_getCode with no code (see adopt.test.ts).
    for (let i = 0; i < BLOCKS_AFTER_DEPLOY; i++) await rpc(upstream.url, "evm_mine");
    upstreamHeight = Number(await rpc<string>(upstream.url, "eth_blockNumber"));
    const deployedAt = Date.now();

    const [rpcPort, serverPort, dashboardPort, authPort, hubPort, loggingPort] = await freePorts(6);
    const started = npmStart(upstream.url, {
      ...process.env,
      ...QUIET,
      LOCAL_RPC_PORT: String(rpcPort),
      SERVER_PORT: String(serverPort),
      DASHBOARD_PORT: String(dashboardPort),
      AUTH_EMULATOR_PORT: String(authPort),
      EMULATOR_HUB_PORT: String(hubPort),
      EMULATOR_LOGGING_PORT: String(loggingPort),
      START_LOG_DIR: path.join(work, "logs"),
      DEPLOYMENTS_DIR: deploymentsDir,
      PGLITE_DIR: "memory://",
      // What a developer's shell or .env may set that would point this stack elsewhere (dotenv
      // never overrides a variable that is set, even empty).
      DATABASE_URL: "",
      FORK_URL: "",
      FORK_BLOCK: "",
      PUBLIC_RPC_URL: "",
      DASHBOARD_ORIGIN: "",
      ADMIN_WALLETS: "",
      VITE_API_URL: "",
    });
    start = started.child;
    await started.ready;
    console.log(
      `      (stand-in deployed in ${((deployedAt - t0) / 1000).toFixed(1)} s; npm start ready ${((Date.now() - deployedAt) / 1000).toFixed(1)} s later)`,
    );

    const child = start;
    const rpcUrl = `http://127.0.0.1:${rpcPort}`;
    return {
      stack: { rpcUrl, emulatorHost: `127.0.0.1:${authPort}` },
      server: { url: `http://127.0.0.1:${serverPort}` },
      dashboardUrl: `http://127.0.0.1:${dashboardPort}`,
      async stop() {
        try {
          // npm start stops what it started on SIGTERM, as on Ctrl-C; nothing may be left listening.
          await kill(child);
          const ports = [rpcPort, serverPort, dashboardPort, authPort, hubPort, loggingPort];
          const deadline = Date.now() + 20_000;
          let open = ports;
          while (
            (open = (await Promise.all(ports.map(async (p) => ((await answers(p)) ? p : null)))).filter((p) => p !== null)).length > 0
          ) {
            if (Date.now() > deadline) throw new Error(`npm start left ports ${open.join(", ")} open after it stopped.`);
            await new Promise((r) => setTimeout(r, 200));
          }
          rmSync(work, { recursive: true, force: true });
        } finally {
          await upstream.stop();
          forgetForkCache(upstream.url);
        }
      },
    };
  } catch (error) {
    if (start) await kill(start);
    await upstream?.stop();
    if (upstream) forgetForkCache(upstream.url);
    // The logs stay for a look: npm start's output names them.
    throw error;
  }
}

describe("npm start -- --fork: the stack on a fork of a stand-in Sepolia (browser)", function () {
  this.timeout(90_000);
  const stack = useStack(startForkStack);
  let session: Session | null = null;
  let fork: JsonRpcProvider;
  const token = () => USDX__factory.connect(deployed.proxy, fork);

  before(() => {
    fork = new JsonRpcProvider(stack().stack.rpcUrl, undefined, { staticNetwork: true, cacheTimeout: -1 });
  });
  after(() => fork?.destroy());
  beforeEach(() => {
    session = null;
  });
  isolateEachTest(() => session);

  async function signedIn(account: string) {
    session = await openBrowser(account);
    await signUp(session.page);
    await connectWallet(session.page);
    return session;
  }

  it("runs on the upstream's USDX: /api/config names its proxy and the fork, and the Dashboard reads 'Sepolia fork @ <block>'", async () => {
    const metadata = await rpc<{ forkedNetwork: { chainId: number; forkBlockNumber: number } }>(stack().stack.rpcUrl, "hardhat_metadata");
    const forkBlock = metadata.forkedNetwork.forkBlockNumber;
    // No --fork-block: the node picked a recent block, after the deployment, so the live USDX was adopted.
    expect(metadata.forkedNetwork.chainId).to.equal(SEPOLIA.chainId);
    expect(forkBlock).to.be.greaterThan(deployed.deploymentBlock).and.at.most(upstreamHeight);
    const expectedFork = { chainId: SEPOLIA.chainId, name: "Sepolia", block: forkBlock };
    for (const origin of [stack().server.url, stack().dashboardUrl]) {
      const config = (await fetch(`${origin}/api/config`).then((r) => r.json())) as {
        chainId: number;
        fork: unknown;
        contracts: { proxy: string; batchPayments: string; owner: string };
      };
      expect(config.contracts, origin).to.deep.include({ proxy: deployed.proxy, batchPayments: deployed.batchPayments, owner: OWNER });
      expect(config.fork, origin).to.deep.equal(expectedFork);
      // The fork keeps the local chain id: a wallet never takes it for Sepolia.
      expect(config.chainId, origin).to.equal(LOCAL_CHAIN.chainId);
    }
    expect(await fork.getCode(deployed.proxy)).to.not.equal("0x");

    const { page, errors } = await signedIn("alice");
    const label = `Sepolia fork @ ${forkBlock.toLocaleString("en-US")}`;
    expect(label).to.match(/ @ \d,\d{3}$/);
    // The header's badge, on every page, and Quick Actions'.
    for (const badge of [
      page.getByRole("banner").getByLabel(`Network ${label}`, { exact: true }),
      page.getByRole("main").getByLabel(`Network ${label}`, { exact: true }),
    ]) {
      await badge.waitFor();
      expect((await badge.textContent())?.trim()).to.equal(label);
    }
    // Contract Information: the upstream's proxy, on the local chain that forks Sepolia.
    await page.getByRole("link", { name: `Proxy Address ${deployed.proxy}` }).waitFor();
    const network = page.locator("dt", { hasText: /^Network$/ }).locator("xpath=following-sibling::dd");
    expect((await network.textContent())?.trim()).to.equal(`Hardhat Local (${label})`);
    // The balance card shows what alice holds on the fork.
    await page.getByTestId("balance").filter({ hasText: "10,000.00 USDX" }).waitFor();
    // A settled screen for the shot: the chart drawn from the fork's index, the connect toast gone (5 s).
    // The chart loads as its card comes into view (it is not part of the Dashboard's first download).
    await page.getByRole("heading", { name: "Supply & Reward Multiplier" }).scrollIntoViewIfNeeded();
    await page.getByRole("img", { name: /^Chart of total supply/ }).waitFor({ timeout: 20_000 });
    // The toast itself (role 'status' is Radix's announcement of it, which goes sooner).
    await page.getByRole("listitem").filter({ hasText: "Wallet Connected" }).waitFor({ state: "hidden", timeout: 10_000 });
    await saveScreen(page, "fork-dashboard-1280");
    expect(errors).to.deep.equal([]);
  });

  it("gives the seeded accounts their roles, test balances and blocklist state on the fork", async () => {
    const rows = await readAccounts(
      token(),
      SEEDED_ACCOUNTS.map((a) => ({ name: a.name, address: addressOf(a.name) })),
    );
    for (const [i, account] of SEEDED_ACCOUNTS.entries()) {
      expect(rows[i].roles, account.name).to.deep.equal(account.roles.map((r) => r.replace(/_ROLE$/, "")));
      expect(rows[i].balance, account.name).to.equal(account.funds ? parseTokenAmount(account.funds) : 0n);
      expect(rows[i].blocked, account.name).to.equal(account.blocked === true);
    }
    // The live owner keeps its role: adoption adds, it takes nothing away.
    expect(await token().hasRole(ROLES.DEFAULT_ADMIN_ROLE, OWNER)).to.equal(true);
  });

  it("alice transfers 12.5 USDX to bob through the Dashboard's form: 'Transfer successful', and bob holds exactly 12.5 more on the fork", async () => {
    const { page, errors } = await signedIn("alice");
    const alice = addressOf("alice");
    const bob = addressOf("bob");
    const amount = parseTokenAmount("12.5");
    // The live token's multiplier is 1.0 (adoption leaves it alone): no share rounding, amounts are exact.
    expect(await token().rewardMultiplier()).to.equal(parseTokenAmount("1"));
    const [aliceBefore, bobBefore] = await Promise.all([token().balanceOf(alice), token().balanceOf(bob)]);

    const dialog = await fillTransfer(page, bob, "12.5");
    expect(await expectToast(page, "Transfer successful")).to.contain(`12.5 USDX transferred to ${bob}`);
    const modal = page.getByRole("dialog", { name: "Transaction confirmed" });
    await modal.waitFor();
    await modal.getByRole("button", { name: "Close" }).first().click();
    await dialog.waitFor({ state: "hidden" });

    expect(await token().balanceOf(bob)).to.equal(bobBefore + amount);
    expect(await token().balanceOf(alice)).to.equal(aliceBefore - amount);
    expect(errors).to.deep.equal([]);
  });

  it("pays a 5-row CSV batch through Payments: 'Batch transfer completed', each recipient holds its amount on the fork", async () => {
    const { page, errors } = (session = await openBrowser("alice"));
    const rows: Row[] = ["1.25", "2.5", "3.75", "10", "42.42"].map((amount, i) => ({
      name: `Payee ${i + 1}`,
      address: Wallet.createRandom().address,
      amount,
      valid: true,
    }));
    for (const row of rows) expect(await token().balanceOf(row.address)).to.equal(0n);

    await uploadRows(page, rows);
    await page.getByRole("button", { name: `Pay ${rows.length} recipients` }).click();
    await page.getByText("Batch transfer completed").first().waitFor({ timeout: 60_000 });

    for (const row of rows) expect(await token().balanceOf(row.address), row.name).to.equal(parseUnits(row.amount, 18));
    expect(errors).to.deep.equal([]);
  });

  it("leaves the upstream as it was: its height right after the deploy, no roles or balances for the seeded accounts", async () => {
    expect(Number(await rpc<string>(upstream.url, "eth_blockNumber"))).to.equal(upstreamHeight);
    const provider = new JsonRpcProvider(upstream.url, undefined, { staticNetwork: true });
    try {
      const live = USDX__factory.connect(deployed.proxy, provider);
      for (const address of seededAddresses()) {
        for (const role of ROLE_NAMES) expect(await live.hasRole(ROLES[role], address), `${role} of ${address}`).to.equal(false);
        expect(await live.balanceOf(address)).to.equal(0n);
      }
      expect(await live.hasRole(ROLES.DEFAULT_ADMIN_ROLE, OWNER)).to.equal(true);
      expect(await live.totalSupply()).to.equal(0n);
    } finally {
      provider.destroy();
    }
  });
});
