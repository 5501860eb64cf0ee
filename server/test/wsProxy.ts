/**
 * A WebSocket proxy in front of the test node, forwarding every frame both ways, that a test can
 * cut: drop() closes every connection at once (as a provider's socket dies), and refusing turns new
 * connections away until accept() (the endpoint is down, then back).
 */
import WebSocket, { WebSocketServer } from "ws";
import { freePort } from "./stack";

export interface WsProxy {
  url: string;
  /** Connections accepted so far. */
  readonly accepted: number;
  /** Connections open now. */
  readonly open: number;
  /** Cuts every open connection (no close handshake) and turns new ones away until accept(). */
  drop(): void;
  accept(): void;
  close(): Promise<void>;
}

export async function startWsProxy(upstreamUrl: string): Promise<WsProxy> {
  const port = await freePort();
  let refusing = false;
  let accepted = 0;
  const pairs = new Set<[WebSocket, WebSocket]>();
  const server = new WebSocketServer({
    host: "127.0.0.1",
    port,
    verifyClient: (_info, done) => (refusing ? done(false, 503, "Service Unavailable") : done(true)),
  });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  server.on("connection", (client) => {
    accepted++;
    const upstream = new WebSocket(upstreamUrl);
    const pair: [WebSocket, WebSocket] = [client, upstream];
    pairs.add(pair);
    const waiting: WebSocket.RawData[] = [];
    client.on("message", (data, binary) => {
      if (upstream.readyState === WebSocket.OPEN) upstream.send(data, { binary });
      else waiting.push(data);
    });
    upstream.on("open", () => {
      for (const data of waiting.splice(0)) upstream.send(data, { binary: false });
    });
    upstream.on("message", (data, binary) => {
      if (client.readyState === WebSocket.OPEN) client.send(data, { binary });
    });
    const end = () => {
      pairs.delete(pair);
      client.terminate();
      upstream.terminate();
    };
    for (const socket of pair) {
      socket.on("close", end);
      socket.on("error", end);
    }
  });
  const cutAll = () => {
    for (const [client, upstream] of [...pairs]) {
      client.terminate();
      upstream.terminate();
    }
    pairs.clear();
  };
  return {
    url: `ws://127.0.0.1:${port}`,
    get accepted() {
      return accepted;
    },
    get open() {
      return pairs.size;
    },
    drop() {
      refusing = true;
      cutAll();
    },
    accept() {
      refusing = false;
    },
    close() {
      cutAll();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
