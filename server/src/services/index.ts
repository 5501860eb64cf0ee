import type { Chain } from "../chain";
import type { Config } from "../config";
import type { DatabaseHandle } from "../db/client";
import type { Logger } from "../logger";
import { AlertsService } from "./alerts";
import { AuditService } from "./audit";
import { MockBankService } from "./bank";
import { BatchService } from "./batch";
import { BatchWatcher } from "./batchWatcher";
import { ContactsService } from "./contacts";
import { EventsService } from "./events";
import { ExportsService } from "./exports";
import { AuthProvider } from "./firebaseAuth";
import { HoldersService } from "./holders";
import { EventIndexer } from "./indexer";
import { RateLimitStores } from "./rateLimitStore";
import { createLeadership, Leadership } from "./leader";
import { Metrics } from "./metrics";
import { MonitoringHistory } from "./monitoring";
import { probeParts } from "./monitoringProbe";
import { RewardsService } from "./rewards";
import { SiweService } from "./siwe";
import { TokenStateService } from "./tokenState";

/** Everything a route may call. Built once at start; routes never reach past it. */
export interface Services {
  config: Config;
  chain: Chain;
  db: DatabaseHandle;
  auth: AuthProvider;
  indexer: EventIndexer;
  events: EventsService;
  /** The CSV exports of histories, events and batch recipients (the holders' is the holders service's). */
  exports: ExportsService;
  tokenState: TokenStateService;
  /** Who holds USDX (a fold over every Transfer), and what a balance earned from the multiplier. */
  holders: HoldersService;
  rewards: RewardsService;
  siwe: SiweService;
  audit: AuditService;
  batch: BatchService;
  batchWatcher: BatchWatcher;
  contacts: ContactsService;
  bank: MockBankService;
  /** Operators' alerts: the rules, the delivery log, and the leader's loop that matches and delivers. */
  alerts: AlertsService;
  /** Whether this replica runs the background work (the indexer, the batch watcher, the bank's worker, the alerts); started by startServer. */
  leadership: Leadership;
  /** The rate limits' counters, in the database so that they hold across replicas. */
  rateLimits: RateLimitStores;
  /** This server's own Prometheus registry: GET /api/metrics. */
  metrics: Metrics;
  /** What /monitoring shows: the parts' health and the last minutes' figures, sampled by startServer's timer. */
  monitoring: MonitoringHistory;
  /** Set when the server drains (SIGTERM): /api/ready answers 503 and requests are answered with Connection: close. */
  serving: { draining: boolean };
}

export function buildServices(config: Config, chain: Chain, db: DatabaseHandle, auth: AuthProvider, log: Logger): Services {
  const indexer = new EventIndexer(db.db, chain, config.indexer, log.child({ component: "indexer" }), db.kind === "postgres");
  // Their caches are keyed by the index's version as of each request, so they refresh as the index
  // changes, whichever replica changed it.
  const indexVersion = () => indexer.currentVersion();
  const events = new EventsService(db.db, chain.manifest.deploymentBlock, indexVersion);
  const tokenState = new TokenStateService(chain, events, indexVersion, Date.now, () => indexer.status().checkpoint);
  const holders = new HoldersService(events, indexVersion);
  const rewards = new RewardsService(db.db, events, indexVersion);
  const siwe = new SiweService(db.db, auth, { domains: config.siweDomains, chainId: config.chainId, adminWallets: config.adminWallets });
  // The service pokes the watcher when a chunk's transaction is reported, so it looks at once.
  let batchWatcher: BatchWatcher | undefined = undefined;
  const batch = new BatchService(db.db, chain, config.batch, () => batchWatcher?.poke());
  batchWatcher = new BatchWatcher(db.db, chain, batch, indexer, config.batch, config.indexer.pollMs, log.child({ component: "batch" }));
  const contacts = new ContactsService(db.db);
  const bank = new MockBankService(db.db, chain, config.bank, log.child({ component: "bank" }));
  const head = () => chain.provider.getBlockNumber().catch(() => null);
  const alerts = new AlertsService(db.db, config.alerts, config.chainId, head, log.child({ component: "alerts" }));
  // Exactly one replica on a database runs the loops; the others follow the index it writes.
  const leadership = createLeadership(
    config.database,
    config.leaderCheckMs,
    {
      lead: () => {
        void indexer.unfollow();
        indexer.start();
        batchWatcher!.start();
        bank.start();
        alerts.start();
      },
      yield: async () => {
        await Promise.all([alerts.stop(), bank.stop(), batchWatcher!.stop(), indexer.stop()]);
        indexer.follow();
      },
    },
    log.child({ component: "leader" }),
  );
  const rateLimits = new RateLimitStores(db.db);
  const metrics = new Metrics({ db: db.db, transport: chain.transport, indexer, leadership, rateLimits });
  // The probe asks the services themselves, so it reads `services` once they are all built.
  let services: Services | undefined = undefined;
  const monitoring = new MonitoringHistory(
    {
      figures: async () => ({
        requests: await metrics.requestTotals(),
        rpcErrors: Object.values(chain.transport.snapshot().errors).reduce((a, b) => a + b, 0),
        indexerLag: indexer.status().lag,
      }),
      probe: () => probeParts(services!),
    },
    log.child({ component: "monitoring" }),
  );
  services = { config, chain, db, auth, indexer, events, exports: new ExportsService(db.db, events, chain.manifest.deploymentBlock), tokenState, holders, rewards, siwe, audit: new AuditService(db.db), batch, batchWatcher, contacts, bank, alerts, leadership, rateLimits, metrics, monitoring, serving: { draining: false } };
  return services;
}
