import type { AddressInfo } from "node:net";
import path from "node:path";
import { config as loadDotenv } from "dotenv";
import type { Server } from "node:http";
import type { Duplex } from "node:stream";
import { createApp } from "./app";
import { connectChain } from "./chain/client";
import { Config, ConfigError, loadConfig, servingEnv } from "./config";
import { builtDashboard } from "./dashboard";
import { openDatabase } from "./db/client";
import { errorAnswer } from "./lib/errors";
import { createLogger, errorText, Logger } from "./lib/logger";
import { buildServices } from "./compose";
import type { Services } from "./services";
import { endRemovedAdminSessions } from "./services/auth/removedAdmins";
import { createFirebaseAuth } from "./services/auth/firebaseAuth";

export interface RunningServer {
  url: string;
  services: Services;
  close(): Promise<void>;
}

/** Opens the database (migrating it), connects the chain, starts the indexer and listens. */
export async function startServer(config: Config, log: Logger = createLogger(config.logLevel)): Promise<RunningServer> {
  const chain = connectChain(config);
  const db = await openDatabase(config.database);
  const auth = createFirebaseAuth(config.firebase, config.adminWallets);
  const services = buildServices(config, chain, db, auth, log);
  // Before any request: a wallet taken off ADMIN_WALLETS since it signed in loses its sessions.
  await endRemovedAdminSessions(db.db, auth, services.audit, config.adminWallets, log);
  // The background loops run here only while this replica leads (always on PGlite); else its index follows the leader's.
  services.indexer.follow();
  await services.leadership.start();
  // The first look at every part, then one every 5 s: /monitoring answers from these.
  services.monitoring.start();
  const dashboard = builtDashboard(config.dashboardDist);
  if (config.dashboardDist && !dashboard) {
    log.warn({ dir: config.dashboardDist }, "No built dashboard there (no index.html; npm run build makes one): serving the API alone");
  }
  const app = createApp(services, log, dashboard);
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(config.port, config.host, () => resolve(s));
    s.once("error", reject);
  });
  // A load balancer keeps connections to each replica open between requests, and sends the next
  // request on one it believes open. If the replica closed it first (Node's default: after 5 s idle),
  // that request fails ("socket hang up", a 502). So the replica waits longer than balancers do
  // (an AWS load balancer's idle timeout and nginx's upstream keepalive_timeout are 60 s by default;
  // docs/DEPLOYMENT.md), and says so in each answer's Keep-Alive header, by which clients that
  // honour it close first. (headersTimeout stays Node's: since Node 18 it runs from a request's
  // start, not from the connection's last answer.)
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => answerClientError(error, socket));
  const { port } = server.address() as AddressInfo;
  const url = `http://${config.host}:${port}`;
  // The server's own address for a request it makes to itself: a wildcard host is not one to send to.
  const self = ["0.0.0.0", "::", ""].includes(config.host) ? "127.0.0.1" : config.host;
  services.serving.url = `http://${self.includes(":") ? `[${self}]` : self}:${port}`;
  log.info(
    { url, network: config.network, proxy: chain.manifest.proxy, database: db.kind, auth: auth.mode, dashboard: dashboard ?? "off" },
    "USDX API listening",
  );
  // In the background, once listening: readiness does not wait for it.
  void services.holders.warm(log);
  return {
    url,
    services,
    /**
     * Drains: /api/ready turns 503 and no new connection is accepted; requests under way finish
     * (for DRAIN_MS at most, then their connections are closed); the loops stop and the leader lock
     * is released, so another replica takes over at once; then the chain and the database close.
     */
    async close() {
      services.serving.draining = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // A kept-alive connection whose request has just been answered is idle: closed as it becomes so.
      server.closeIdleConnections();
      const idle = setInterval(() => server.closeIdleConnections(), 100);
      const cutOff = setTimeout(() => server.closeAllConnections(), DRAIN_MS);
      await closed;
      clearInterval(idle);
      clearTimeout(cutOff);
      await services.monitoring.stop();
      await services.leadership.stop();
      await services.indexer.unfollow();
      chain.provider.destroy();
      await auth.close();
      await db.close();
    },
  };
}

/** How long an idle kept-alive connection stays open: longer than a load balancer keeps its own. */
const KEEP_ALIVE_MS = 65_000;

/** How long a stopping server lets the requests under way finish before it closes their connections. */
const DRAIN_MS = 10_000;

/**
 * Requests Node's HTTP parser refuses before Express sees them (a URL or headers over 16 KB, a
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

/** Why `npm run start:production` has no dashboard to serve, or null. */
function missingDashboard(config: Config): string | null {
  if (config.dashboardDist === null)
    return "npm run start:production serves the built dashboard, and DASHBOARD_DIST=off turns it off: use npm run start:api for the API alone.";
  if (builtDashboard(config.dashboardDist)) return null;
  const relative = path.relative(process.cwd(), config.dashboardDist);
  const where = relative && !relative.startsWith("..") ? relative : config.dashboardDist;
  return `There is no built dashboard in ${where} (no index.html): run npm run build first, or set DASHBOARD_DIST to the folder of a build.`;
}

if (require.main === module) {
  // A .env beside package.json may set what the environment does not (see .env.example).
  loadDotenv({ path: path.resolve(__dirname, "..", "..", ".env") });
  // npm run start:production: the dashboard is the point, so no build stops the server instead of a log line.
  const serving = process.argv.includes("--dashboard");
  let config: Config;
  try {
    config = loadConfig(serving ? servingEnv() : process.env);
    const missing = serving ? missingDashboard(config) : null;
    if (missing) throw new ConfigError(missing);
  } catch (error) {
    console.error(`The API server cannot start: ${(error as Error).message}`);
    process.exit(1);
  }
  const log = createLogger(config.logLevel);
  startServer(config, log)
    .then((running) => {
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) return; // a second signal does not start a second drain
        stopping = true;
        log.info({ signal }, "stopping: draining requests, then releasing the background work");
        running.close().then(
          () => process.exit(0),
          (error: unknown) => {
            log.error({ err: errorText(error) }, "stopping failed");
            process.exit(1);
          },
        );
      };
      process.on("SIGINT", stop);
      process.on("SIGTERM", stop);
    })
    .catch((error: unknown) => {
      const message = error instanceof ConfigError ? error.message : ((error as Error).stack ?? String(error));
      console.error(`The API server cannot start: ${message}`);
      process.exit(1);
    });
}
