import type { Chain } from "./chain/client";
import { HeadCache } from "./chain/headCache";
import { HeadSubscription } from "./chain/heads";
import type { Config } from "./config";
import type { DatabaseHandle } from "./db/client";
import { Doorbell } from "./lib/doorbell";
import type { Logger } from "./lib/logger";
import type { Services } from "./services";
import { AlertsService } from "./services/alerts";
import { SafeAlerts } from "./services/alerts/safeEvents";
import { AuditService } from "./services/auth/audit";
import type { AuthProvider } from "./services/auth/firebaseAuth";
import { SiweService } from "./services/auth/siwe";
import { MockBankService } from "./services/bank";
import { BatchService } from "./services/batch/jobs";
import { BatchWatcher } from "./services/batch/watcher";
import { ContactsService } from "./services/contacts";
import { ExplorerBackfill } from "./services/indexing/backfill";
import { EventsService } from "./services/indexing/events";
import { ExportsService } from "./services/indexing/exports";
import { HoldersService } from "./services/indexing/holders";
import { EventIndexer } from "./services/indexing/indexer";
import { RewardsService } from "./services/indexing/rewards";
import { TokenStateService } from "./services/indexing/tokenState";
import { createLeadership } from "./services/operations/leader";
import { Metrics } from "./services/operations/metrics";
import { MonitoringHistory } from "./services/operations/monitoring";
import { probeParts } from "./services/operations/probes";
import { ExportLimits } from "./services/operations/exportLimits";
import { RateLimitStores } from "./services/operations/rateLimitStore";
import { SafesService } from "./services/safes/proposals";
import { safesExecuting } from "./services/safes/executed";
import { SafeReader, safeName } from "./services/safes/reader";
import type { ScenarioEngine } from "./services/scenarios";
import { ScenarioRuns, offLocalChain } from "./services/scenarios/runs";
import type { UserPart } from "./services/scenarios/apply";
import { shippedScenarios } from "./services/scenarios/shipped";
import { userPartThrough } from "./services/scenarios/user";
import { listSnapshots, restoreSnapshot, takeSnapshot } from "./services/scenarios/snapshots";

/**
 * The composition root: every service built once, in dependency order, each given at construction
 * what it needs (its database, chain, logger and its own limits), so a route only calls it and no
 * service is handed anything after it is built.
 */
export function buildServices(config: Config, chain: Chain, db: DatabaseHandle, auth: AuthProvider, log: Logger): Services {
  const backfill =
    config.indexer.backfill && new ExplorerBackfill(db.db, chain, config.indexer.backfill, log.child({ component: "backfill" }));
  const indexer = new EventIndexer(db.db, chain, config.indexer, log.child({ component: "indexer" }), db.kind === "postgres", backfill);
  // Their caches are keyed by the index's version as of each request, so they refresh as the index
  // changes, whichever replica changed it.
  const indexVersion = () => indexer.currentVersion();
  // History rows name the Safe whose proposal their transaction executed, with the deployment's names.
  const safeNames = (address: string) => safeName(chain.manifest, address);
  const events = new EventsService(db.db, chain.manifest.deploymentBlock, indexVersion, safesExecuting(db.db, config.chainId, safeNames));
  const tokenState = new TokenStateService(chain, events, indexVersion, Date.now, () => indexer.status().checkpoint);
  const holders = new HoldersService(events, indexVersion);
  const rewards = new RewardsService(db.db, events, indexVersion);
  const audit = new AuditService(db.db);
  const siwe = new SiweService(db.db, auth, audit, {
    domains: config.siweDomains,
    chainId: config.chainId,
    adminWallets: config.adminWallets,
  });
  // The batch service rings when a chunk's transaction is reported, so the watcher looks at once.
  const chunkReported = new Doorbell();
  const batchLimits = { openBatchJobs: config.limits.openBatchJobs, batchRowsPerDay: config.limits.batchRowsPerDay };
  // Chain reads for requests, kept until the head the loops read moves (its hash too: a reorganisation or a
  // restored snapshot brings a number back): no request asks the node for its head.
  const headReads = new HeadCache(() => {
    const read = indexer.lastHeadRead;
    return read ? `${read.head}:${read.hash}` : null;
  });
  // Safes are found among the role holders the index knows (and the manifest's named ones).
  const safeReader = new SafeReader(chain, async () => (await tokenState.roles()).flatMap((role) => role.holders), headReads);
  // A batch's payer that is a Safe pays its chunks through Safe proposals.
  const isSafe = async (address: string) => typeof (await safeReader.read(address)) === "object";
  const batch = new BatchService(db.db, chain, config.batch, batchLimits, chunkReported, isSafe);
  const batchWatcher = new BatchWatcher(
    db.db,
    chain,
    batch,
    indexer,
    config.batch,
    config.indexer.pollMs,
    chunkReported,
    log.child({ component: "batch" }),
  );
  // RPC_WS_URL: the node's pushed heads wake the indexer, whose step then wakes the watcher; both poll only as a safety net meanwhile.
  const heads = config.rpcWsUrl ? new HeadSubscription(config.rpcWsUrl, log.child({ component: "heads" })) : null;
  if (heads) {
    indexer.wakeOnHeads(heads, () => batchWatcher.poke());
    batchWatcher.pacedBy(heads);
  }
  const contacts = new ContactsService(db.db, { maxContacts: config.limits.contacts, maxRows: config.batch.maxRows });
  const bank = new MockBankService(db.db, chain, config.bank, log.child({ component: "bank" }), headReads);
  const head = () => chain.provider.getBlockNumber().catch(() => null);
  const alerts = new AlertsService(db.db, config.alerts, config.chainId, head, log.child({ component: "alerts" }));
  const safeAlerts = new SafeAlerts(config.chainId, log.child({ component: "alerts" }));
  const safes = new SafesService(db.db, chain, safeReader, audit, config.chainId, log.child({ component: "safes" }), safeAlerts);
  // Exactly one replica on a database runs the loops; the others follow the index it writes.
  const leadership = createLeadership(
    config.database,
    config.leaderCheckMs,
    {
      lead: () => {
        void indexer.unfollow();
        indexer.start();
        batchWatcher.start();
        heads?.start();
        bank.start();
        alerts.start();
      },
      yield: async () => {
        await Promise.all([alerts.stop(), bank.stop(), batchWatcher.stop(), indexer.stop(), heads?.stop()]);
        indexer.follow();
      },
    },
    log.child({ component: "leader" }),
  );
  const { authPerMinute, csvPerMinute } = config.rateLimits;
  const bankWrites = config.bank.writesPerMinute;
  const rateLimits = new RateLimitStores(db.db, {
    auth: authPerMinute,
    "csv-batch": csvPerMinute,
    "csv-contacts": csvPerMinute,
    "csv-exports": csvPerMinute,
    "batch-reports": config.limits.batchReportsPerMinute,
    "alert-tests": config.alerts.testsPerMinute,
    "bank-accounts": bankWrites,
    "bank-wallets": bankWrites,
    "bank-deposits": bankWrites,
    "safe-writes": config.limits.safeWritesPerMinute,
    "safe-lookups": config.limits.safeLookupsPerMinute,
    "scenario-runs": config.limits.scenarioRunsPerMinute,
  });
  const exportLimits = new ExportLimits(db.db, config.exports, rateLimits);
  const metrics = new Metrics({ db: db.db, transport: chain.transport, indexer, leadership, rateLimits });
  // The probe asks the parts themselves, each as /monitoring shows it.
  const probed = { config, db, auth, indexer, heads, batchWatcher, bank, alerts, leadership };
  const monitoring = new MonitoringHistory(
    {
      figures: async () => ({
        requests: await metrics.requestTotals(),
        rpcErrors: Object.values(chain.transport.snapshot().errors).reduce((a, b) => a + b, 0),
        indexerLag: indexer.status().lag,
      }),
      probe: () => probeParts(probed),
    },
    log.child({ component: "monitoring" }),
  );
  const exports = new ExportsService(db.db, events, chain.manifest.deploymentBlock);
  const serving = { draining: false, url: null as string | null };
  const scenarios = new ScenarioRuns(scenarioEngine(config, chain, serving), offLocalChain(config), log.child({ component: "scenarios" }));
  return {
    ...{ config, chain, db, auth, indexer, events, exports, tokenState, holders, rewards, siwe, audit },
    ...{ batch, batchWatcher, heads, contacts, bank, alerts, safes, safeReader, scenarios },
    ...{ leadership, rateLimits, exportLimits, metrics, monitoring, serving },
  };
}

/**
 * The engine and the snapshots behind the Scenarios panel, on this server's own chain. Never built
 * off the local chain: it sends from Hardhat's unlocked or impersonated accounts and reverts the
 * node. A file's Firebase test user (user.ts) is made through this server's own API, as a client would.
 */
function scenarioEngine(config: Config, chain: Chain, serving: { url: string | null }): ScenarioEngine | null {
  if (offLocalChain(config)) return null;
  // The manifest the server was started with: the engine and the snapshots read and write it too.
  const options = { env: { ...process.env, DEPLOYMENTS_DIR: config.deploymentsDir } };
  const userPart: UserPart = (scenario, ctx) => {
    if (!serving.url) throw new Error("The API server is not listening yet: apply the scenario again in a moment.");
    return userPartThrough({ url: serving.url })(scenario, ctx);
  };
  const shipped = shippedScenarios({ provider: chain.provider, network: config.network, userPart, ...options });
  const node = { send: chain.rawRpc };
  return {
    list: shipped.list,
    apply: shipped.apply,
    snapshots: () => listSnapshots(node, options),
    takeSnapshot: (name) => takeSnapshot(node, name, options),
    restore: async (name, onProgress) => {
      await restoreSnapshot(node, name, onProgress, options);
    },
  };
}
