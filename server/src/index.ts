import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import type { Duplex } from "node:stream";
import { createApp } from "./app";
import { connectChain } from "./chain";
import { Config, ConfigError, loadConfig } from "./config";
import { openDatabase } from "./db/client";
import { createLogger, Logger } from "./logger";
import { buildServices, Services } from "./services";
import { createFirebaseAuth } from "./services/firebaseAuth";

export interface RunningServer {
  url: string;
  services: Services;
  close(): Promise<void>;
}

/** Opens the database (migrating it), connects the chain, starts the indexer and listens. */
export async function startServer(config: Config, log: Logger = createLogger(config.logLevel)): Promise<RunningServer> {
  const chain = connectChain(config);
  const db = await openDatabase(config.database);
  const auth = createFirebaseAuth(config.firebase);
  const services = buildServices(config, chain, db, auth, log);
  services.indexer.start();
  services.batchWatcher.start();
  services.bank.start();
  const app = createApp(services, log);
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(config.port, config.host, () => resolve(s));
    s.once("error", reject);
  });
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => answerClientError(error, socket));
  const { port } = server.address() as AddressInfo;
  const url = `http://${config.host}:${port}`;
  log.info({ url, network: config.network, proxy: chain.manifest.proxy, database: db.kind, auth: auth.mode }, "USDX API listening");
  return {
    url,
    services,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await services.bank.stop();
      await services.batchWatcher.stop();
      await services.indexer.stop();
      chain.provider.destroy();
      await auth.close();
      await db.close();
    },
  };
}

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
  const body = JSON.stringify({ success: false, error: message });
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

if (require.main === module) {
  // A .env beside package.json may set what the environment does not (see .env.example).
  require("dotenv").config({ path: require("node:path").resolve(__dirname, "..", "..", ".env") });
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    console.error(`The API server cannot start: ${(error as Error).message}`);
    process.exit(1);
  }
  const log = createLogger(config.logLevel);
  startServer(config, log)
    .then((running) => {
      const stop = () => {
        log.info("stopping");
        running.close().then(() => process.exit(0));
      };
      process.on("SIGINT", stop);
      process.on("SIGTERM", stop);
    })
    .catch((error: unknown) => {
      const message = error instanceof ConfigError ? error.message : (error as Error).stack ?? String(error);
      console.error(`The API server cannot start: ${message}`);
      process.exit(1);
    });
}
