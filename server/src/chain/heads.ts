/**
 * Pushed heads (RPC_WS_URL): one WebSocket to the node, subscribed to `newHeads`, whose heads wake
 * the loops that follow the chain (the indexer, then the batch watcher) instead of their polling.
 * While the subscription is live their own polling slows to a safety net (HEADS_SAFETY_NET_MS);
 * when the socket drops, fails or never opens, they are told at once and poll at INDEXER_POLL_MS
 * again, while the subscription comes back with backoff. Nothing is lost meanwhile: a head only
 * wakes a loop, which reads the chain from its own checkpoint. The URL carries a provider's key:
 * it is never logged ("the WebSocket endpoint").
 */
import WebSocket from "ws";
import { errorText, type Logger } from "../lib/logger";
import { redactRpcUrl } from "../lib/redact";

/**
 * While heads are pushed a loop still polls this often: a head lost in transit, or a socket dead
 * without a close that the heartbeat has not caught yet, delays a step by at most this much.
 */
export const HEADS_SAFETY_NET_MS = 60_000;
/** Resubscribing waits this long after the first failure, doubling each failure up to HEADS_RETRY_MAX_MS (with jitter, so replicas do not come back at once). */
export const HEADS_RETRY_FIRST_MS = 1000;
export const HEADS_RETRY_MAX_MS = 30_000;
/** A socket that answers no ping within this long is taken for dead (a dropped network sends no close). */
const HEARTBEAT_MS = 30_000;
/** An opening handshake that takes longer fails, and is retried. */
const HANDSHAKE_TIMEOUT_MS = 10_000;
/** How long stop() lets an open socket close politely before cutting it. */
const CLOSE_WAIT_MS = 1000;
const SUBSCRIBE_ID = 1;

/** A block's header as a node gives it (a pushed head, or eth_getBlockByNumber): what the indexer links blocks by. */
export interface ChainHeader {
  blockNumber: number;
  blockHash: string;
  parentHash: string;
  blockTime: number;
}

/** What a loop hears from the heads. */
export interface HeadListener {
  /** A head was pushed: its block number, and its header where the message carries one whole. */
  head?(block: number, header: ChainHeader | null): void;
  /** The subscription came up (heads are pushed) or went down (poll until it is back). */
  live?(live: boolean): void;
}

export interface HeadSource {
  listen(listener: HeadListener): void;
  /** Whether heads are being pushed now. */
  readonly live: boolean;
}

/** The subscription's traffic: messages on the socket, which a provider may count as it counts HTTP calls. */
export interface HeadCounts {
  /** Sockets opened (the first, and each resubscription). */
  connections: number;
  /** Messages sent (one eth_subscribe per socket). */
  sent: number;
  /** Messages received (the subscription's answer, then one per head). */
  received: number;
  heads: number;
}

export class HeadSubscription implements HeadSource {
  private readonly listeners: HeadListener[] = [];
  private socket: WebSocket | null = null;
  private stopped = true;
  private isLive = false;
  /** Failed or dropped sockets since the subscription was last live: the backoff's exponent. */
  private failures = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  /** Whether the down state was logged since the last live one (one line per outage, not per retry). */
  private downLogged = false;
  readonly counts: HeadCounts = { connections: 0, sent: 0, received: 0, heads: 0 };
  /** The newest head pushed, or null. */
  lastHead: number | null = null;

  constructor(
    private readonly url: string,
    private readonly log: Logger,
    private readonly retry = { firstMs: HEADS_RETRY_FIRST_MS, maxMs: HEADS_RETRY_MAX_MS },
  ) {}

  get live(): boolean {
    return this.isLive;
  }

  listen(listener: HeadListener): void {
    this.listeners.push(listener);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.connect();
  }

  /** Closes the socket (cut if it does not close within CLOSE_WAIT_MS, or has not opened) and retries no more. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const socket = this.socket;
    this.socket = null;
    this.setLive(false);
    if (socket) await closeSocket(socket);
  }

  private connect(): void {
    if (this.stopped) return;
    const socket = new WebSocket(this.url, { handshakeTimeout: HANDSHAKE_TIMEOUT_MS });
    this.socket = socket;
    this.counts.connections++;
    let subscription: string | null = null;
    let answered = true;
    socket.on("open", () => {
      this.counts.sent++;
      socket.send(JSON.stringify({ jsonrpc: "2.0", id: SUBSCRIBE_ID, method: "eth_subscribe", params: ["newHeads"] }));
      this.heartbeat = setInterval(() => {
        if (socket.readyState !== WebSocket.OPEN) return;
        if (!answered) {
          socket.terminate();
          return;
        }
        answered = false;
        socket.ping();
      }, HEARTBEAT_MS);
    });
    socket.on("pong", () => (answered = true));
    socket.on("message", (data: WebSocket.RawData) => {
      answered = true;
      this.counts.received++;
      const message = parseMessage(data);
      if (message?.id === SUBSCRIBE_ID) {
        if (typeof message.result === "string") {
          subscription = message.result;
          this.failures = 0;
          this.setLive(true);
        } else {
          this.log.warn(
            { error: message.error?.message ?? null },
            "the WebSocket endpoint refused eth_subscribe newHeads: polling for heads",
          );
          socket.terminate();
        }
      } else if (message?.method === "eth_subscription" && subscription !== null && message.params?.subscription === subscription) {
        const block = headNumber(message.params.result);
        if (block === null) return;
        this.counts.heads++;
        this.lastHead = block;
        const header = headerOf(message.params.result, block);
        this.tell((listener) => listener.head?.(block, header));
      }
    });
    socket.on("error", (error) => {
      this.log.debug({ err: redactRpcUrl(errorText(error), this.url) }, "the WebSocket endpoint failed");
    });
    socket.on("close", () => {
      if (this.heartbeat) clearInterval(this.heartbeat);
      this.heartbeat = null;
      if (this.socket !== socket) return; // stop() took it
      this.socket = null;
      this.setLive(false);
      this.scheduleRetry();
    });
  }

  private scheduleRetry(): void {
    if (this.stopped) return;
    const ceiling = Math.min(this.retry.maxMs, this.retry.firstMs * 2 ** Math.min(this.failures, 30));
    this.failures++;
    // Half the delay fixed, half random: never sooner than half the backoff, spread across replicas.
    const delay = ceiling / 2 + Math.random() * (ceiling / 2);
    if (!this.downLogged) {
      this.downLogged = true;
      this.log.warn({ retryInMs: Math.round(delay) }, "no heads from the WebSocket endpoint: polling until it is back");
    }
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect();
    }, delay);
  }

  private setLive(live: boolean): void {
    if (live === this.isLive) return;
    this.isLive = live;
    if (live) {
      this.downLogged = false;
      this.log.info("heads pushed by the WebSocket endpoint: the loops poll only as a safety net");
    }
    this.tell((listener) => listener.live?.(live));
  }

  private tell(call: (listener: HeadListener) => void): void {
    for (const listener of this.listeners) {
      try {
        call(listener);
      } catch (error) {
        this.log.warn({ err: errorText(error) }, "a head listener failed");
      }
    }
  }
}

interface RpcMessage {
  id?: unknown;
  result?: unknown;
  error?: { message?: string };
  method?: unknown;
  params?: { subscription?: unknown; result?: unknown };
}

function parseMessage(data: WebSocket.RawData): RpcMessage | null {
  const text = Array.isArray(data)
    ? Buffer.concat(data).toString("utf8")
    : Buffer.isBuffer(data)
      ? data.toString("utf8")
      : Buffer.from(new Uint8Array(data)).toString("utf8");
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null ? (parsed as RpcMessage) : null;
  } catch {
    return null;
  }
}

/** A newHeads result's block number (hex quantity), or null when it has none. */
function headNumber(result: unknown): number | null {
  const hex = (result as { number?: unknown } | null)?.number;
  if (typeof hex !== "string" || !/^0x[0-9a-f]+$/i.test(hex)) return null;
  return Number.parseInt(hex, 16);
}

/** A newHeads result's header (block `n`), or null when it lacks a hash, a parent hash or a time. */
function headerOf(result: unknown, n: number): ChainHeader | null {
  const { hash, parentHash, timestamp } = (result ?? {}) as { hash?: unknown; parentHash?: unknown; timestamp?: unknown };
  const hex32 = /^0x[0-9a-f]{64}$/i;
  if (typeof hash !== "string" || !hex32.test(hash) || typeof parentHash !== "string" || !hex32.test(parentHash)) return null;
  if (typeof timestamp !== "string" || !/^0x[0-9a-f]+$/i.test(timestamp)) return null;
  return { blockNumber: n, blockHash: hash, parentHash, blockTime: Number.parseInt(timestamp, 16) };
}

/** Closes a socket politely if it is open, cuts it otherwise (or if it does not close in time); resolves once it is closed. */
function closeSocket(socket: WebSocket): Promise<void> {
  if (socket.readyState === WebSocket.CLOSED) return Promise.resolve();
  return new Promise((resolve) => {
    const cut = setTimeout(() => socket.terminate(), CLOSE_WAIT_MS);
    socket.once("close", () => {
      clearTimeout(cut);
      resolve();
    });
    if (socket.readyState === WebSocket.OPEN) socket.close(1000, "stopping");
    else if (socket.readyState === WebSocket.CONNECTING) socket.terminate();
  });
}
