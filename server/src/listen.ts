import http from "node:http";
import http2 from "node:http2";
import type { AddressInfo, Socket } from "node:net";
import type { Duplex } from "node:stream";
import type { Express } from "express";
import type { Config } from "./config";
import { errorAnswer } from "./lib/errors";
import { http2Compatible } from "./listenHttp2";

/**
 * Where the app is served: plain HTTP/1.1, or with a certificate (TLS_CERT, TLS_KEY) TLS with
 * HTTP/2 for the clients that offer it (ALPN h2) and HTTP/1.1 for the others, on the same port.
 * Either way the same keep-alive, refusals of what Node's parser cannot read, and draining.
 */
export interface Listening {
  scheme: "http" | "https";
  port: number;
  /**
   * Drains: no new connection is accepted; requests under way finish (for DRAIN_MS at most, then
   * their connections are closed); an HTTP/1.1 connection closes once idle, an HTTP/2 session is
   * told to go away (GOAWAY: its streams under way finish, it opens no new one). Resolves once
   * every connection is closed.
   */
  close(): Promise<void>;
}

/** How long an idle kept-alive connection stays open: longer than a load balancer keeps its own. */
export const KEEP_ALIVE_MS = 65_000;

/** How long a stopping server lets the requests under way finish before it closes their connections. */
export const DRAIN_MS = 10_000;

export async function listen(app: Express, config: Pick<Config, "host" | "port" | "tls">): Promise<Listening> {
  const sessions = new Set<http2.ServerHttp2Session>();
  let draining = false;
  let server: http.Server | http2.Http2SecureServer;
  if (!config.tls) server = http.createServer(app);
  else {
    server = http2.createSecureServer({ cert: config.tls.cert, key: config.tls.key, allowHTTP1: true }, http2Compatible(app));
    server.on("session", (session: http2.ServerHttp2Session) => {
      // HTTP/2 says "go away" instead of closing: a session idle as long as a kept-alive connection is told so.
      session.setTimeout(KEEP_ALIVE_MS, () => session.close());
      if (draining) return session.close(); // its handshake ended after the drain began
      sessions.add(session);
      session.once("close", () => sessions.delete(session));
    });
  }
  // Both servers answer HTTP/1.1 with Node's own parser, and read these as an http.Server does.
  const http1 = server as unknown as Pick<http.Server, "keepAliveTimeout" | "closeIdleConnections">;
  // A load balancer keeps connections to each replica open between requests, and sends the next
  // request on one it believes open. If the replica closed it first (Node's default: after 5 s idle),
  // that request fails ("socket hang up", a 502). So the replica waits longer than balancers do
  // (an AWS load balancer's idle timeout and nginx's upstream keepalive_timeout are 60 s by default;
  // docs/DEPLOYMENT.md), and says so in each answer's Keep-Alive header, by which clients that
  // honour it close first. (headersTimeout stays Node's: since Node 18 it runs from a request's
  // start, not from the connection's last answer.)
  http1.keepAliveTimeout = KEEP_ALIVE_MS;
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => answerClientError(error, socket));

  const sockets = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return {
    scheme: config.tls ? "https" : "http",
    port: (server.address() as AddressInfo).port,
    async close() {
      draining = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // GOAWAY to each HTTP/2 session: Node 24's server.close() sends it too, older ones (Node 20) left them open.
      for (const session of sessions) session.close();
      // A kept-alive connection whose request has just been answered is idle: closed as it becomes so.
      http1.closeIdleConnections();
      const idle = setInterval(() => http1.closeIdleConnections(), 100);
      const cutOff = setTimeout(() => {
        for (const socket of sockets) socket.destroy();
      }, DRAIN_MS);
      await closed;
      clearInterval(idle);
      clearTimeout(cutOff);
    },
  };
}

/**
 * Requests Node's HTTP/1.1 parser refuses before Express sees them (a URL or headers over 16 KB, a
 * malformed request line): the same JSON error as every other answer instead of Node's bare status line.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, message] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? [431, "Request Header Fields Too Large", "The request's URL and headers are larger than the server accepts (16 KB)."]
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "Request Timeout", "The request took too long to arrive."]
        : [400, "Bad Request", "The request is not valid HTTP."];
  const body = JSON.stringify(errorAnswer(message));
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
