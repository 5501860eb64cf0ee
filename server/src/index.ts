import path from "node:path";
import { config as loadDotenv } from "dotenv";
import { createApp } from "./app";
import { connectChain } from "./chain/client";
import { Config, ConfigError, loadConfig, servingEnv } from "./config";
import { builtDashboard } from "./dashboard";
import { openDatabase } from "./db/client";
import { createLogger, errorText, Logger } from "./lib/logger";
import { listen } from "./listen";
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
  const listening = await listen(app, config);
  const url = `${listening.scheme}://${config.host}:${listening.port}`;
  // The server's own address for a request it makes to itself: a wildcard host is not one to send to.
  const self = ["0.0.0.0", "::", ""].includes(config.host) ? "127.0.0.1" : config.host;
  services.serving.url = `${listening.scheme}://${self.includes(":") ? `[${self}]` : self}:${listening.port}`;
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
     * (for DRAIN_MS at most, then their connections are closed: listen.ts); the loops stop and the
     * leader lock is released, so another replica takes over at once; then the chain and the database close.
     */
    async close() {
      services.serving.draining = true;
      await listening.close();
      await services.monitoring.stop();
      await services.leadership.stop();
      await services.indexer.unfollow();
      chain.provider.destroy();
      await auth.close();
      await db.close();
    },
  };
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
