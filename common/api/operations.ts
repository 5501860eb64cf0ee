import { z } from "zod";
import { endpoints } from "./endpoint";
import { Address, IsoDate } from "./schemas";

/** Operations: GET /api/health, /live, /ready, /metrics, /monitoring. */

/** A background loop's state; lastError has RPC URLs cut to their origin (no provider key leaves the server). */
const LoopStatus = { running: z.boolean(), lastError: z.string().nullable() };

/** The indexer's state as GET /api/health reports it (services/indexing/indexer.ts keeps it in this shape). */
export const IndexerStatus = z
  .strictObject({
    checkpoint: z.number().int().nullable().meta({ description: "The last block indexed; null before the first step." }),
    head: z.number().int().nullable(),
    lag: z.number().int().nullable().meta({ description: "Blocks between the chain's head and the checkpoint." }),
    ...LoopStatus,
    lastSyncAt: IsoDate.nullable(),
  })
  .meta({ id: "IndexerStatus" });
export type IndexerStatus = z.infer<typeof IndexerStatus>;

const HealthReport = z
  .strictObject({
    status: z.enum(["ok", "degraded"]),
    network: z.string(),
    chainId: z.number().int(),
    proxy: Address,
    chain: z.union([
      z.strictObject({ ok: z.literal(true), blockNumber: z.number().int() }),
      z.strictObject({ ok: z.literal(false), error: z.string() }),
    ]),
    database: z.strictObject({ ok: z.boolean(), kind: z.enum(["pglite", "postgres"]) }),
    auth: z.strictObject({ ok: z.boolean(), mode: z.enum(["emulator", "firebase"]) }),
    indexer: IndexerStatus,
    leader: z.boolean().meta({ description: "Whether this replica runs the background work (indexer, batch watcher, mock bank, alerts)." }),
    leadership: z.strictObject({ mode: z.enum(["sole", "advisory-lock"]), since: IsoDate.nullable() }),
    batchWatcher: z.strictObject(LoopStatus),
    mockBank: z.strictObject({ enabled: z.boolean(), ...LoopStatus }),
    alerts: z
      .strictObject(LoopStatus)
      .meta({ description: "The loop that matches indexed events to the operators' alert rules and delivers them (on the leader)." }),
  })
  .meta({ id: "HealthReport" });

/** The parts of the service /monitoring shows, in its order. */
export const MONITORED_PARTS = ["chain", "database", "auth", "indexer", "batchWatcher", "mockBank", "alerts"] as const;
export type MonitoredPart = (typeof MONITORED_PARTS)[number];

export const PartHealth = z
  .strictObject({
    part: z.enum(MONITORED_PARTS),
    ok: z.boolean(),
    detail: z.string().meta({ description: 'What the part is doing, in words ("block 1,234", "PostgreSQL", "off: MOCK_BANK=off").' }),
    lastError: z
      .string()
      .nullable()
      .meta({ description: "The part's last failure (RPC URLs reduced to their origin); null when it never failed since start." }),
    lastErrorAt: IsoDate.nullable(),
  })
  .meta({ id: "PartHealth" });
export type PartHealth = z.infer<typeof PartHealth>;

const Ms = z.number().nullable().meta({ description: "Milliseconds; null when no request was answered in the interval." });
export const MonitoringPoint = z
  .strictObject({
    at: z.number().meta({ description: "The end of the interval, in ms since the epoch." }),
    requestsPerSecond: z.number(),
    p50Ms: Ms,
    p95Ms: Ms,
    p99Ms: Ms,
    indexerLag: z
      .number()
      .int()
      .nullable()
      .meta({ description: "Blocks between the chain's head and the index's checkpoint (null before the first step)." }),
    rpcErrorsPerSecond: z.number(),
  })
  .meta({ id: "MonitoringPoint", description: "One sample of the answering replica's figures." });
export type MonitoringPoint = z.infer<typeof MonitoringPoint>;

const PerSecond = z.number().nullable().meta({ description: "Requests a second; null: no limit." });
export const RpcBudgetStatus = z
  .strictObject({
    plan: z.string().meta({ description: "The provider plan named by RPC_PLAN, or 'custom' when RPC_REQUESTS_PER_SECOND sets the rate." }),
    configuredPerSecond: PerSecond,
    allowedPerSecond: PerSecond.meta({
      description: "Requests a second allowed now, all loops together; lower than configured for a while after a 429.",
    }),
    loweredUntil: IsoDate.nullable().meta({
      description: "While a 429 holds the rate lower: when the hold ends, after which the rate recovers stepwise; null when not lowered.",
    }),
    spentPerSecond: z.number().meta({ description: "Requests sent a second, on average over the last minute." }),
    spentTotal: z.number().int().meta({ description: "Requests sent since start (a batch of N calls counts N; retries count again)." }),
    waits: z.number().int().meta({ description: "Requests that waited for their turn since start." }),
    waitedSeconds: z.number().meta({ description: "Seconds those requests waited, summed." }),
    refused: z
      .number()
      .int()
      .meta({ description: "Calls refused because their turn came later than they may wait (their loops try again later)." }),
  })
  .meta({ id: "RpcBudgetStatus", description: "The request budget every loop that reads the chain shares (this replica's)." });
export type RpcBudgetStatus = z.infer<typeof RpcBudgetStatus>;

export const MonitoringAnswer = z
  .strictObject({
    replica: z.strictObject({ leader: z.boolean(), mode: z.enum(["sole", "advisory-lock"]), startedAt: IsoDate }),
    build: z.strictObject({
      version: z.string(),
      commit: z.string().nullable().meta({ description: "The source's git commit (short), when the server knows it." }),
      network: z.string(),
      chainId: z.number().int(),
      proxy: Address,
      implementation: Address,
      batchPayments: Address,
      deploymentBlock: z.number().int(),
      deployedAt: IsoDate,
    }),
    parts: z.array(PartHealth),
    rpcBudget: RpcBudgetStatus,
    series: z.strictObject({ intervalSeconds: z.number(), points: z.array(MonitoringPoint) }),
  })
  .meta({ id: "Monitoring" });
export type MonitoringAnswer = z.infer<typeof MonitoringAnswer>;

const METRICS_EXAMPLE = `# HELP usdx_http_requests_total HTTP requests answered, by method, route and status.
# TYPE usdx_http_requests_total counter
usdx_http_requests_total{method="GET",route="/api/token",status="200"} 42
`;

export const operationsApi = endpoints({
  "GET /api/health": {
    tag: "Operations",
    summary: "Health of each part",
    description:
      "The chain, the database, sign-in and the indexer, and whether this replica leads: 200 when all answer, else 503 with the same report saying what does not.",
    access: "public",
    answer: HealthReport,
    otherAnswers: { 503: { description: "A part does not answer: the same report, with status 'degraded'.", schema: HealthReport } },
  },
  "GET /api/live": {
    tag: "Operations",
    summary: "Liveness, for a load balancer",
    description: "The process runs and answers: restart it when this fails.",
    access: "public",
    answer: z.strictObject({ status: z.literal("live") }),
  },
  "GET /api/ready": {
    tag: "Operations",
    summary: "Readiness, for a load balancer",
    description: "This replica can serve requests: its database answers and it is not stopping. 503 otherwise, with the reason.",
    access: "public",
    answer: z.strictObject({ status: z.literal("ready"), leader: z.boolean() }),
    otherAnswers: {
      503: {
        description: "The replica is stopping, or its database does not answer.",
        schema: z.strictObject({ status: z.enum(["draining", "unready"]), error: z.string() }),
      },
    },
  },
  "GET /api/metrics": {
    tag: "Operations",
    summary: "Metrics in the Prometheus text format",
    description:
      "HTTP requests and latency by route and status, RPC calls and errors by method, the RPC request budget (allowed, spent, waits), the indexer's checkpoint, head and lag, batch jobs and chunks, the mock bank's queue, rate-limit refusals and the process's own figures. For an operator's scraper: send METRICS_TOKEN as the bearer token, or call from the same machine without a proxy.",
    access: "operator",
    answer: {
      contentType: "text/plain; version=0.0.4; charset=utf-8",
      description: "The Prometheus text exposition format.",
      example: METRICS_EXAMPLE,
    },
    noStore: true,
  },
  "GET /api/openapi.json": {
    tag: "Operations",
    summary: "This document",
    description:
      "The API's OpenAPI 3.1 document, generated from the server's own declaration of every endpoint. Also in the repository at docs/openapi.json.",
    access: "public",
    answer: z.record(z.string(), z.unknown()).meta({ description: "An OpenAPI 3.1 document." }),
  },
  "GET /api/monitoring": {
    tag: "Operations",
    summary: "What /monitoring shows",
    description:
      "Each part's health with its last error, what the RPC request budget allows and what was spent, the last minutes of request rate, latency, indexer lag and RPC errors, and the build. Public: it holds nothing secret. The figures are the answering replica's own.",
    access: "public",
    answer: MonitoringAnswer,
    noStore: true,
  },
});
