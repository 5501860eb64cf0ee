import { FetchRequest, type FetchGetUrlFunc, JsonRpcProvider, type JsonRpcApiProviderOptions } from "ethers";

/**
 * An ethers provider for the test suites and scripts that talk to a node directly (the server
 * itself reads the chain through its own transport: server/src/chain/client.ts).
 *
 * The difference from `new JsonRpcProvider(url)`: the answer's body is read by Node's fetch.
 * ethers 6's Node request copies the whole body received so far on every chunk that arrives
 * (ethers-io/ethers.js#5184, open), and the Hardhat node streams a large answer in chunks of about
 * 500 bytes: a whole-chain eth_getLogs of 1.4 MB arrived in 2,800 chunks and cost 2 GB of copying,
 * about 2 s of CPU, several times in the server suite.
 */
export function localProvider(url: string, chainId?: number, options: JsonRpcApiProviderOptions = {}): JsonRpcProvider {
  const request = new FetchRequest(url);
  request.getUrlFunc = readWholeBody;
  return new JsonRpcProvider(request, chainId, options);
}

const readWholeBody: FetchGetUrlFunc = async (req, signal) => {
  const cancelled = new AbortController();
  signal?.addListener(() => cancelled.abort(new Error("request cancelled")));
  const response = await fetch(req.url, {
    method: req.method,
    headers: req.headers,
    body: req.body ? Buffer.from(req.body) : undefined,
    signal: AbortSignal.any([cancelled.signal, AbortSignal.timeout(req.timeout)]),
  });
  const body = new Uint8Array(await response.arrayBuffer());
  return {
    statusCode: response.status,
    statusMessage: response.statusText,
    headers: Object.fromEntries(response.headers),
    body: body.length > 0 ? body : null,
  };
};
