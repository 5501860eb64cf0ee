/**
 * The one way the server talks JSON-RPC to its node, for ethers' provider and the indexer's raw
 * calls alike. A hosted provider (the server's RPC_URL on Sepolia) answers 429 when a key's rate is
 * passed, with or without Retry-After, fails now and then with a 5xx, and adds latency; a local node
 * does none of that, so on the local chain this costs nothing. Here:
 * - every HTTP request first takes its turn from one request budget (./rpcBudget.ts: RPC_PLAN or
 *   RPC_REQUESTS_PER_SECOND; none on the local chain), which every loop of the server shares;
 * - a 429 lowers that budget for a while (Retry-After in seconds or as a date, else a default)
 *   instead of stopping every caller; the call it refused is tried again after its Retry-After
 *   (else exponential backoff), at its turn;
 * - a 5xx, a dropped connection or a timed-out attempt is tried again with backoff;
 * - every call is counted by method, so a benchmark (and /api/health) can say what idle costs, and
 *   so is every call that got no result (for /api/metrics).
 * ethers' own 429 handling reads Retry-After's seconds as milliseconds and never retries a 5xx, so
 * it is switched off (chain.ts) and this transport does it for both.
 */
import { RequestBudget, RpcRateLimitedError } from "./rpcBudget";

export { RpcRateLimitedError };

/** One attempt may take this long; the retries of one call stay within CALL_BUDGET_MS. */
export const ATTEMPT_TIMEOUT_MS = 5_000;
/**
 * A call gives up (and its caller hears RpcUnavailableError or RpcRateLimitedError) past this: a
 * request waiting on the chain hears within it, so an attempt that timed out is not tried again,
 * while a fast failure (a 5xx, a refused connection) or a short Retry-After is. A bulk call with a
 * longer attempt timeout gets twice that.
 */
export const CALL_BUDGET_MS = 6_000;
/** An attempt shorter than this is not worth sending: the call gives up instead. */
const MIN_ATTEMPT_MS = 250;
/** Backoff after the n-th failed attempt: 250 ms, 500 ms, 1 s, 2 s, ... at most MAX_BACKOFF_MS, with jitter. */
const BASE_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 4_000;
/** A Retry-After longer than this is not waited out inside one call: the caller hears it and defers. */
export const MAX_IN_CALL_WAIT_MS = 5_000;

/** The node did not answer usefully (5xx, connection refused or dropped, timeouts) within the call's budget. */
export class RpcUnavailableError extends Error {
  readonly code = "RPC_UNAVAILABLE";
}

/** An answer that is a JSON-RPC error object (the node answered; it said no). */
export class RpcError extends Error {
  constructor(
    readonly method: string,
    readonly rpcCode: number | undefined,
    readonly rpcMessage: string,
    readonly data?: unknown,
  ) {
    super(`${method}: ${rpcMessage}`);
  }
}

export interface RpcResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface RpcStats {
  /** Calls (one JSON-RPC request each, a batch counting each of its requests) by method. */
  calls: Record<string, number>;
  /**
   * Calls that got no result, by method: the node's JSON-RPC error (a revert included), a refusal
   * it answered with an HTTP error, or no usable answer within the call's budget.
   */
  errors: Record<string, number>;
  /** HTTP requests sent, including retries. */
  requests: number;
  rateLimited: number;
  retried: number;
}

/**
 * When a Retry-After header (seconds, or an HTTP date) asks the caller to come back, in ms from `now`;
 * null when there is none or it cannot be read.
 */
export function retryAfterMs(header: string | undefined | null, now = Date.now()): number | null {
  if (!header) return null;
  const text = header.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const backoff = (attempt: number) => {
  const ceiling = Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** attempt);
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
};

export interface RpcTransportOptions {
  attemptTimeoutMs?: number;
  budgetMs?: number;
  /** The request budget every caller shares (default: none, every request goes at once). */
  requestBudget?: RequestBudget;
}

export class RpcTransport {
  private readonly stats: RpcStats = { calls: {}, errors: {}, requests: 0, rateLimited: 0, retried: 0 };
  private nextId = 0;
  /** The budget every request takes its turn from. */
  readonly budget: RequestBudget;

  constructor(
    private readonly url: string,
    private readonly options: RpcTransportOptions = {},
  ) {
    this.budget = options.requestBudget ?? new RequestBudget(null);
  }

  /** What this transport has sent since it started (a copy). */
  snapshot(): RpcStats {
    return { ...this.stats, calls: { ...this.stats.calls }, errors: { ...this.stats.errors } };
  }

  /**
   * One JSON-RPC call: its result, or RpcError with the node's own code and message. `timeoutMs`
   * lengthens one attempt for a bulk answer (eth_getLogs of a dense range).
   */
  async call<T>(method: string, params: unknown[], timeoutMs?: number): Promise<T> {
    const body = JSON.stringify({ jsonrpc: "2.0", id: ++this.nextId, method, params });
    const response = await this.post(body, timeoutMs);
    let parsed: { result?: T; error?: { code?: number; message?: string; data?: unknown } };
    try {
      parsed = JSON.parse(response.body);
    } catch {
      throw new RpcUnavailableError(`${method}: the RPC node answered HTTP ${response.status} with a body that is not JSON`);
    }
    if (parsed.error) throw new RpcError(method, parsed.error.code, parsed.error.message ?? "error", parsed.error.data);
    if (response.status >= 400) throw new RpcUnavailableError(`${method}: the RPC node answered HTTP ${response.status}`);
    return parsed.result as T;
  }

  /**
   * Posts a JSON-RPC body (one request or a batch) and answers the last response: a success, or a
   * refusal that is the node's word (4xx other than 429, JSON-RPC errors inside a 200). Retries 429s,
   * 5xx and network failures within the budget; past it, throws RpcRateLimitedError or RpcUnavailableError.
   */
  async post(body: string, timeoutMs = this.attemptTimeout): Promise<RpcResponse> {
    const methods = this.count(body);
    let response: RpcResponse;
    try {
      // A batch of N calls costs N: providers meter each call of a batch (./rpcBudget.ts).
      response = await this.postWithRetries(body, timeoutMs, Math.max(1, methods.size));
    } catch (error) {
      for (const method of methods.values()) this.countError(method);
      throw error;
    }
    this.countRefusals(methods, response);
    return response;
  }

  private async postWithRetries(body: string, timeoutMs: number, cost: number): Promise<RpcResponse> {
    const started = Date.now();
    // CALL_BUDGET_MS, or twice a bulk call's longer attempt (an ordinary call's own attempt timeout
    // must not stretch it: a node that stopped answering is heard of within the budget).
    const base = this.options.budgetMs ?? CALL_BUDGET_MS;
    const budget = timeoutMs > this.attemptTimeout ? Math.max(base, timeoutMs * 2) : base;
    for (let attempt = 0; ; attempt++) {
      // Its turn in the budget every loop shares, waited for in arrival order; one that would come
      // too late fails now as rate limited (saying when), so the caller's loop defers.
      await this.budget.take(cost, Math.min(MAX_IN_CALL_WAIT_MS, budget - (Date.now() - started) - MIN_ATTEMPT_MS));
      // An attempt gets what is left of the budget, so a call never outlasts it by a whole attempt.
      const left = budget - (Date.now() - started);
      if (left < MIN_ATTEMPT_MS) throw new RpcUnavailableError(`the RPC node is not answering (no answer within ${budget} ms)`);
      const attemptMs = Math.min(timeoutMs, left);
      let failure: string;
      try {
        this.stats.requests++;
        const response = await this.send(body, attemptMs);
        if (response.status === 429) {
          this.stats.rateLimited++;
          const asked = retryAfterMs(response.headers["retry-after"]);
          // Every caller goes on at a lower rate; this one comes back after what the provider asked.
          this.budget.refused(asked);
          const delay = asked ?? backoff(attempt);
          failure = asked === null ? "HTTP 429 without Retry-After" : `HTTP 429, Retry-After ${response.headers["retry-after"]}`;
          if (delay > MAX_IN_CALL_WAIT_MS || Date.now() + delay - started > budget) throw new RpcRateLimitedError(delay, failure);
          this.stats.retried++;
          await sleep(delay);
          continue;
        }
        if (response.status < 500) return response;
        failure = `HTTP ${response.status}`;
      } catch (error) {
        if (error instanceof RpcRateLimitedError) throw error;
        failure = (error as Error).name === "TimeoutError" ? `no answer within ${attemptMs} ms` : (error as Error).message;
      }
      const delay = backoff(attempt);
      if (Date.now() + delay - started > budget) throw new RpcUnavailableError(`the RPC node is not answering (${failure})`);
      this.stats.retried++;
      await sleep(delay);
    }
  }

  private get attemptTimeout(): number {
    return this.options.attemptTimeoutMs ?? ATTEMPT_TIMEOUT_MS;
  }

  private async send(body: string, timeoutMs: number): Promise<RpcResponse> {
    const res = await fetch(this.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const headers: Record<string, string> = {};
    res.headers.forEach((value, key) => (headers[key.toLowerCase()] = value));
    return { status: res.status, headers, body: await res.text() };
  }

  /** Counts each request of a body by its method (a batch is several); answers each request's method by its id. */
  private count(body: string): Map<unknown, string> {
    const methods = new Map<unknown, string>();
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return methods;
    }
    for (const request of Array.isArray(parsed) ? parsed : [parsed]) {
      const method = typeof (request as { method?: unknown })?.method === "string" ? (request as { method: string }).method : "unknown";
      this.stats.calls[method] = (this.stats.calls[method] ?? 0) + 1;
      methods.set((request as { id?: unknown })?.id ?? methods.size, method);
    }
    return methods;
  }

  private countError(method: string): void {
    this.stats.errors[method] = (this.stats.errors[method] ?? 0) + 1;
  }

  /**
   * Counts the calls an answer refused: all of them for an HTTP error, else each JSON-RPC error
   * object, matched to its request by id. A body is parsed only when it holds an "error" key, so
   * a bulk answer (10,000 logs) is not parsed twice for nothing: log data and topics are hex.
   */
  private countRefusals(methods: Map<unknown, string>, response: RpcResponse): void {
    if (response.status >= 400) {
      for (const method of methods.values()) this.countError(method);
      return;
    }
    if (!response.body.includes('"error"')) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(response.body);
    } catch {
      for (const method of methods.values()) this.countError(method);
      return;
    }
    for (const answer of Array.isArray(parsed) ? parsed : [parsed]) {
      const { id, error } = (answer ?? {}) as { id?: unknown; error?: unknown };
      if (error) this.countError(methods.get(id) ?? (methods.size === 1 ? [...methods.values()][0] : "unknown"));
    }
  }
}
