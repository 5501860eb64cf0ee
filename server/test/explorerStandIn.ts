import http from "node:http";
import type { AddressInfo } from "node:net";
import { rpc } from "./stack";
import type { RawLog } from "../src/services/indexing/decoder";

/**
 * Etherscan's API V2 `logs` module, played in front of a Hardhat node (test tooling; loopback only):
 * GET <url>?chainid=&module=logs&action=getLogs&address=&fromBlock=&toBlock=&page=&offset=&apikey=
 * answered in Etherscan's shape and words, from the node's own eth_getLogs (and eth_getBlockByNumber
 * for each log's timeStamp). As Etherscan does, it answers at most `cap` logs a call (1,000), oldest
 * first, and pages with page/offset; "No records found" is status "0" with an empty result; a spent
 * rate is status "0", "NOTOK" and a sentence in `result`; so is a bad key. Every call it answers is
 * counted, so a test or bench can say what a backfill cost.
 */
export interface StandInSettings {
  /** The key it accepts; any other gets "Invalid API Key". */
  apiKey: string;
  /** The chain id it serves (Etherscan V2 needs `chainid`). */
  chainId: number;
  /** Logs a call answers at most (Etherscan: 1,000). */
  cap?: number;
  /** Calls a second it answers before the rate-limit answer (Etherscan's free plan: 5; 0: no limit). */
  callsPerSecond?: number;
  /** Every n-th call gets the rate-limit answer, whatever the rate (0: never). */
  rateLimitEvery?: number;
  /** From this call on (counted from 1), the key is refused: a key revoked in the middle of a backfill. */
  refuseKeyFrom?: number;
  /** Its refusal of a key, given the call's query: Etherscan's "Invalid API Key" by default. */
  keyRefusal?: (query: URLSearchParams) => string;
  /** Blocks whose logs it gives with another block hash than the chain's (an explorer on another fork). */
  forgedBlocks?: Set<number>;
}

/** What Etherscan answers a call past the plan's rate (the free plan's words). */
export const RATE_LIMIT_ANSWER = "Max calls per sec rate limit reached (5/sec)";

/** A log as the node answers eth_getLogs: the indexer's RawLog, with the transaction's position. */
type NodeLog = RawLog & { transactionIndex: string };

/** A call to the node, tried once more when a kept-alive connection the node had just closed fails. */
async function nodeCall<T>(url: string, method: string, params: unknown[]): Promise<T> {
  try {
    return await rpc<T>(url, method, params);
  } catch (error) {
    if ((error as Error).message !== "fetch failed") throw error;
    return rpc<T>(url, method, params);
  }
}

// Etherscan writes a zero index as "0x" (its documented sample answers "logIndex":"0x").
const etherscanHex = (hex: string) => (BigInt(hex) === 0n ? "0x" : hex);

export class ExplorerStandIn {
  /** Calls answered, by what they got: logs (OK or no records), the rate-limit answer, any other refusal. */
  readonly counted = { ok: 0, rateLimited: 0, refused: 0 };
  /** Every call's query, its key replaced (a test checks what was asked). */
  readonly asked: { address: string; fromBlock: number; toBlock: number; page: number; offset: number }[] = [];
  private server: http.Server | null = null;
  private calls = 0;
  private recent: number[] = [];

  constructor(
    private readonly nodeUrl: string,
    public settings: StandInSettings,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/v2/api`;
  }

  /** Every call answered. */
  get total(): number {
    return this.counted.ok + this.counted.rateLimited + this.counted.refused;
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      this.server!.once("error", reject);
      this.server!.listen(0, "127.0.0.1", resolve);
    });
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const send = (body: unknown) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    try {
      const answer = await this.answer(new URL(req.url ?? "/", "http://127.0.0.1").searchParams);
      send(answer);
    } catch (error) {
      res.writeHead(500, { "content-type": "text/plain" }).end(String((error as Error).message));
    }
  }

  /**
   * The address's logs from `from`, oldest first, at least `wanted` of them where the range holds
   * that many: read in chunks that double while they are sparse, so a call over millions of mostly
   * empty blocks costs the node a few reads, not one answer of every log to the end.
   */
  private async logsFrom(address: string, from: number, to: number, wanted: number): Promise<NodeLog[]> {
    const found: NodeLog[] = [];
    let chunk = 1000;
    let start = from;
    while (start <= to && found.length < wanted) {
      const end = Math.min(start + chunk - 1, to);
      const logs = await nodeCall<NodeLog[]>(this.nodeUrl, "eth_getLogs", [
        { address, fromBlock: `0x${start.toString(16)}`, toBlock: `0x${end.toString(16)}` },
      ]);
      found.push(...logs);
      start = end + 1;
      if (logs.length < wanted / 4) chunk *= 2;
    }
    return found;
  }

  private async answer(q: URLSearchParams): Promise<{ status: string; message: string; result: unknown }> {
    const refuse = (result: string) => {
      this.counted.refused++;
      return { status: "0", message: "NOTOK", result };
    };
    this.calls++;
    const now = Date.now();
    this.recent = this.recent.filter((t) => now - t < 1000);
    const { callsPerSecond = 0, rateLimitEvery = 0, cap = 1000 } = this.settings;
    if ((callsPerSecond > 0 && this.recent.length >= callsPerSecond) || (rateLimitEvery > 0 && this.calls % rateLimitEvery === 0)) {
      this.counted.rateLimited++;
      return { status: "0", message: "NOTOK", result: RATE_LIMIT_ANSWER };
    }
    this.recent.push(now);
    const { refuseKeyFrom = 0, keyRefusal = () => "Invalid API Key" } = this.settings;
    if (q.get("apikey") !== this.settings.apiKey || (refuseKeyFrom > 0 && this.calls >= refuseKeyFrom)) return refuse(keyRefusal(q));
    if (q.get("chainid") !== String(this.settings.chainId))
      return refuse(
        "Missing or unsupported chainid parameter (required for v2 api), please see https://api.etherscan.io/v2/chainlist for the list of supported chainids",
      );
    if (q.get("module") !== "logs" || q.get("action") !== "getLogs") return refuse("Error! Missing Or invalid Module name");
    const address = q.get("address") ?? "";
    if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return refuse("Error! Invalid address format");
    const fromBlock = Number(q.get("fromBlock"));
    const toBlock = Number(q.get("toBlock"));
    const page = Number(q.get("page") ?? "1");
    const offset = Number(q.get("offset") ?? "1000");
    if (![fromBlock, toBlock, page, offset].every((n) => Number.isSafeInteger(n) && n >= 0) || page < 1 || offset < 1)
      return refuse("Error! Invalid parameter");
    this.asked.push({ address, fromBlock, toBlock, page, offset });
    const size = Math.min(offset, cap);
    const logs = await this.logsFrom(address, fromBlock, toBlock, page * size);
    const slice = logs.slice((page - 1) * size, page * size);
    this.counted.ok++;
    if (slice.length === 0) return { status: "0", message: "No records found", result: [] };
    const times = new Map<string, string>();
    for (const n of new Set(slice.map((l) => l.blockNumber))) {
      const block = await nodeCall<{ timestamp: string }>(this.nodeUrl, "eth_getBlockByNumber", [n, false]);
      times.set(n, block.timestamp);
    }
    const forged = this.settings.forgedBlocks ?? new Set<number>();
    return {
      status: "1",
      message: "OK",
      result: slice.map((l) => ({
        address: l.address.toLowerCase(),
        topics: l.topics,
        data: l.data,
        blockNumber: l.blockNumber,
        // Another fork's block: the same number, another hash.
        blockHash: forged.has(Number(l.blockNumber))
          ? `0x${"f".repeat(56)}${Number(l.blockNumber).toString(16).padStart(8, "0")}`
          : l.blockHash,
        timeStamp: times.get(l.blockNumber)!,
        gasPrice: "0x3b9aca00",
        gasUsed: "0x5208",
        logIndex: etherscanHex(l.logIndex),
        transactionHash: l.transactionHash,
        transactionIndex: etherscanHex(l.transactionIndex),
      })),
    };
  }
}
