/**
 * `npx hardhat usdx adopt` against a stand-in upstream: a Hardhat node with Sepolia's chain id, on
 * which the project's own `npm run deploy:sepolia` deployed USDX. Adopting that proxy from the
 * chain alone must give back the manifest deploy wrote. The CLI runs twice (the manifest, and one
 * refusal as a person sees it); every other case calls adoptUSDX in process against the same node.
 */
import { expect } from "chai";
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { JsonRpcProvider, JsonRpcSigner, ZeroAddress } from "ethers";
import { BatchPayments__factory, PlainERC1967Proxy__factory, USDX__factory } from "@bindings";
import { adoptUSDX, formatAdoption, AdoptOptions } from "../scripts/lib/adopt";
import { checkDeploymentOnChain, manifestPath, readManifest, writeManifest } from "@common/manifestFile";
import type { DeploymentManifest } from "@common/manifest";
import { ROLES } from "@common/roles";
import { SEPOLIA } from "@common/networks";
import { TOKEN_NAME, TOKEN_SYMBOL } from "@common/token";
import { rpc } from "../server/test/stack";
import { HARDHAT, QUIET, ROOT, RunningNode, deployToStandIn, startStandIn } from "../scripts/lib/standIn";
import { withoutColours } from "./helpers/terminal";

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], env: Record<string, string>): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...QUIET, ...env } });
    let [stdout, stderr] = ["", ""];
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    // Under `npm test` Hardhat colours its output; the sentences are checked without the colour codes.
    child.once("exit", (code) => resolve({ code, stdout: withoutColours(stdout), stderr: withoutColours(stderr) }));
  });
}

let node: RunningNode;
let url: string;
let provider: JsonRpcProvider;
let work: string;
let deployed: DeploymentManifest;
let admin: JsonRpcSigner, second: JsonRpcSigner, minter: JsonRpcSigner, outsider: JsonRpcSigner;
let dirs = 0;

/** A fresh, empty DEPLOYMENTS_DIR. */
const freshDir = () => path.join(work, `adopted-${++dirs}`);
const envFor = (dir: string) => ({ DEPLOYMENTS_DIR: dir });
const adopt = (options: Partial<AdoptOptions> & { dir: string }) =>
  adoptUSDX(provider, { network: "sepolia", proxy: deployed.proxy, logChunk: 10_000, env: envFor(options.dir), ...options });

/** The CLI as an operator types it, against the stand-in, with no deployer key. */
const adoptCli = (proxy: string, dir: string) =>
  run(HARDHAT, ["usdx", "adopt", "--proxy", proxy, "--network", "sepolia"], {
    SEPOLIA_RPC_URL: url,
    DEPLOYER_PRIVATE_KEY: "",
    DEPLOYMENTS_DIR: dir,
  });

/** `address` with one letter's case flipped: the EIP-55 checksum no longer matches. */
function typo(address: string): string {
  const i = address.slice(2).search(/[a-fA-F]/) + 2;
  const c = address[i];
  return address.slice(0, i) + (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) + address.slice(i + 1);
}

describe("npx hardhat usdx adopt (against a stand-in Sepolia node)", () => {
  before(async function () {
    this.timeout(90_000);
    work = mkdtempSync(path.join(tmpdir(), "usdx-adopt-"));
    node = await startStandIn();
    url = node.url;
    const deployedDir = path.join(work, "deployed");
    // The deployer is the owner (USDX_OWNER empty), so the node signs for the admin below.
    deployed = await deployToStandIn(url, deployedDir, "");

    // Life after deployment: more blocks, a second admin and a minter. Blocks one evm_mine at a
    // time: the node's hardhat_mine leaves blocks that answer eth_getCode with no code at all.
    provider = new JsonRpcProvider(url, undefined, { staticNetwork: true, cacheTimeout: -1 });
    [admin, second, minter, outsider] = await Promise.all([0, 1, 2, 3].map((i) => provider.getSigner(i)));
    const mine = async (blocks: number) => {
      for (let i = 0; i < blocks; i++) await rpc(url, "evm_mine");
    };
    await mine(20);
    const usdx = USDX__factory.connect(deployed.proxy, admin);
    await (await usdx.grantRole(ROLES.DEFAULT_ADMIN_ROLE, second.address)).wait();
    await (await usdx.grantRole(ROLES.MINTER_ROLE, minter.address)).wait();
    await mine(5);
  });

  after(async () => {
    provider?.destroy();
    await node?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  describe("usdx adopt: the manifest from the chain alone", () => {
    it("writes, with no deployer key, the manifest deploy:sepolia wrote, field by field, and prints what it found", async () => {
      const dir = freshDir();
      const cli = await adoptCli(deployed.proxy, dir);
      expect(cli.code, cli.stderr).to.equal(0);
      const adopted = readManifest("sepolia", envFor(dir));
      expect(adopted.network).to.equal(deployed.network);
      expect(adopted.chainId).to.equal(SEPOLIA.chainId).and.equal(deployed.chainId);
      expect(adopted.proxy).to.equal(deployed.proxy);
      expect(adopted.implementation).to.equal(deployed.implementation);
      // Two admins now: the owner is the longest-standing one, the one deploy made.
      expect(adopted.owner).to.equal(deployed.owner);
      expect(adopted.batchPayments).to.equal(deployed.batchPayments);
      expect(adopted.deploymentBlock).to.equal(deployed.deploymentBlock);
      expect(adopted.deploymentBlockHash).to.equal(deployed.deploymentBlockHash);
      // The one field that differs: deploy writes its wall clock after the transactions, while the
      // chain only has the proxy's block time, in whole seconds. They agree within seconds (a
      // node's timestamps, rising at least a second a block, may even run a little ahead).
      const block = await provider.getBlock(deployed.deploymentBlock);
      expect(adopted.deployedAt).to.equal(new Date(block!.timestamp * 1000).toISOString());
      expect(Math.abs(Date.parse(deployed.deployedAt) - Date.parse(adopted.deployedAt))).to.be.below(30_000);
      await checkDeploymentOnChain(adopted, provider);

      for (const [label, value] of [
        ["network", "sepolia (chain 11155111)"],
        ["USDX proxy", deployed.proxy],
        ["implementation", deployed.implementation],
        ["owner", deployed.owner],
        ["DEFAULT_ADMIN_ROLE", `${deployed.owner}, ${second.address}`],
        ["BatchPayments", `${deployed.batchPayments} (found: the deployer's, bound to the proxy)`],
        ["deployment block", String(deployed.deploymentBlock)],
        ["block hash", deployed.deploymentBlockHash],
      ]) {
        expect(cli.stdout).to.match(new RegExp(`^${label} +${value.replace(/[()]/g, "\\$&")}$`, "m"));
      }
      expect(cli.stdout).to.contain(`manifest written to ${path.relative(ROOT, manifestPath("sepolia", envFor(dir)))}`);
    });

    it("refuses on the command line with its one sentence", async () => {
      const cli = await adoptCli(outsider.address, freshDir());
      expect(cli.code).to.equal(1);
      expect(cli.stderr).to.contain(
        `Error in plugin usdx: ${outsider.address} has no code on sepolia (it is an account, not a contract): pass the address of the USDX proxy.\n`,
      );
    });

    it("names every admin, longest-standing first, in few-block log queries too; the owner follows the role when the first admin leaves", async () => {
      const adopted = await adopt({ dir: freshDir(), logChunk: 3 });
      expect(adopted.admins).to.deep.equal([admin.address, second.address]);
      const snapshot = await rpc<string>(url, "evm_snapshot");
      try {
        await (await USDX__factory.connect(deployed.proxy, admin).renounceRole(ROLES.DEFAULT_ADMIN_ROLE, admin.address)).wait();
        const after = await adopt({ dir: freshDir(), logChunk: 3 });
        expect(after.admins).to.deep.equal([second.address]);
        expect(after.manifest.owner).to.equal(second.address);
      } finally {
        await rpc(url, "evm_revert", [snapshot]);
      }
    });

    it("checks a --batch-payments that is the BatchPayments bound to the proxy, and says it did", async () => {
      const adopted = await adopt({ dir: freshDir(), batchPayments: deployed.batchPayments.toLowerCase() });
      expect(adopted.manifest.batchPayments).to.equal(deployed.batchPayments);
      expect(adopted.batchPaymentsSource).to.equal("given");
      expect(formatAdoption(adopted)).to.match(/^BatchPayments +0x[0-9a-fA-F]{40} \(checked: bound to the proxy\)$/m);
    });

    it("adopts a USDX proxy deployed without deploy.ts, finding its BatchPayments only once its deployer creates one, and an owner-less token", async () => {
      // In front of deploy's implementation: under coverage the bindings carry instrumented USDX
      // bytecode, too large for a Sepolia-like node.
      const init = USDX__factory.createInterface().encodeFunctionData("initialize", [TOKEN_NAME, TOKEN_SYMBOL, outsider.address]);
      const proxy = await (await new PlainERC1967Proxy__factory(outsider).deploy(deployed.implementation, init)).getAddress();
      await expect(adopt({ dir: freshDir(), proxy })).to.be.rejectedWith(
        `Found no BatchPayments bound to ${proxy} among the next 10 contracts its deployer created: pass --batch-payments <address> of the one deployed for it, or --deploy-batch-payments to deploy one.`,
      );

      const batch = await (await new BatchPayments__factory(outsider).deploy(proxy)).getAddress();
      await (await USDX__factory.connect(proxy, outsider).renounceRole(ROLES.DEFAULT_ADMIN_ROLE, outsider.address)).wait();
      const adopted = await adopt({ dir: freshDir(), proxy });
      expect(adopted.manifest.batchPayments).to.equal(batch);
      expect(adopted.manifest.implementation).to.equal(deployed.implementation);
      expect(adopted.manifest.deploymentBlock).to.be.greaterThan(deployed.deploymentBlock);
      expect(adopted.manifest.owner).to.equal(ZeroAddress);
      expect(adopted.admins).to.deep.equal([]);
      expect(formatAdoption(adopted)).to.match(/^DEFAULT_ADMIN_ROLE +none \(every admin renounced or was revoked\)$/m);
    });
  });

  describe("usdx adopt: what it refuses", () => {
    it("a bad address string, for --proxy and for --batch-payments", async () => {
      await expect(adopt({ dir: freshDir(), proxy: "0x1234" })).to.be.rejectedWith(
        "--proxy '0x1234' is not a valid address: it must be 0x followed by 40 hex characters.",
      );
      const mistyped = typo(deployed.batchPayments);
      await expect(adopt({ dir: freshDir(), batchPayments: mistyped })).to.be.rejectedWith(
        `--batch-payments '${mistyped}' has a wrong checksum (mixed upper and lower case that does not match): check it for a typo.`,
      );
    });

    it("an account with no code", async () => {
      await expect(adopt({ dir: freshDir(), proxy: outsider.address })).to.be.rejectedWith(
        `${outsider.address} has no code on sepolia (it is an account, not a contract): pass the address of the USDX proxy.`,
      );
    });

    it("a contract that is not an ERC-1967 proxy: BatchPayments, and USDX's implementation itself", async () => {
      for (const address of [deployed.batchPayments, deployed.implementation]) {
        await expect(adopt({ dir: freshDir(), proxy: address })).to.be.rejectedWith(
          `${address} is a contract but not an ERC-1967 proxy (its implementation slot is empty): pass the address of the USDX proxy, not of its implementation or of BatchPayments.`,
        );
      }
    });

    it("an ERC-1967 proxy whose implementation is not USDX", async () => {
      // An ERC-1967 proxy must run a call at construction; BatchPayments' token() will do.
      const call = BatchPayments__factory.createInterface().encodeFunctionData("token");
      const proxy = await (await new PlainERC1967Proxy__factory(outsider).deploy(deployed.batchPayments, call)).getAddress();
      await expect(adopt({ dir: freshDir(), proxy })).to.be.rejectedWith(
        `${proxy} is an ERC-1967 proxy, but its implementation ${deployed.batchPayments} is not USDX (it does not answer rewardMultiplier, totalShares and symbol): pass the address of a USDX proxy.`,
      );
    });

    it("a --batch-payments that is an account, another contract, or a BatchPayments for another token", async () => {
      const otherBatch = await (await new BatchPayments__factory(outsider).deploy(deployed.batchPayments)).getAddress();
      for (const [address, problem] of [
        [outsider.address, "has no code"],
        [deployed.implementation, "is not a BatchPayments contract (it has no pay, payWithPermit or token)"],
        [otherBatch, `is a BatchPayments for the token ${deployed.batchPayments}, not for ${deployed.proxy}`],
      ]) {
        await expect(adopt({ dir: freshDir(), batchPayments: address })).to.be.rejectedWith(
          `--batch-payments ${address} ${problem}: pass the BatchPayments deployed for ${deployed.proxy}.`,
        );
      }
    });

    it("replacing another proxy's manifest, or an unreadable one, without --force; the same proxy's is refreshed", async () => {
      const dir = freshDir();
      const other = { ...deployed, proxy: outsider.address, deploymentBlock: 0 };
      writeManifest(other, envFor(dir));
      const file = path.relative(process.cwd(), manifestPath("sepolia", envFor(dir)));
      await expect(adopt({ dir })).to.be.rejectedWith(
        `${file} already describes the USDX proxy ${outsider.address}: pass --force to replace it with ${deployed.proxy}.`,
      );
      expect(readManifest("sepolia", envFor(dir))).to.deep.equal(other);

      const forced = await adopt({ dir, force: true });
      expect(forced.replaced).to.equal(outsider.address);
      expect(readManifest("sepolia", envFor(dir)).proxy).to.equal(deployed.proxy);
      const again = await adopt({ dir });
      expect(again.replaced).to.equal(null);

      writeFileSync(manifestPath("sepolia", envFor(dir)), "{ not json");
      await expect(adopt({ dir })).to.be.rejectedWith(`${file} exists but is not a valid manifest: pass --force to replace it.`);
      expect((await adopt({ dir, force: true })).manifest.proxy).to.equal(deployed.proxy);
    });

    it("leaves the manifest deploy wrote alone when it refuses", async () => {
      const dir = freshDir();
      cpSync(path.join(work, "deployed"), dir, { recursive: true });
      const before = readFileSync(manifestPath("sepolia", envFor(dir)), "utf8");
      await expect(adopt({ dir, proxy: deployed.batchPayments, force: true })).to.be.rejectedWith(/not an ERC-1967 proxy/);
      expect(readFileSync(manifestPath("sepolia", envFor(dir)), "utf8")).to.equal(before);
    });
  });
});
