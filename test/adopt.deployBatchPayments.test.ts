/**
 * `npx hardhat usdx adopt --deploy-batch-payments` against a stand-in Sepolia (scripts/lib/standIn.ts):
 * a USDX proxy someone else deployed, with no BatchPayments of ours, which adopt alone refuses. The
 * operator's one command deploys BatchPayments for it from the deployer key and writes a manifest
 * the product can use; a batch payment goes through it. The CLI runs twice (the command, and the
 * refusal without a key); every other refusal calls adoptUSDX in process against the same node.
 */
import { expect } from "chai";
import hre from "hardhat";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { JsonRpcProvider, JsonRpcSigner, Wallet, encodeBytes32String, parseUnits } from "ethers";
import { BatchPayments__factory, PlainERC1967Proxy__factory, USDX__factory } from "@bindings";
import { AdoptOptions, adoptUSDX, formatAdoption } from "../scripts/lib/adopt";
import { checkDeploymentOnChain, manifestPath, readManifest } from "@common/manifestFile";
import type { DeploymentManifest } from "@common/manifest";
import { ROLES } from "@common/roles";
import { TOKEN_DECIMALS, TOKEN_NAME, TOKEN_SYMBOL } from "@common/token";
import { DEPLOYER, HARDHAT, RunningNode, deployToStandIn, run, startStandIn } from "../scripts/lib/standIn";
import { withoutColours } from "./helpers/terminal";

let node: RunningNode;
let url: string;
let provider: JsonRpcProvider;
let work: string;
/** deploy:sepolia's USDX, with the BatchPayments deploy.ts sent right after it. */
let ours: DeploymentManifest;
/** A USDX proxy another account deployed, and no BatchPayments after it. */
let theirs: string;
let issuer: JsonRpcSigner, payer: JsonRpcSigner, alice: JsonRpcSigner, bob: JsonRpcSigner, outsider: JsonRpcSigner;
/** The operator's deployer key, as Hardhat signs with DEPLOYER_PRIVATE_KEY. */
let deployer: Wallet;
let dirs = 0;

const freshDir = () => path.join(work, `adopted-${++dirs}`);
const envFor = (dir: string) => ({ DEPLOYMENTS_DIR: dir });
const usd = (amount: string) => parseUnits(amount, TOKEN_DECIMALS);
const adopt = (options: Partial<AdoptOptions> & { dir: string }) =>
  adoptUSDX(provider, { network: "sepolia", proxy: theirs, logChunk: 10_000, env: envFor(options.dir), ...options });
const shown = (dir: string) => path.relative(process.cwd(), manifestPath("sepolia", envFor(dir)));

/** The CLI as an operator types it, against the stand-in; `key` is DEPLOYER_PRIVATE_KEY. */
async function adoptCli(args: string[], dir: string, key: string) {
  const ran = await run(HARDHAT, ["usdx", "adopt", ...args, "--network", "sepolia"], {
    SEPOLIA_RPC_URL: url,
    DEPLOYER_PRIVATE_KEY: key,
    DEPLOYMENTS_DIR: dir,
  });
  // Under `npm test` Hardhat colours its output; the sentences are checked without the colour codes.
  return { code: ran.code, output: withoutColours(ran.output) };
}

/** Runs `body`, which must refuse with `message`, and checks the deployer sent nothing. */
async function refusesSendingNothing(body: () => Promise<unknown>, message: string | RegExp): Promise<void> {
  const nonce = await provider.getTransactionCount(DEPLOYER.address);
  await expect(body()).to.be.rejectedWith(message);
  expect(await provider.getTransactionCount(DEPLOYER.address)).to.equal(nonce);
}

describe("npx hardhat usdx adopt --deploy-batch-payments (against a stand-in Sepolia node)", () => {
  before(async function () {
    this.timeout(90_000);
    work = mkdtempSync(path.join(tmpdir(), "usdx-adopt-batch-"));
    node = await startStandIn();
    url = node.url;
    ours = await deployToStandIn(url, path.join(work, "deployed"), "");
    provider = new JsonRpcProvider(url, undefined, { staticNetwork: true, cacheTimeout: -1 });
    [issuer, payer, alice, bob, outsider] = await Promise.all([5, 6, 7, 8, 9].map((i) => provider.getSigner(i)));
    deployer = new Wallet(DEPLOYER.privateKey, provider);

    // Someone else's USDX: a plain ERC-1967 proxy in front of deploy's implementation (under
    // coverage the bindings carry instrumented USDX bytecode, too large for a Sepolia-like node).
    const init = USDX__factory.createInterface().encodeFunctionData("initialize", [TOKEN_NAME, TOKEN_SYMBOL, issuer.address]);
    theirs = await (await new PlainERC1967Proxy__factory(issuer).deploy(ours.implementation, init)).getAddress();
  });

  after(async () => {
    provider?.destroy();
    await node?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("adopt alone refuses a USDX with no BatchPayments of ours, and names the flag that deploys one", async () => {
    await expect(adopt({ dir: freshDir() })).to.be.rejectedWith(
      `Found no BatchPayments bound to ${theirs} among the next 10 contracts its deployer created: pass --batch-payments <address> of the one deployed for it, or --deploy-batch-payments to deploy one.`,
    );
  });

  it("deploys BatchPayments for it from the deployer key, says where, and writes a manifest a batch payment works through; adopt later keeps it", async () => {
    const dir = freshDir();
    const cli = await adoptCli(["--proxy", theirs, "--deploy-batch-payments"], dir, DEPLOYER.privateKey);
    expect(cli.code, cli.output).to.equal(0);
    const said = cli.output.match(
      new RegExp(
        `^BatchPayments for ${theirs} is deployed at (0x[0-9a-fA-F]{40}) \\(transaction (0x[0-9a-f]{64}), block (\\d+)\\)\\.$`,
        "m",
      ),
    );
    expect(said, cli.output).to.not.equal(null);
    const [, batchAddress, hash] = said!;

    const manifest = readManifest("sepolia", envFor(dir));
    expect(manifest.proxy).to.equal(theirs);
    expect(manifest.batchPayments).to.equal(batchAddress);
    expect(manifest.implementation).to.equal(ours.implementation);
    expect(manifest.owner).to.equal(issuer.address);
    await checkDeploymentOnChain(manifest, provider);
    const batch = BatchPayments__factory.connect(manifest.batchPayments, payer);
    expect(await batch.token()).to.equal(theirs);
    const creation = await provider.getTransaction(hash);
    expect(creation?.from).to.equal(DEPLOYER.address);
    expect(cli.output).to.match(
      new RegExp(`^BatchPayments +${batchAddress} \\(deployed now from ${DEPLOYER.address}, bound to the proxy\\)$`, "m"),
    );
    expect(cli.output).to.contain(`manifest written to ${shown(dir)}`);

    // The token's own admin mints; a holder pays two recipients in one transaction through the manifest's BatchPayments.
    const usdx = USDX__factory.connect(manifest.proxy, issuer);
    await (await usdx.grantRole(ROLES.MINTER_ROLE, issuer.address)).wait();
    await (await usdx.mint(payer.address, usd("100"))).wait();
    await (await usdx.connect(payer).approve(manifest.batchPayments, usd("50"))).wait();
    const receipt = await (await batch.pay([alice.address, bob.address], [usd("30"), usd("20")], encodeBytes32String("job-1"))).wait();
    expect(receipt?.status).to.equal(1);
    expect(await usdx.balanceOf(alice.address)).to.equal(usd("30"));
    expect(await usdx.balanceOf(bob.address)).to.equal(usd("20"));
    expect(await usdx.balanceOf(payer.address)).to.equal(usd("50"));

    // Adopting the same proxy again (a refresh) keeps the manifest's BatchPayments: the search cannot find it.
    const again = await adopt({ dir });
    expect(again.batchPaymentsSource).to.equal("kept");
    expect(again.manifest.batchPayments).to.equal(batchAddress);
    expect(formatAdoption(again)).to.match(/^BatchPayments +0x[0-9a-fA-F]{40} \(kept from the manifest: bound to the proxy\)$/m);
  });

  describe("what it refuses, sending nothing", () => {
    it("a network without a deployer key, on the command line", async () => {
      const dir = freshDir();
      const cli = await adoptCli(["--proxy", theirs, "--deploy-batch-payments"], dir, "");
      expect(cli.code).to.equal(1);
      expect(cli.output).to.contain(
        "Error in plugin usdx: Sepolia needs DEPLOYER_PRIVATE_KEY in the environment or .env (see .env.example).\n",
      );
    });

    it("an address that is not a USDX proxy, with adopt's own sentences", async () => {
      await refusesSendingNothing(
        () => adopt({ dir: freshDir(), proxy: outsider.address, deployer }),
        `${outsider.address} has no code on sepolia (it is an account, not a contract): pass the address of the USDX proxy.`,
      );
      await refusesSendingNothing(
        () => adopt({ dir: freshDir(), proxy: ours.batchPayments, deployer }),
        `${ours.batchPayments} is a contract but not an ERC-1967 proxy (its implementation slot is empty): pass the address of the USDX proxy, not of its implementation or of BatchPayments.`,
      );
    });

    it("a proxy whose manifest already has a BatchPayments bound to it, unless --force, which deploys another", async () => {
      const dir = freshDir();
      cpSync(path.join(work, "deployed"), dir, { recursive: true });
      const before = readFileSync(manifestPath("sepolia", envFor(dir)), "utf8");
      await refusesSendingNothing(
        () => adopt({ dir, proxy: ours.proxy, deployer }),
        `${shown(dir)} already has BatchPayments ${ours.batchPayments}, bound to ${ours.proxy}: drop --deploy-batch-payments to keep it, or add --force to deploy another.`,
      );
      expect(readFileSync(manifestPath("sepolia", envFor(dir)), "utf8")).to.equal(before);

      const lines: string[] = [];
      const forced = await adopt({ dir, proxy: ours.proxy, deployer, force: true, log: (line) => lines.push(line) });
      expect(forced.batchPaymentsSource).to.equal("deployed");
      expect(forced.manifest.batchPayments).to.not.equal(ours.batchPayments);
      expect(await BatchPayments__factory.connect(forced.manifest.batchPayments, provider).token()).to.equal(ours.proxy);
      expect(readManifest("sepolia", envFor(dir)).batchPayments).to.equal(forced.manifest.batchPayments);
      expect(lines[lines.length - 1]).to.match(
        new RegExp(
          `^BatchPayments for ${ours.proxy} is deployed at ${forced.manifest.batchPayments} \\(transaction 0x[0-9a-f]{64}, block \\d+\\)\\.$`,
        ),
      );
    });

    it("a proxy whose deployer already created a BatchPayments bound to it (adopt finds it)", async () => {
      await refusesSendingNothing(
        () => adopt({ dir: freshDir(), proxy: ours.proxy, deployer }),
        `${ours.proxy}'s deployer already created BatchPayments ${ours.batchPayments}, bound to it: drop --deploy-batch-payments to adopt that one, or add --force to deploy another.`,
      );
    });

    it("--batch-payments together with --deploy-batch-payments", async () => {
      await refusesSendingNothing(
        () => adopt({ dir: freshDir(), batchPayments: ours.batchPayments, deployer }),
        "Pass --batch-payments (a BatchPayments that exists) or --deploy-batch-payments (a new one), not both.",
      );
    });

    it("the local chain, where deploy sends BatchPayments with USDX", async () => {
      // The in-process Hardhat network (chain 31337), as `--network hardhat` or `localhost` would be.
      const [local] = await hre.ethers.getSigners();
      await expect(
        adoptUSDX(hre.ethers.provider, { network: "localhost", proxy: theirs, deployer: local, logChunk: 10_000, env: envFor(freshDir()) }),
      ).to.be.rejectedWith(
        "--deploy-batch-payments is for a public network: on the local chain (localhost), `npm start` and `npm run deploy:localhost` deploy BatchPayments together with USDX.",
      );
    });
  });
});
