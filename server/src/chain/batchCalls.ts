import { RpcError, RpcUnavailableError, type RpcResponse, type RpcTransport } from "./rpcTransport";

/**
 * Calls in one batch at most: Alchemy and Infura take 1,000, so a dense range's 1,000 block reads
 * (their times) go in one request. Some gateways take only BATCH_SMALL_CALLS: a refused batch larger
 * than that is sent again in batches of that size, and only a refused small batch means the
 * provider takes no batches.
 */
export const BATCH_MAX_CALLS = 1000;
export const BATCH_SMALL_CALLS = 100;

/** One JSON-RPC call of a batch. */
export interface RpcCall {
  method: string;
  params: unknown[];
}

/** What one call of a batch got: its result, or the node's refusal of that call alone. */
export type RpcAnswer<T = unknown> = { ok: true; result: T } | { ok: false; error: RpcError };

/**
 * Several JSON-RPC calls in one HTTP request (a JSON-RPC batch), where the provider takes batches:
 * a hosted plan counts requests a second, so the reads one indexer step needs cost one request
 * instead of one each. Some providers refuse a batch (a plan without them, a gateway that only
 * forwards single requests): the first answer that is not an array of answers, one per call, marks
 * batches off for this process, and from then on the calls go as single requests side by side (the
 * same answers, more requests). Each call's refusal is its own answer, so one refused eth_getLogs
 * does not lose the block reads beside it.
 */
export class BatchCalls {
  /** null: not known yet (the first batch tells); false: the provider refused a batch. */
  private batchesWork: boolean | null = null;
  private nextId = 0;

  constructor(
    private readonly transport: RpcTransport,
    /** How long one attempt may take when a batch carries an eth_getLogs (a dense answer). */
    private readonly timeoutMs: number,
    /** Calls in one batch at most (BATCH_MAX_CALLS, or the request budget's burst if smaller; BATCH_SMALL_CALLS once a larger batch was refused). */
    private maxCalls = BATCH_MAX_CALLS,
  ) {}

  /** Whether the provider takes batches: true, false, or null before the first batch of two or more calls. */
  get batches(): boolean | null {
    return this.batchesWork;
  }

  /** The calls' answers in order: one request when the provider takes batches, else one request each. */
  async many<T = unknown>(calls: readonly RpcCall[]): Promise<RpcAnswer<T>[]> {
    if (calls.length > this.maxCalls) {
      const answers: RpcAnswer<T>[] = [];
      for (let i = 0; i < calls.length; i += this.maxCalls) answers.push(...(await this.many<T>(calls.slice(i, i + this.maxCalls))));
      return answers;
    }
    if (calls.length === 0) return [];
    if (calls.length === 1 || this.batchesWork === false) return this.singly<T>(calls);
    const first = ++this.nextId;
    const body = JSON.stringify(calls.map((c, i) => ({ jsonrpc: "2.0", id: first + i, method: c.method, params: c.params })));
    this.nextId += calls.length;
    const response = await this.transport.post(body, this.timeoutFor(calls));
    const answers = batchAnswers(
      response.body,
      calls.map((_, i) => first + i),
    );
    if (!answers) {
      // Too large for this provider, perhaps: the same calls in small batches, now and from now on.
      if (calls.length > BATCH_SMALL_CALLS) {
        this.maxCalls = Math.min(this.maxCalls, BATCH_SMALL_CALLS);
        return this.many<T>(calls);
      }
      // Not an answer per call: the provider does not take batches (it said so in a 4xx, a single
      // error object, or words). Ask the same calls one by one, now and from now on.
      this.batchesWork = false;
      return this.singly<T>(calls);
    }
    this.batchesWork = true;
    if (response.status >= 400) throw new RpcUnavailableError(`the RPC node answered HTTP ${response.status} to a batch`);
    return answers.map((answer, i) =>
      answer.error
        ? { ok: false, error: new RpcError(calls[i].method, answer.error.code, answer.error.message ?? "error", answer.error.data) }
        : { ok: true, result: answer.result as T },
    );
  }

  /**
   * Posts a JSON-RPC body as ethers' provider sends it (one request, or a batch of its own
   * calls): a batch the provider refuses is sent again as single requests, and their answers are
   * handed back as the batch's, so ethers never sees the refusal.
   */
  async post(body: string): Promise<RpcResponse> {
    const requests = batchRequests(body);
    if (!requests) return this.transport.post(body);
    if (this.batchesWork !== false) {
      const response = await this.transport.post(body);
      if (
        batchAnswers(
          response.body,
          requests.map((r) => r.id),
        ) !== null
      ) {
        this.batchesWork = true;
        return response;
      }
      this.batchesWork = false;
    }
    const answers = await Promise.all(
      requests.map(async (request) => {
        const response = await this.transport.post(JSON.stringify(request));
        try {
          return JSON.parse(response.body) as unknown;
        } catch {
          return { jsonrpc: "2.0", id: request.id, error: { code: -32603, message: `the RPC node answered HTTP ${response.status}` } };
        }
      }),
    );
    return { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify(answers) };
  }

  /**
   * The bulk attempt timeout only where a call may answer in bulk (eth_getLogs); other reads keep
   * the transport's own, so a node that stops answering is noticed in seconds, not a minute.
   */
  private timeoutFor(calls: readonly RpcCall[]): number | undefined {
    return calls.some((c) => c.method === "eth_getLogs") ? this.timeoutMs : undefined;
  }

  private singly<T>(calls: readonly RpcCall[]): Promise<RpcAnswer<T>[]> {
    return Promise.all(
      calls.map(async (c): Promise<RpcAnswer<T>> => {
        try {
          return { ok: true, result: await this.transport.call<T>(c.method, c.params, this.timeoutFor([c])) };
        } catch (error) {
          if (error instanceof RpcError) return { ok: false, error };
          throw error;
        }
      }),
    );
  }
}

interface WireAnswer {
  id?: unknown;
  result?: unknown;
  error?: { code?: number; message?: string; data?: unknown };
}

/** The answers of a batch sent with `ids`, in the order sent; null when the body is not one answer per call. */
function batchAnswers(body: string, ids: readonly unknown[]): WireAnswer[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length !== ids.length) return null;
  const byId = new Map<unknown, WireAnswer>();
  for (const answer of parsed as WireAnswer[]) if (answer && "id" in answer) byId.set(answer.id, answer);
  const ordered: WireAnswer[] = [];
  for (const id of ids) {
    const answer = byId.get(id);
    if (!answer || (!("result" in answer) && !answer.error)) return null;
    ordered.push(answer);
  }
  return ordered;
}

/** The requests of a batch body, or null when the body is one request (or not JSON). */
function batchRequests(body: string): { id: unknown }[] | null {
  try {
    const parsed = JSON.parse(body) as unknown;
    return Array.isArray(parsed) && parsed.length > 0 ? (parsed as { id: unknown }[]) : null;
  } catch {
    return null;
  }
}
