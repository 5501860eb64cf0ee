import { FetchRequest, JsonRpcProvider, toUtf8Bytes, toUtf8String } from "ethers";
import { BatchPayments__factory, USDX__factory } from "@bindings";
import type { BatchPayments, USDX } from "@bindings";
import type { DeploymentManifest } from "@common/manifest";
import { readManifest } from "@common/manifestFile";
import type { Config } from "../config";
import { ConfigError } from "../config";
import { BATCH_MAX_CALLS, BatchCalls } from "./batchCalls";
import { BURST_SECONDS, RequestBudget } from "./rpcBudget";
import { RpcTransport } from "./rpcTransport";

/** The one place the server builds its chain client: provider, manifest, and the two contracts. */
export interface Chain {
  provider: JsonRpcProvider;
  /**
   * A JSON-RPC call answered as plain JSON. For bulk answers (eth_getLogs): ethers' provider takes
   * 6 s to hand back 10,000 logs that the node sends in 0.2 s.
   */
  rawRpc<T>(method: string, params: unknown[]): Promise<T>;
  /** Several calls in one request where the provider takes batches (the indexer's step), else one each. */
  calls: BatchCalls;
  /** Every call above goes through it: the request budget, retries, Retry-After, and the count of calls by method. */
  transport: RpcTransport;
  manifest: DeploymentManifest;
  usdx: USDX;
  batch: BatchPayments;
}

/**
 * How long one JSON-RPC call to the node may take. ethers waits 5 minutes by default, so a node
 * that accepts connections and never answers held every chain read (and a graceful stop) that long.
 */
export const RPC_TIMEOUT_MS = 5_000;
/** The most calls ethers puts in one JSON-RPC batch (fewer under a small request budget). */
const MAX_BATCH = 20;

/** One attempt at a bulk answer (10,000 logs) may take longer than an ordinary call. */
const BULK_TIMEOUT_MS = 60_000;

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
  // Every request goes through the transport, which retries and honours Retry-After; ethers' own
  // 429 retries are off (they read Retry-After's seconds as milliseconds).
  // Every loop's requests take their turns from one budget (RPC_PLAN, RPC_REQUESTS_PER_SECOND).
  const requestBudget = new RequestBudget(config.rpcBudget.requestsPerSecond, config.rpcBudget.plan);
  const transport = new RpcTransport(config.rpcUrl, { attemptTimeoutMs: RPC_TIMEOUT_MS, requestBudget });
  // A batch costs its number of calls: no larger than the budget's one-second burst, so a batch
  // never asks for more than a second's worth at once (which a small plan could never grant).
  const burst = (most: number) => Math.max(1, Math.min(most, Math.floor((config.rpcBudget.requestsPerSecond ?? most) * BURST_SECONDS)));
  const calls = new BatchCalls(transport, BULK_TIMEOUT_MS, burst(BATCH_MAX_CALLS));
  const connection = new FetchRequest(config.rpcUrl);
  connection.timeout = RPC_TIMEOUT_MS * 3;
  connection.retryFunc = async () => false;
  connection.getUrlFunc = async (request) => {
    // Through the batch calls: a provider that refuses ethers' batches gets them one by one.
    const answer = await calls.post(request.body ? toUtf8String(request.body) : "");
    return { statusCode: answer.status, statusMessage: "", headers: answer.headers, body: toUtf8Bytes(answer.body) };
  };
  // ethers sends concurrent calls as one batch, within the same burst.
  const provider = new JsonRpcProvider(connection, config.chainId, {
    staticNetwork: true,
    batchMaxCount: burst(MAX_BATCH),
    cacheTimeout: -1,
  });
  // Bulk answers (10,000 logs) may take longer than one ordinary call.
  const rawRpc = <T>(method: string, params: unknown[]): Promise<T> => transport.call<T>(method, params, BULK_TIMEOUT_MS);
  return {
    provider,
    rawRpc,
    calls,
    transport,
    manifest,
    usdx: USDX__factory.connect(manifest.proxy, provider),
    batch: BatchPayments__factory.connect(manifest.batchPayments, provider),
  };
}
