import { count } from "drizzle-orm";
import type { Request } from "express";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Metric, Registry } from "prom-client";
import type { BudgetStatus } from "../../chain/rpcBudget";
import type { RpcTransport } from "../../chain/rpcTransport";
import type { Database } from "../../db/client";
import { batchChunks, batchJobs, deposits } from "../../db/schema";
import type { EventIndexer } from "../indexing/indexer";
import type { Leadership } from "./leader";
import { within } from "../../lib/concurrency";
import type { RateLimitStores } from "./rateLimitStore";

/**
 * GET /api/metrics in the Prometheus text format. Each server has a registry of its own (tests
 * start many servers in one process, and one server's requests must not count in another's).
 * Most figures are read at scrape time from state the services already keep (the transport's call
 * counts, the indexer's status, the rate limits' refusals, the database's rows), so nothing is
 * counted twice; only the HTTP figures are recorded as requests finish (app.ts).
 *
 * Labels are fixed words, route patterns, methods and statuses: never a user's data, an address,
 * an id or a raw URL, which would leak what users do and let anyone grow the series without end.
 */

/** The label of a request no route matched (unknown paths, CORS preflights, the dashboard's files). */
export const UNMATCHED_ROUTE = "unmatched";

/** A scrape does not wait longer than this for the database: its gauges are left out instead. */
export const SCRAPE_QUERY_TIMEOUT_MS = 2000;

export interface MetricsSources {
  db: Database;
  transport: RpcTransport;
  indexer: EventIndexer;
  leadership: Leadership;
  rateLimits: RateLimitStores;
}

let processRegistry: Registry | undefined;

/**
 * The process's own figures (CPU, memory, heap, event loop lag, GC, handles): prom-client's
 * defaults under their standard names (process_*, nodejs_*), so stock Node.js dashboards read them.
 * Collected once per process, whatever the number of servers: each call of collectDefaultMetrics
 * starts a GC observer and an event-loop monitor that are never stopped. Every server's registry
 * holds these same metric objects, which is true to what they measure: the one process.
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * A gauge of rows by status, counted at scrape time. When the database does not answer, the gauge
 * has no samples (rather than zeros, which would read as "nothing queued"), and the rest of the
 * scrape is answered.
 */
function statusGauge(registry: Registry, name: string, help: string, rows: () => Promise<{ status: string; n: number }[]>): void {
  new Gauge({
    name,
    help,
    labelNames: ["status"],
    registers: [registry],
    async collect() {
      let counted: { status: string; n: number }[] | null;
      try {
        counted = await within(rows(), SCRAPE_QUERY_TIMEOUT_MS, "the database did not answer in time");
      } catch {
        counted = null;
      }
      this.reset();
      for (const { status, n } of counted ?? []) this.set({ status }, n);
    },
  });
}

/** Sets a label-less gauge, or leaves it without a sample while the figure is unknown (null). */
function setOrOmit(gauge: Gauge, value: number | null): void {
  if (value === null) gauge.remove({});
  else gauge.set(value);
}

/** A counter that shows a count kept elsewhere, by one label. */
function countsBy(counter: Counter<string>, label: string, counts: Iterable<[string, number]>): void {
  counter.reset();
  for (const [value, n] of counts) counter.inc({ [label]: value }, n);
}

/**
 * The request budget every loop shares (chain/rpcBudget.ts): what it allows now (absent while there
 * is no limit), whether a 429 holds it lower and until when, what was spent, and how long callers waited.
 */
function rpcBudgetMetrics(registry: Registry, transport: RpcTransport): void {
  const status = () => transport.budget.status();
  const gauge = (name: string, help: string, read: (s: BudgetStatus) => number | null) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        setOrOmit(this, read(status()));
      },
    });
  const counter = (name: string, help: string, read: (s: BudgetStatus) => number) =>
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(read(status()));
      },
    });
  gauge(
    "usdx_rpc_budget_allowed_requests_per_second",
    "Requests a second the RPC budget allows now, all loops together: RPC_PLAN's or RPC_REQUESTS_PER_SECOND's rate, lower for a while after a 429 (absent while there is no limit).",
    (s) => s.allowedPerSecond,
  );
  gauge(
    "usdx_rpc_budget_configured_requests_per_second",
    "Requests a second the RPC budget's setting allows (absent while there is no limit).",
    (s) => s.configuredPerSecond,
  );
  gauge(
    "usdx_rpc_budget_lowered_until_seconds",
    "While a 429 holds the RPC budget lower: when the hold ends (Unix seconds), after which the rate recovers stepwise (absent when not lowered).",
    (s) => (s.lowered ? s.lowered.holdUntil / 1000 : null),
  );
  gauge(
    "usdx_rpc_budget_spent_requests_per_second",
    "RPC requests sent a second, on average over the last minute.",
    (s) => s.spentPerSecond,
  );
  counter(
    "usdx_rpc_budget_spent_requests_total",
    "RPC requests sent through the budget (a batch of N calls counts N; a retry counts again).",
    (s) => s.spentTotal,
  );
  counter("usdx_rpc_budget_waits_total", "RPC requests that waited for their turn in the budget.", (s) => s.waits);
  counter(
    "usdx_rpc_budget_wait_seconds_total",
    "Seconds RPC requests waited for their turn in the budget, summed.",
    (s) => s.waitedSeconds,
  );
  counter(
    "usdx_rpc_budget_refusals_total",
    "RPC calls the budget refused because their turn came later than they may wait (their loops defer).",
    (s) => s.refused,
  );
  counter("usdx_rpc_budget_lowerings_total", "429s that lowered (or held lower) the RPC budget.", (s) => s.lowerings);
}

export class Metrics {
  readonly registry = new Registry();
  private readonly httpRequests: Counter<"method" | "route" | "status">;
  private readonly httpDuration: Histogram<"method" | "route" | "status">;

  constructor(sources: MetricsSources) {
    const registry = this.registry;
    // getMetricsAsArray is typed as plain descriptions, but answers the metric objects themselves.
    for (const metric of processMetrics().getMetricsAsArray()) registry.registerMetric(metric as unknown as Metric);

    this.httpRequests = new Counter({
      name: "usdx_http_requests_total",
      help: "HTTP requests answered, by method, route pattern (unmatched: no route) and status.",
      labelNames: ["method", "route", "status"],
      registers: [registry],
    });
    // prom-client's default buckets (5 ms to 10 s): a chain read gives up within 6 s.
    this.httpDuration = new Histogram({
      name: "usdx_http_request_duration_seconds",
      help: "Time from a request's arrival to the end of its answer, by method, route pattern and status.",
      labelNames: ["method", "route", "status"],
      registers: [registry],
    });

    new Counter({
      name: "usdx_rpc_requests_total",
      help: "JSON-RPC calls sent to the node, by method (a batch counts each of its calls; retries are not counted again).",
      labelNames: ["method"],
      registers: [registry],
      collect() {
        countsBy(this, "method", Object.entries(sources.transport.snapshot().calls));
      },
    });
    new Counter({
      name: "usdx_rpc_errors_total",
      help: "JSON-RPC calls that got no result, by method: the node's error (reverts included), an HTTP error, or no answer within the call's budget.",
      labelNames: ["method"],
      registers: [registry],
      collect() {
        countsBy(this, "method", Object.entries(sources.transport.snapshot().errors));
      },
    });

    rpcBudgetMetrics(registry, sources.transport);

    const { indexer } = sources;
    new Gauge({
      name: "usdx_indexer_checkpoint_block",
      help: "The newest block the event index holds (absent until known).",
      registers: [registry],
      collect() {
        setOrOmit(this, indexer.status().checkpoint);
      },
    });
    new Gauge({
      name: "usdx_indexer_head_block",
      help: "The chain's head block as the indexer (or, on a follower, the index follower) last read it (absent until read).",
      registers: [registry],
      collect() {
        setOrOmit(this, indexer.status().head);
      },
    });
    new Gauge({
      name: "usdx_indexer_lag_blocks",
      help: "Blocks between the chain's head and the index's checkpoint (absent until known).",
      registers: [registry],
      collect() {
        setOrOmit(this, indexer.status().lag);
      },
    });
    new Counter({
      name: "usdx_indexer_events_total",
      help: "Events this process stored in the index; rate() of it is events indexed per second. Stays 0 on a replica that follows the leader's index.",
      registers: [registry],
      collect() {
        this.reset();
        this.inc(indexer.eventsStored);
      },
    });
    new Counter({
      name: "usdx_explorer_requests_total",
      help: "Calls the explorer backfill sent to Etherscan's logs API (INDEXER_BACKFILL=explorer), rate-limit answers included; not RPC calls.",
      registers: [registry],
      collect() {
        this.reset();
        this.inc(indexer.backfill?.requests ?? 0);
      },
    });

    const { db } = sources;
    statusGauge(registry, "usdx_batch_jobs", "Batch jobs in the database, by status (processing, completed, failed).", () =>
      db.select({ status: batchJobs.status, n: count() }).from(batchJobs).groupBy(batchJobs.status),
    );
    statusGauge(
      registry,
      "usdx_batch_chunks",
      "Batch chunks (one transaction each) in the database, by status (pending, submitted, confirmed, failed, closed).",
      () => db.select({ status: batchChunks.status, n: count() }).from(batchChunks).groupBy(batchChunks.status),
    );
    statusGauge(
      registry,
      "usdx_bank_deposits",
      "The mock bank's deposits, by status: pending and processing are its queue; completed and failed are done.",
      () => db.select({ status: deposits.status, n: count() }).from(deposits).groupBy(deposits.status),
    );

    new Counter({
      name: "usdx_rate_limit_refusals_total",
      help: "Requests this replica refused with a 429 because a rate limit was passed, by limit.",
      labelNames: ["limit"],
      registers: [registry],
      collect() {
        countsBy(this, "limit", sources.rateLimits.refusalCounts());
      },
    });
    new Gauge({
      name: "usdx_leader",
      help: "1 while this replica runs the background work (indexer, batch watcher, mock bank worker), else 0.",
      registers: [registry],
      collect() {
        this.set(sources.leadership.status().leader ? 1 : 0);
      },
    });
  }

  /** Counts one answered request; `route` is a route pattern or UNMATCHED_ROUTE, never a raw path. */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status: String(status) };
    this.httpRequests.inc(labels);
    this.httpDuration.observe(labels, seconds);
  }

  /**
   * Every request answered since start and their durations, summed over routes and statuses: the
   * cumulative buckets /monitoring turns into rates and percentiles (services/operations/monitoring.ts).
   */
  async requestTotals(): Promise<{ count: number; buckets: { le: number; count: number }[] }> {
    const byBound = new Map<number, number>();
    let count = 0;
    for (const value of (await this.httpDuration.get()).values) {
      if (value.metricName?.endsWith("_count")) count += value.value;
      if (!value.metricName?.endsWith("_bucket")) continue;
      const bound = (value.labels as Record<string, string | number | undefined>).le; // a bucket's own label, beside the metric's
      const le = bound === "+Inf" ? Infinity : Number(bound);
      byBound.set(le, (byBound.get(le) ?? 0) + value.value);
    }
    return { count, buckets: [...byBound].map(([le, n]) => ({ le, count: n })).sort((a, b) => a.le - b.le) };
  }

  /** The scrape: every metric as text, and the content type to answer it with. */
  async scrape(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}

/**
 * Follows which route answers `req`, for the route label. Read when the answer has finished:
 * `req.route` is the last route the router dispatched to, but `req.baseUrl` (the mount path of its
 * router) has been put back by then when the route passed an error on (a 401, a 400 from zod), so
 * the pair is taken at the moment the route is dispatched. The mount paths in app.ts are fixed
 * words, so the base is a pattern too.
 */
export function followRoute(req: Request): () => string {
  let route: unknown;
  let pattern: string | null = null;
  Object.defineProperty(req, "route", {
    configurable: true,
    enumerable: true,
    get: () => route,
    set: (value: { path?: unknown } | undefined) => {
      route = value;
      pattern = typeof value?.path === "string" ? joinRoute(req.baseUrl, value.path) : null;
    },
  });
  return () => pattern ?? UNMATCHED_ROUTE;
}

function joinRoute(base: string, path: string): string {
  return path === "/" ? base || "/" : `${base}${path}`;
}
