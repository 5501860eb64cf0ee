/**
 * A load balancer in front of API replicas, as small as one can be and still behave like one: each
 * request goes to the next replica in turn, skipping one whose GET /api/ready is not 200 (checked
 * every CHECK_MS) or whose connection is refused (the request never reached it, so it is sent to
 * the next). A replica that dies in the middle of a request is not asked again for it: the client
 * gets a 502, as behind a real balancer, and must retry what it needs.
 */
import http from "node:http";
import { freePort } from "./stack";

const CHECK_MS = 200;
/** A readiness answer slower than this counts as not ready (generous: a busy 2-core CI machine). */
const READY_TIMEOUT_MS = 2000;
/** Headers about one connection, not the request: never forwarded. */
const HOP_BY_HOP = ["connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection", "host"];

export interface Served {
  method: string;
  path: string;
  replica: string;
  status: number;
}

export class RoundRobin {
  /** Every answered request and the replica that answered it, in order. */
  readonly served: Served[] = [];
  private readonly down = new Set<string>();
  private turn = 0;
  private checking: NodeJS.Timeout | null = null;

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
    private readonly replicas: string[],
  ) {}

  static async start(replicas: string[]): Promise<RoundRobin> {
    // The handler reaches the balancer, made once the server listens; no request comes before start returns the URL.
    const server = http.createServer((req, res) => void balancer.handle(req, res));
    const port = await freePort();
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    const balancer = new RoundRobin(server, `http://127.0.0.1:${port}`, [...replicas]);
    balancer.check();
    return balancer;
  }

  /** A replica joins the rotation (a restarted one, say). */
  add(replica: string): void {
    this.replicas.push(replica);
  }

  async close(): Promise<void> {
    if (this.checking) clearTimeout(this.checking);
    this.checking = null;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Readiness, as a balancer polls it; a replica that does not answer within the interval is down. */
  private check(): void {
    void Promise.all(
      this.replicas.map(async (replica) => {
        const ready = await fetch(`${replica}/api/ready`, { signal: AbortSignal.timeout(READY_TIMEOUT_MS) }).then(
          (r) => r.status === 200,
          () => false,
        );
        if (ready) this.down.delete(replica);
        else this.down.add(replica);
      }),
    ).then(() => {
      if (this.server.listening) this.checking = setTimeout(() => this.check(), CHECK_MS);
    });
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const headers = { ...req.headers };
    for (const name of HOP_BY_HOP) delete headers[name];
    if (body.length > 0) headers["content-length"] = String(body.length);
    // One pass over the rotation at most: each replica is tried once, starting with the next in turn.
    const start = this.turn++;
    for (let i = 0; i < this.replicas.length; i++) {
      const replica = this.replicas[(start + i) % this.replicas.length];
      if (this.down.has(replica)) continue;
      try {
        const answer = await send(replica, req.method!, req.url!, headers, body);
        this.served.push({ method: req.method!, path: req.url!, replica, status: answer.statusCode! });
        const forwarded = { ...answer.headers };
        for (const name of HOP_BY_HOP) delete forwarded[name];
        res.writeHead(answer.statusCode!, forwarded);
        answer.pipe(res);
        answer.once("error", () => res.destroy());
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ECONNREFUSED") {
          this.down.add(replica); // never reached: safe to send to the next one
          continue;
        }
        res
          .writeHead(502, { "content-type": "application/json" })
          .end(JSON.stringify({ success: false, error: `replica ${replica}: ${(error as Error).message}` }));
        return;
      }
    }
    res.writeHead(503, { "content-type": "application/json" }).end(JSON.stringify({ success: false, error: "no replica is ready" }));
  }
}

/** One request on a connection of its own (no pooled socket to a replica that has since died). */
function send(
  replica: string,
  method: string,
  path: string,
  headers: http.OutgoingHttpHeaders,
  body: Buffer,
): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const out = http.request(new URL(path, replica), { method, headers, agent: false }, resolve);
    out.once("error", reject);
    out.end(body);
  });
}
