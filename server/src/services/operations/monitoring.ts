import type { MonitoredPart, MonitoringPoint, PartHealth } from "@common/apiTypes";
import { MONITORED_PARTS } from "@common/api/operations";
import { errorText, type Logger } from "../../lib/logger";
import { FreshRead } from "../../lib/concurrency";

/**
 * What /monitoring shows, gathered by this replica every `intervalMs` whether or not anyone looks:
 * each part's health (and its last failure, kept after it recovers, with when it was first seen),
 * and a sample of the live figures for the charts. GET /api/monitoring then answers from memory, so
 * a public page that polls costs the node, the database and the identity service nothing per visitor.
 */

/** What a sample reads: counters that only grow (requests, latency buckets, RPC errors) and the lag now. */
export interface Figures {
  /** Requests answered since start, and their durations as a cumulative histogram (upper bounds in seconds). */
  requests: { count: number; buckets: { le: number; count: number }[] };
  rpcErrors: number;
  indexerLag: number | null;
}

/** One probe of a part: up or not, in words, and its error when it is not (or its loop's last error). */
export interface PartProbe {
  part: MonitoredPart;
  ok: boolean;
  detail: string;
  error: string | null;
}

export interface MonitoringSources {
  figures(): Figures | Promise<Figures>;
  probe(): Promise<PartProbe[]>;
}

/** Samples every 5 s, for 15 minutes. */
export const MONITORING_INTERVAL_MS = 5000;
const KEEP_POINTS = 180;

export class MonitoringHistory {
  private readonly points: MonitoringPoint[] = [];
  private last: { at: number; figures: Figures } | null = null;
  private parts: PartHealth[] = MONITORED_PARTS.map((part) => ({
    part,
    ok: false,
    detail: "not checked yet",
    lastError: null,
    lastErrorAt: null,
  }));
  private timer: NodeJS.Timeout | null = null;
  /** One sample at a time; a caller of sample() gets one begun after it asked (a sample under way may predate what it wants to see). */
  private latest: Promise<void> = Promise.resolve();
  private readonly sampler = new FreshRead(() =>
    this.takeSample().catch((error: unknown) => this.log.warn({ err: errorText(error) }, "monitoring sample failed")),
  );

  constructor(
    private readonly sources: MonitoringSources,
    private readonly log: Logger,
    readonly intervalMs = MONITORING_INTERVAL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Samples now (the parts' first look, and the counters' starting point), then every interval.
   * Not awaited: a node that does not answer must not hold up the server's start.
   */
  start(): void {
    void this.sample();
    this.timer = setInterval(() => void this.sample(), this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.latest; // the sample under way, if any: stopping starts none
  }

  health(): PartHealth[] {
    return this.parts.map((p) => ({ ...p }));
  }

  series(): MonitoringPoint[] {
    return [...this.points];
  }

  /** Takes a sample that begins after this call (sharing it with callers meanwhile). */
  sample(): Promise<void> {
    return (this.latest = this.sampler.get());
  }

  private async takeSample(): Promise<void> {
    const [probes, figures] = await Promise.all([this.sources.probe(), this.sources.figures()]);
    const at = this.now();
    this.parts = this.parts.map((previous) => {
      const probe = probes.find((p) => p.part === previous.part);
      if (!probe) return previous;
      // The error text is kept after recovery; a new text (or the same one after a recovery) is a new failure.
      const failing = probe.error !== null;
      const newFailure = failing && (previous.ok || previous.lastError !== probe.error);
      return {
        part: previous.part,
        ok: probe.ok,
        detail: probe.detail,
        lastError: failing ? probe.error : previous.lastError,
        lastErrorAt: newFailure ? new Date(at).toISOString() : previous.lastErrorAt,
      };
    });
    const last = this.last;
    this.last = { at, figures };
    if (!last) return;
    const seconds = (at - last.at) / 1000;
    if (seconds <= 0) return;
    const requests = figures.requests.count - last.figures.requests.count;
    const buckets = figures.requests.buckets.map((b, i) => ({ le: b.le, count: b.count - (last.figures.requests.buckets[i]?.count ?? 0) }));
    const ms = (q: number) => {
      const seconds = histogramQuantile(q, buckets);
      return seconds === null ? null : Math.round(seconds * 1000 * 100) / 100;
    };
    this.points.push({
      at,
      requestsPerSecond: Math.round((requests / seconds) * 100) / 100,
      p50Ms: ms(0.5),
      p95Ms: ms(0.95),
      p99Ms: ms(0.99),
      indexerLag: figures.indexerLag,
      rpcErrorsPerSecond: Math.round(((figures.rpcErrors - last.figures.rpcErrors) / seconds) * 100) / 100,
    });
    if (this.points.length > KEEP_POINTS) this.points.splice(0, this.points.length - KEEP_POINTS);
  }
}

/**
 * The q-quantile of observations counted in cumulative buckets (upper bound `le`, count of
 * observations at or below it), as Prometheus' histogram_quantile estimates it: linear within the
 * bucket the rank falls in, from the bucket below's bound (0 for the first). A rank in the +Inf
 * bucket answers the highest finite bound. Null when there is no observation.
 */
export function histogramQuantile(q: number, buckets: { le: number; count: number }[]): number | null {
  const sorted = [...buckets].sort((a, b) => a.le - b.le);
  const total = sorted.length ? sorted[sorted.length - 1].count : 0;
  if (total <= 0) return null;
  const rank = q * total;
  let below = { le: 0, count: 0 };
  for (const bucket of sorted) {
    if (bucket.count >= rank) {
      if (!Number.isFinite(bucket.le)) return below.le;
      const inBucket = bucket.count - below.count;
      if (inBucket <= 0) return bucket.le;
      return below.le + (bucket.le - below.le) * ((rank - below.count) / inBucket);
    }
    below = bucket;
  }
  return below.le;
}
