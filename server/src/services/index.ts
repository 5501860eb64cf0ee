import type { Chain } from "../chain/client";
import type { HeadSubscription } from "../chain/heads";
import type { Config } from "../config";
import type { DatabaseHandle } from "../db/client";
import type { AlertsService } from "./alerts";
import type { AuditService } from "./auth/audit";
import type { MockBankService } from "./bank";
import type { BatchService } from "./batch/jobs";
import type { BatchWatcher } from "./batch/watcher";
import type { ContactsService } from "./contacts";
import type { EventsService } from "./indexing/events";
import type { ExportsService } from "./indexing/exports";
import type { AuthProvider } from "./auth/firebaseAuth";
import type { HoldersService } from "./indexing/holders";
import type { EventIndexer } from "./indexing/indexer";
import type { RateLimitStores } from "./operations/rateLimitStore";
import type { ExportLimits } from "./operations/exportLimits";
import type { Leadership } from "./operations/leader";
import type { Metrics } from "./operations/metrics";
import type { MonitoringHistory } from "./operations/monitoring";
import type { RewardsService } from "./indexing/rewards";
import type { SafesService } from "./safes/proposals";
import type { SafeReader } from "./safes/reader";
import type { ScenarioRuns } from "./scenarios/runs";
import type { SiweService } from "./auth/siwe";
import type { TokenStateService } from "./indexing/tokenState";

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
  /** The node's pushed heads (RPC_WS_URL), which wake the indexer and the watcher; null: they poll. Runs on the leader. */
  heads: HeadSubscription | null;
  contacts: ContactsService;
  bank: MockBankService;
  /** Operators' alerts: the rules, the delivery log, and the leader's loop that matches and delivers. */
  alerts: AlertsService;
  /** Writes proposed to Safes that hold USDX roles: proposals, owners' approvals, what became of each. */
  safes: SafesService;
  /** Reads the Safes that hold USDX roles (owners, threshold, roles) at the latest block; nothing cached. */
  safeReader: SafeReader;
  /** The Scenarios panel (the local chain only): the shipped scenarios, the snapshots, one run at a time. */
  scenarios: ScenarioRuns;
  /** Whether this replica runs the background work (the indexer, the batch watcher, the bank's worker, the alerts); started by startServer. */
  leadership: Leadership;
  /** The rate limits' counters, in the database so that they hold across replicas. */
  rateLimits: RateLimitStores;
  /** What CSV exports may cost: places at once in this process, rows a minute per user and per client address. */
  exportLimits: ExportLimits;
  /** This server's own Prometheus registry: GET /api/metrics. */
  metrics: Metrics;
  /** What /monitoring shows: the parts' health and the last minutes' figures, sampled by startServer's timer. */
  monitoring: MonitoringHistory;
  /**
   * `draining`: set when the server drains (SIGTERM): /api/ready answers 503 and requests are
   * answered with Connection: close. `url`: where it listens, once it does (the Scenarios panel's
   * Firebase test user is made through it, as a client would).
   */
  serving: { draining: boolean; url: string | null };
}
