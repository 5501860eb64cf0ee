import { FetchRequest, JsonRpcProvider } from "ethers";
import { BatchPayments__factory, USDX__factory } from "../../typechain-types";
import type { BatchPayments, USDX } from "../../typechain-types";
import type { DeploymentManifest } from "../../common/manifest";
import { readManifest } from "../../common/manifestFile";
import type { Config } from "./config";
import { ConfigError } from "./config";

/** The one place the server builds its chain client: provider, manifest, and the two contracts. */
export interface Chain {
  provider: JsonRpcProvider;
  /**
   * A JSON-RPC call answered as plain JSON. For bulk answers (eth_getLogs): ethers' provider takes
   * 6 s to hand back 10,000 logs that the node sends in 0.2 s.
   */
  rawRpc<T>(method: string, params: unknown[]): Promise<T>;
  manifest: DeploymentManifest;
  usdx: USDX;
  batch: BatchPayments;
}

/**
 * How long one JSON-RPC call to the node may take. ethers waits 5 minutes by default, so a node
 * that accepts connections and never answers held every chain read (and a graceful stop) that long.
 */
export const RPC_TIMEOUT_MS = 5_000;

export function connectChain(config: Config): Chain {
  let manifest: DeploymentManifest;
  try {
    manifest = readManifest(config.network, config.deploymentsDir ? { DEPLOYMENTS_DIR: config.deploymentsDir } : {});
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  if (manifest.chainId !== config.chainId) {
    throw new ConfigError(`The ${config.network} manifest is for chain ${manifest.chainId}, not ${config.chainId}.`);
  }
  // A static network: the chain id is known, so a node that is down is not probed again and again.
  // No response cache (ethers shares identical requests for 250 ms by default): right after a
  // reorg or an evm_revert, a cached head or block hash would hide the change from the indexer.
  const connection = new FetchRequest(config.rpcUrl);
  connection.timeout = RPC_TIMEOUT_MS;
  const provider = new JsonRpcProvider(connection, config.chainId, { staticNetwork: true, batchMaxCount: 20, cacheTimeout: -1 });
  let id = 0;
  const rawRpc = async <T>(method: string, params: unknown[]): Promise<T> => {
    const res = await fetch(config.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }),
      signal: AbortSignal.timeout(60_000),
    });
    if (!res.ok) throw new Error(`${method}: the node answered HTTP ${res.status}`);
    const body = (await res.json()) as { result?: T; error?: { message?: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message ?? "error"}`);
    return body.result as T;
  };
  return {
    provider,
    rawRpc,
    manifest,
    usdx: USDX__factory.connect(manifest.proxy, provider),
    batch: BatchPayments__factory.connect(manifest.batchPayments, provider),
  };
}
