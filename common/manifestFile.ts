import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import type { Provider } from "ethers";
import { DeploymentManifest, validateManifest } from "./manifest";

/** Where manifests live: deployments/ at the repo root, or DEPLOYMENTS_DIR (tests use a temp dir). */
export function deploymentsDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.DEPLOYMENTS_DIR ? path.resolve(env.DEPLOYMENTS_DIR) : path.resolve(__dirname, "..", "deployments");
}

export function manifestPath(network: string, env: NodeJS.ProcessEnv = process.env): string {
  return path.join(deploymentsDir(env), `${network}.json`);
}

export function writeManifest(manifest: DeploymentManifest, env: NodeJS.ProcessEnv = process.env): string {
  const file = manifestPath(manifest.network, env);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(manifest, null, 2) + "\n");
  return file;
}

export function readManifest(network: string, env: NodeJS.ProcessEnv = process.env): DeploymentManifest {
  const file = manifestPath(network, env);
  if (!existsSync(file)) {
    const hint =
      network === "localhost"
        ? "`npm start`, or `npm run deploy:localhost` with a node running"
        : `\`npx hardhat run scripts/deploy.ts --network ${network}\``;
    throw new Error(
      `No USDX deployment for network '${network}' (${path.relative(process.cwd(), file)} is missing). Deploy first: ${hint}.`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new Error(`${file} is not valid JSON: ${(e as Error).message}`, { cause: e });
  }
  return validateManifest(parsed, file);
}

/**
 * Reads the manifest and checks it against the chain the provider is on: the same chain id, the
 * deployment block still there with the same hash (a restarted local node is another chain), and
 * code at the proxy.
 */
export async function loadDeployment(
  network: string,
  provider: Provider,
  env: NodeJS.ProcessEnv = process.env,
): Promise<DeploymentManifest> {
  const manifest = readManifest(network, env);
  await checkDeploymentOnChain(manifest, provider);
  return manifest;
}

/** Throws unless the provider's chain has this deployment (see loadDeployment). */
export async function checkDeploymentOnChain(manifest: DeploymentManifest, provider: Provider): Promise<void> {
  const network = manifest.network;
  const { chainId } = await provider.getNetwork();
  if (Number(chainId) !== manifest.chainId) {
    throw new Error(`The ${network} manifest is for chain ${manifest.chainId}, but the node is on chain ${chainId}.`);
  }
  const block = await provider.getBlock(manifest.deploymentBlock);
  const code = await provider.getCode(manifest.proxy);
  if (!block || block.hash !== manifest.deploymentBlockHash || code === "0x") {
    throw new Error(
      `The ${network} manifest describes a deployment this chain does not have (the node was restarted or reset). Deploy again.`,
    );
  }
}
