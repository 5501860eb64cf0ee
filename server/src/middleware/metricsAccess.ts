import { timingSafeEqual } from "node:crypto";
import { BlockList, isIP } from "node:net";
import type { Request, RequestHandler } from "express";
import { forbidden, unauthorized } from "../lib/errors";

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

/** True for 127.0.0.0/8 and ::1, also written as IPv4-mapped IPv6 (::ffff:127.0.0.1), as a socket reports them. */
export function isLoopbackAddress(address: string | undefined): boolean {
  const bare = (address ?? "").toLowerCase().replace(/^::ffff:(?=\d+\.)/, "");
  const family = isIP(bare);
  return family !== 0 && LOOPBACK.check(bare, family === 4 ? "ipv4" : "ipv6");
}

/**
 * True when a request says it was made for someone else: a proxy (the Vite dev server, a TLS proxy,
 * a load balancer on this machine) adds one of these. Such a request comes from loopback whoever
 * sent it, so loopback alone would open the metrics to everyone the proxy serves.
 */
export function isForwarded(req: Request): boolean {
  return req.headers["x-forwarded-for"] !== undefined || req.headers.forwarded !== undefined || req.headers["x-real-ip"] !== undefined;
}

/** Compares in constant time, so the answer's timing does not tell how much of a guess was right. */
export function sameSecret(given: string, secret: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  // timingSafeEqual needs equal lengths; comparing the secret with itself keeps the time the same.
  return timingSafeEqual(a.length === b.length ? a : b, b) && a.length === b.length;
}

/**
 * Who may read GET /api/metrics: an operator's scraper, not the world. With METRICS_TOKEN set, a
 * request with `Authorization: Bearer <METRICS_TOKEN>` (from anywhere), else 401. Without it, a
 * client on this machine that connected directly: the socket's address must be loopback (not
 * req.ip, which X-Forwarded-For may set) and the request must not be a proxy's, else 403.
 */
export function metricsAccess(token: string | null): RequestHandler {
  return (req, _res, next) => {
    if (token !== null) {
      const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "");
      if (!match || !sameSecret(match[1], token)) {
        return next(
          unauthorized("Reading metrics needs 'Authorization: Bearer <METRICS_TOKEN>' with the token this server was started with."),
        );
      }
      return next();
    }
    if (!isLoopbackAddress(req.socket.remoteAddress) || isForwarded(req)) {
      return next(
        forbidden(
          "Metrics are readable only from this machine, directly and not through a proxy: to let a scraper elsewhere read them, start the server with METRICS_TOKEN and have it send 'Authorization: Bearer <METRICS_TOKEN>'.",
        ),
      );
    }
    next();
  };
}
