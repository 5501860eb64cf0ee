import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A hosted RPC provider, played in front of a Hardhat node (test tooling; loopback only). What real
 * providers do to a server that indexes a chain, each switchable:
 * - eth_getLogs refused over too many blocks or with too many results, in a named provider's own
 *   code and words (PROVIDERS below, copied from their answers);
 * - HTTP 429 for every n-th request, with Retry-After in seconds, as a date, or without it;
 * - an HTTP 5xx (an HTML page, as a load balancer sends) for every n-th request;
 * - latency on every answer;
 * - JSON-RPC batches refused (one error object for the whole array, as providers without batches answer);
 * - eth_getLogs refused at random, reproducibly from a seed (randomRefusals.ts), for property tests.
 * Like a hosted endpoint, it answers browsers' CORS preflights and lets any origin read (a dashboard
 * reads the chain from the page through PUBLIC_RPC_URL).
 * It records every request it answered, so a test can check what the server asked and when.
 */

/** How a provider refuses an eth_getLogs; `limit` is the block range or the result count. */
export interface LogsRefusal {
  kind: "range" | "results";
  limit: number;
  /** The JSON-RPC error the provider answers, given the requested range and, for a results refusal, a range that fits. */
  error(from: number, to: number, fits: [number, number]): { code: number; message: string };
  /** The HTTP status of that answer when the request came alone (200 unless said: QuickNode sends 413). */
  status?: number;
}

const hex = (n: number) => `0x${n.toString(16)}`;

/** Real providers' refusals (their codes and words), with the limits of their free plans. */
export const PROVIDERS = {
  alchemy: (limit = 500): LogsRefusal => ({
    kind: "range",
    limit,
    error: (from) => ({
      code: -32600,
      message: `You can make eth_getLogs requests with up to a ${limit} block range. Based on your parameters, this block range should work: [${hex(from)}, ${hex(from + limit - 1)}]`,
    }),
  }),
  infuraRange: (limit = 10_000): LogsRefusal => ({
    kind: "range",
    limit,
    error: (from, to) => ({ code: -32602, message: `range ${to - from + 1} exceeds limit of ${limit}` }),
  }),
  infuraResults: (limit = 10_000): LogsRefusal => ({
    kind: "results",
    limit,
    error: (_from, _to, fits) => ({
      code: -32005,
      message: `query returned more than ${limit} results. Try with this block range [${hex(fits[0])}, ${hex(fits[1])}].`,
    }),
  }),
  quicknode: (limit = 10_000): LogsRefusal => ({
    kind: "range",
    limit,
    error: () => ({ code: -32614, message: `eth_getLogs is limited to a ${limit.toLocaleString("en-US")} range` }),
  }),
  /**
   * QuickNode's other words for it, in an HTTP 413 as its refusals come (OffchainLabs/arbitrum-sdk#609
   * shows the 413 with "eth_getLogs is limited to a 10,000 range").
   */
  quicknodeBlocks: (limit = 10_000): LogsRefusal => ({
    kind: "range",
    limit,
    status: 413,
    error: () => ({ code: -32614, message: `eth_getLogs and eth_newFilter are limited to a ${limit} blocks range` }),
  }),
  /**
   * Alchemy's refusal of an answer too large (a 2K-block range with no cap on the answer, or any range
   * with 10K logs at most), naming a range that fits: the results limit, in Alchemy's words.
   */
  alchemyResponseSize: (limit = 10_000): LogsRefusal => ({
    kind: "results",
    limit,
    error: (_from, _to, fits) => ({
      code: -32602,
      message: `Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on the response size, or you can request any block range with a cap of 10K logs in the response. Based on your parameters and the response size limit, this block range should work: [${hex(fits[0])}, ${hex(fits[1])}]`,
    }),
  }),
  /** An answer too large, naming nothing (Optimism's "backend response too large"): the server can only halve. */
  responseTooLarge: (limit = 10_000): LogsRefusal => ({
    kind: "results",
    limit,
    error: () => ({ code: -32000, message: "backend response too large" }),
  }),
  /** BlockPI: "eth_getLogs is limited to 1024 block range" (@ponder/utils' recorded test). */
  blockpi: (limit = 1024): LogsRefusal => ({
    kind: "range",
    limit,
    error: () => ({ code: -32602, message: `eth_getLogs is limited to ${limit} block range` }),
  }),
  /** Cloudflare's Ethereum gateway: only these words of its answer (not its code) are on record (@ponder/utils' recorded test). */
  cloudflare: (limit = 800): LogsRefusal => ({
    kind: "range",
    limit,
    error: () => ({ code: -32000, message: `Max range: ${limit}` }),
  }),
  /** publicnode: "exceed maximum block range: 50000" (@ponder/utils' recorded test). */
  publicnode: (limit = 50_000): LogsRefusal => ({
    kind: "range",
    limit,
    error: () => ({ code: -32602, message: `exceed maximum block range: ${limit}` }),
  }),
  /** Ankr's current words (its code is not on record), a results limit naming nothing: "query exceeds max results" (@ponder/utils' recorded test). */
  ankrResults: (limit = 10_000): LogsRefusal => ({
    kind: "results",
    limit,
    error: () => ({ code: -32000, message: "query exceeds max results" }),
  }),
  ankr: (limit = 3000): LogsRefusal => ({ kind: "range", limit, error: () => ({ code: -32600, message: "block range is too wide" }) }),
  chainstack: (limit = 100): LogsRefusal => ({
    kind: "range",
    limit,
    error: () => ({ code: -32000, message: "Block range limit exceeded." }),
  }),
  /** Words no catalogue knows: the server can only halve. */
  unknown: (limit = 64): LogsRefusal => ({
    kind: "range",
    limit,
    error: () => ({ code: -32000, message: "Query timeout exceeded. Consider reducing your block range." }),
  }),
};

/**
 * How a provider without JSON-RPC batches answers one: a single error object (not an array) for the
 * whole body, id null. The Hedera relay answers HTTP 400 with code -32600 "Invalid Request"
 * (hiero-ledger/hiero-json-rpc-relay#1820, and #1802 for the 400); Gnosis's node answers HTTP 200
 * with -32600 'Too many ["eth_getLogs"] methods in the batch' (AlphaWallet/alpha-wallet-ios#5021).
 */
export interface BatchRefusal {
  status: number;
  code: number;
  message: string;
}

export const BATCH_REFUSALS = {
  invalidRequest: { status: 400, code: -32600, message: "Invalid Request" } satisfies BatchRefusal,
  tooMany: { status: 200, code: -32600, message: 'Too many ["eth_getLogs"] methods in the batch' } satisfies BatchRefusal,
};

/** Decides, for each eth_getLogs, whether to refuse it and in which words (randomRefusals.ts plays one from a seed). */
export interface LogsJudge {
  /** Before asking the node: a refusal, or null to ask it. */
  before(from: number, to: number): { code: number; message: string } | null;
  /** With the node's answer (its logs' block numbers, in order): a refusal, or null to pass the answer on. */
  after(from: number, to: number, blocks: number[]): { code: number; message: string } | null;
}

export interface ProxySettings {
  logs?: LogsRefusal | null;
  /** Every eth_getLogs judged by this instead (and after `logs`, when both are set). */
  judge?: LogsJudge | null;
  /**
   * false: refuse every JSON-RPC batch (an array body) as BATCH_REFUSALS.invalidRequest does; or
   * the refusal to answer. Single requests are answered as usual. Default: batches are answered.
   */
  batches?: boolean | BatchRefusal;
  /** Refuse a batch of more calls than this (as BATCH_REFUSALS.tooMany words it), as a gateway with a small batch limit does. */
  batchMaxCalls?: number;
  /** Every n-th request answers 429 (0: never). */
  rateLimitEvery?: number;
  /** Retry-After on those 429s: seconds as text, 'date:<ms>' for an HTTP date that far ahead, or null for none. */
  retryAfter?: string | null;
  /** Every n-th request answers a 5xx page (0: never). */
  serverErrorEvery?: number;
  latencyMs?: number;
  /** Answer every request with 429 (a key whose quota is spent). */
  refuseAll?: boolean;
  /** Answer the next n requests with 429 (one refusal of a busy second), then answer again. */
  refuseNext?: number;
  /** Answer 429 to a request once this many calls were answered in the last second (a batch of N counts N), as a provider's rate limit does. */
  callsPerSecond?: number;
}

export interface Seen {
  at: number;
  methods: string[];
  status: number;
  /** For an eth_getLogs: the blocks it asked for, and whether it was refused. */
  logs?: { from: number; to: number; refused: boolean }[];
  /** For each eth_getBlockByNumber: the block it asked for ("latest", or a number in hex). */
  blocks?: string[];
  /** A batch answered with one error (settings.batches). */
  batchRefused?: boolean;
}

interface JsonRpcRequest {
  jsonrpc: "2.0";
  id: unknown;
  method: string;
  params?: unknown[];
}

export class ProviderProxy {
  readonly seen: Seen[] = [];
  private server: http.Server | null = null;
  private count = 0;

  constructor(
    private readonly upstream: string,
    public settings: ProxySettings = {},
  ) {}

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  /** Listens on `port` (a free one by default). */
  async start(port = 0): Promise<this> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      this.server!.once("error", reject);
      this.server!.listen(port, "127.0.0.1", resolve);
    });
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Requests whose methods include `method`. */
  calls(method: string): Seen[] {
    return this.seen.filter((s) => s.methods.includes(method));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    res.setHeader("access-control-allow-origin", "*");
    if (req.method === "OPTIONS") {
      res
        .writeHead(204, {
          "access-control-allow-methods": "POST, OPTIONS",
          "access-control-allow-headers": "content-type",
          "access-control-max-age": "600",
        })
        .end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    let body: JsonRpcRequest | JsonRpcRequest[];
    try {
      body = JSON.parse(text);
    } catch {
      res
        .writeHead(400, { "content-type": "application/json" })
        .end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }));
      return;
    }
    const requests = Array.isArray(body) ? body : [body];
    const seen: Seen = { at: Date.now(), methods: requests.map((r) => r.method), status: 200 };
    const blocks = requests.filter((r) => r.method === "eth_getBlockByNumber").map((r) => String(r.params?.[0]));
    if (blocks.length > 0) seen.blocks = blocks;
    this.seen.push(seen);
    const n = ++this.count;
    const s = this.settings;
    const tooLarge = Array.isArray(body) && s.batchMaxCalls !== undefined && body.length > s.batchMaxCalls;
    if (Array.isArray(body) && ((s.batches !== undefined && s.batches !== true) || tooLarge)) {
      const refusal = tooLarge ? BATCH_REFUSALS.tooMany : s.batches === false ? BATCH_REFUSALS.invalidRequest : (s.batches as BatchRefusal);
      seen.status = refusal.status;
      seen.batchRefused = true;
      res
        .writeHead(refusal.status, { "content-type": "application/json" })
        .end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: refusal.code, message: refusal.message } }));
      return;
    }
    if (s.latencyMs) await new Promise((resolve) => setTimeout(resolve, s.latencyMs));
    let refuseThis = (s.refuseNext ?? 0) > 0;
    if (refuseThis) s.refuseNext! -= 1;
    if (s.callsPerSecond) {
      const lastSecond = this.seen.filter((r) => r !== seen && r.status !== 429 && r.at > seen.at - 1000);
      const calls = lastSecond.reduce((sum, r) => sum + r.methods.length, 0);
      if (calls >= s.callsPerSecond) refuseThis = true;
    }
    if (s.refuseAll || refuseThis || (s.rateLimitEvery && n % s.rateLimitEvery === 0)) {
      seen.status = 429;
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (s.retryAfter)
        headers["retry-after"] = s.retryAfter.startsWith("date:")
          ? new Date(Date.now() + Number(s.retryAfter.slice(5))).toUTCString()
          : s.retryAfter;
      // Providers say it in JSON too (Infura: -32005 inside a 429).
      res.writeHead(429, headers).end(
        JSON.stringify({
          jsonrpc: "2.0",
          id: requests[0]?.id ?? null,
          error: { code: -32005, message: "Your app has exceeded its compute units per second capacity." },
        }),
      );
      return;
    }
    if (s.serverErrorEvery && n % s.serverErrorEvery === 0) {
      seen.status = 503;
      res.writeHead(503, { "content-type": "text/html" }).end("<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>");
      return;
    }
    const answers = await Promise.all(requests.map((r) => this.answer(r, seen)));
    // A refusal that comes with its own HTTP status (QuickNode's 413) keeps it when the request came alone.
    const status = Array.isArray(body) ? 200 : answers[0].status;
    seen.status = status;
    res
      .writeHead(status, { "content-type": "application/json" })
      .end(JSON.stringify(Array.isArray(body) ? answers.map((a) => a.body) : answers[0].body));
  }

  private async answer(request: JsonRpcRequest, seen: Seen): Promise<{ status: number; body: unknown }> {
    const { logs: refusal, judge } = this.settings;
    if (request.method !== "eth_getLogs" || (!refusal && !judge)) return { status: 200, body: await this.forward(request) };
    const filter = (request.params?.[0] ?? {}) as { fromBlock?: string; toBlock?: string; blockHash?: string };
    // One block by its hash (EIP-234): no range or results limit a provider sets refuses one block's logs.
    if (filter.blockHash) return { status: 200, body: await this.forward(request) };
    const from = Number(filter.fromBlock ?? 0);
    const to = Number(filter.toBlock ?? from);
    const record = { from, to, refused: false };
    (seen.logs ??= []).push(record);
    const refuse = (error: { code: number; message: string }, status = 200) => {
      record.refused = true;
      return { status, body: { jsonrpc: "2.0", id: request.id, error } };
    };
    if (refusal?.kind === "range" && to - from + 1 > refusal.limit)
      return refuse(refusal.error(from, to, [from, from + refusal.limit - 1]), refusal.status);
    const early = judge?.before(from, to);
    if (early) return refuse(early);
    const answer = (await this.forward(request)) as { result?: { blockNumber: string }[] };
    if (refusal?.kind === "results" && answer.result && answer.result.length > refusal.limit) {
      // Infura names a range that fits: up to the block before the one holding the limit-th log.
      const last = Math.max(from, Number(answer.result[refusal.limit].blockNumber) - 1);
      return refuse(refusal.error(from, to, [from, last]), refusal.status);
    }
    const late =
      answer.result &&
      judge?.after(
        from,
        to,
        answer.result.map((l) => Number(l.blockNumber)),
      );
    if (late) return refuse(late);
    return { status: 200, body: answer };
  }

  private async forward(request: JsonRpcRequest): Promise<unknown> {
    const res = await fetch(this.upstream, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(request),
    });
    return res.json();
  }
}
