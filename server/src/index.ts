import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
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
