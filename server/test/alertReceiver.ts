import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/** The JSON a delivery carries (services/alerts/payload.ts), as a receiver reads it. */
export interface WebhookBody {
  test: boolean;
  rule: { id: number; kind: string };
  event: {
    name: string;
    args: Record<string, string>;
    blockNumber: number;
    blockHash: string;
    logIndex: number;
    transactionHash: string;
    timestamp: number;
  } | null;
  summary: string;
  chainId: number;
  deliveryId: string;
  sentAt: string;
}

/** One POST a receiver got, as it arrived, and what it answered. */
export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  /** Parsed; a body that is not JSON fails the signature check and every field read. */
  body: WebhookBody;
  answered: number;
}

/**
 * A webhook receiver on loopback, as an operator would run one: it answers each POST with the
 * status `answer` picks (200 unless told), and keeps every request so a test can check each
 * signature against the rule's secret and count deliveries.
 */
export class AlertReceiver {
  readonly received: Received[] = [];
  /** The status for the n-th request (0-based) to `path`; a promise holds the answer back until it settles. */
  answer: (n: number, path: string) => number | Promise<number> = () => 200;

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {}

  static async start(): Promise<AlertReceiver> {
    const receiver: { current?: AlertReceiver } = {};
    const server = http.createServer(async (req, res) => {
      let raw = "";
      for await (const chunk of req) raw += chunk;
      const path = req.url ?? "/";
      const self = receiver.current!;
      const n = self.received.filter((r) => r.path === path).length;
      const answered = await self.answer(n, path);
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        /* kept as text: the test's signature check fails on it */
      }
      self.received.push({ path, headers: req.headers, raw, body: body as WebhookBody, answered });
      res.writeHead(answered, { "content-type": "text/plain" }).end(answered < 300 ? "received" : `receiver says no (${answered})`);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    receiver.current = new AlertReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return receiver.current;
  }

  /** Requests to `path`. */
  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  /** Requests to `path` the receiver answered 2xx: the deliveries it took. */
  delivered(path: string): Received[] {
    return this.at(path).filter((r) => r.answered >= 200 && r.answered < 300);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** What a receiver does to trust a delivery: the HMAC-SHA256 of the raw body with the rule's secret, compared in constant time. */
export function signedBy(received: Received, secret: string): boolean {
  const header = String(received.headers["x-usdx-signature"] ?? "");
  const expected = Buffer.from(`sha256=${createHmac("sha256", secret).update(received.raw).digest("hex")}`);
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
