import path from "node:path";
import type { HardhatRuntimeEnvironment } from "hardhat/types";
import { getAddress } from "ethers";
import { DeploymentManifest } from "@common/manifest";
import { writeManifest } from "@common/manifestFile";
import { TOKEN_NAME, TOKEN_SYMBOL } from "@common/token";
import { deployBatchPayments } from "./lib/batchPayments";
import { assertNetworkReady, runMain } from "./lib/network";

/**
 * Deploys USDX behind a UUPS proxy (through hardhat-upgrades, which validates the implementation)
 * and BatchPayments bound to the proxy, then writes deployments/<network>.json.
 * The owner is USDX_OWNER when set, else the deployer.
 */
export async function deployUSDX(
  hre: HardhatRuntimeEnvironment,
  options: { owner?: string; log?: (line: string) => void } = {},
): Promise<{ manifest: DeploymentManifest; file: string }> {
  const log = options.log ?? (() => undefined);
  const chainId = await assertNetworkReady(hre);
  const [deployer] = await hre.ethers.getSigners();
  if (!deployer) throw new Error(`Network '${hre.network.name}' has no account to deploy from (set DEPLOYER_PRIVATE_KEY).`);
  // An empty USDX_OWNER (as .env.example leaves it) means the deployer.
  const ownerInput = options.owner ?? (process.env.USDX_OWNER || deployer.address);
  let owner: string;
  try {
    owner = getAddress(ownerInput);
  } catch {
    throw new Error(`USDX_OWNER '${ownerInput}' is not a valid address.`);
  }

  log(`Deploying USDX to ${hre.network.name} (chain ${chainId}) from ${deployer.address}, owner ${owner}`);
  const usdx = await hre.upgrades.deployProxy(await hre.ethers.getContractFactory("USDX"), [TOKEN_NAME, TOKEN_SYMBOL, owner], {
    kind: "uups",
    initializer: "initialize",
  });
  await usdx.waitForDeployment();
  const proxy = await usdx.getAddress();
  const receipt = await usdx.deploymentTransaction()?.wait();
  if (!receipt) throw new Error("The proxy's deployment transaction has no receipt.");
  const implementation = await hre.upgrades.erc1967.getImplementationAddress(proxy);

  const batch = await deployBatchPayments(deployer, proxy);

  const manifest: DeploymentManifest = {
    network: hre.network.name,
    chainId,
    proxy,
    implementation: getAddress(implementation),
    owner,
    batchPayments: batch.address,
    deploymentBlock: receipt.blockNumber,
    deploymentBlockHash: receipt.blockHash,
    deployedAt: new Date().toISOString(),
  };
  const file = writeManifest(manifest);
  log(`USDX proxy      ${manifest.proxy}`);
  log(`implementation  ${manifest.implementation}`);
  log(`BatchPayments   ${manifest.batchPayments}`);
  log(`deployed in block ${manifest.deploymentBlock}; manifest written to ${path.relative(process.cwd(), file)}`);
  return { manifest, file };
}

if (require.main === module) {
  runMain(async () => {
    const hre = (await import("hardhat")).default;
    await deployUSDX(hre, { log: console.log });
  });
}
