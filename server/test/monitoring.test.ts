import { expect } from "chai";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { PartHealth } from "@common/apiTypes";
import { MONITORED_PARTS } from "@common/api/operations";
import type { RunningServer } from "../src/index";
import { createLogger } from "../src/lib/logger";
import { Figures, histogramQuantile, MonitoringHistory, PartProbe } from "../src/services/operations/monitoring";
import { call, provider, startTestServer } from "./helpers";

const BOUNDS = [0.005, 0.01, 0.05, 0.1, Infinity];
/** Cumulative buckets for observations (seconds). */
const buckets = (observations: number[]) => BOUNDS.map((le) => ({ le, count: observations.filter((o) => o <= le).length }));

describe("monitoring: the figures /monitoring charts", () => {
  describe("histogramQuantile (Prometheus' estimate from cumulative buckets)", () => {
    it("interpolates within the bucket the rank falls in", () => {
      // 100 observations: 50 up to 5 ms, 40 more up to 10 ms, 10 more up to 50 ms.
      const b = [
        { le: 0.005, count: 50 },
        { le: 0.01, count: 90 },
        { le: 0.05, count: 100 },
        { le: Infinity, count: 100 },
      ];
      expect(histogramQuantile(0.5, b)).to.equal(0.005);
      expect(histogramQuantile(0.25, b)).to.be.closeTo(0.0025, 1e-12);
      expect(histogramQuantile(0.7, b)).to.be.closeTo(0.0075, 1e-12);
      expect(histogramQuantile(0.95, b)).to.be.closeTo(0.03, 1e-12);
    });

    it("answers the highest finite bound for a rank in +Inf, and null with no observation", () => {
      expect(histogramQuantile(0.99, buckets([0.001, 5, 5, 5]))).to.equal(0.1);
      expect(histogramQuantile(0.5, buckets([]))).to.equal(null);
    });
  });

  describe("MonitoringHistory", () => {
    let clock = 1_000_000;
    let figures: Figures;
    let probes: PartProbe[];
    const ok = (part: PartProbe["part"], detail = "fine"): PartProbe => ({ part, ok: true, detail, error: null });
    const history = () =>
      new MonitoringHistory({ figures: () => figures, probe: async () => probes }, createLogger("silent"), 5000, () => clock);

    beforeEach(() => {
      clock = 1_000_000;
      figures = { requests: { count: 0, buckets: buckets([]) }, rpcErrors: 0, indexerLag: null };
      probes = MONITORED_PARTS.map((p) => ok(p));
    });

    it("turns counters into rates and percentiles per interval, and keeps the lag as it was", async () => {
      const h = history();
      await h.sample();
      expect(h.series()).to.deep.equal([]); // the first sample is only the starting point
      const seen = [0.002, 0.002, 0.004, 0.008, 0.02];
      figures = { requests: { count: 5, buckets: buckets(seen) }, rpcErrors: 3, indexerLag: 2 };
      clock += 5000;
      await h.sample();
      // Only the second interval's requests count in the third point.
      figures = { requests: { count: 15, buckets: buckets([...seen, ...Array(10).fill(0.06)]) }, rpcErrors: 3, indexerLag: 0 };
      clock += 5000;
      await h.sample();
      const [first, second] = h.series();
      expect(first).to.deep.include({ at: 1_005_000, requestsPerSecond: 1, indexerLag: 2, rpcErrorsPerSecond: 0.6 });
      expect(first.p50Ms).to.be.closeTo(4.17, 0.01); // rank 2.5 of 5, in the 0-5 ms bucket that holds 3: 5 ms x 2.5/3
      expect(second).to.deep.include({ at: 1_010_000, requestsPerSecond: 2, indexerLag: 0, rpcErrorsPerSecond: 0 });
      expect(second.p50Ms).to.be.closeTo(75, 0.01); // all ten in the 50-100 ms bucket: rank 5 of 10 is halfway across it
      expect(second.p99Ms).to.be.closeTo(99.5, 0.01);
    });

    it("an interval with no request has no percentiles", async () => {
      const h = history();
      await h.sample();
      clock += 5000;
      await h.sample();
      expect(h.series()[0]).to.include({ requestsPerSecond: 0, p50Ms: null, p95Ms: null, p99Ms: null });
    });

    it("keeps a part's last error, and when it was first seen, after the part recovers", async () => {
      const h = history();
      await h.sample();
      expect(h.health().find((p) => p.part === "database")).to.deep.equal({
        part: "database",
        ok: true,
        detail: "fine",
        lastError: null,
        lastErrorAt: null,
      });
      probes = probes.map((p) =>
        p.part === "database"
          ? { part: "database", ok: false, detail: "PostgreSQL", error: "The database is not answering: try again in a moment." }
          : p,
      );
      clock += 5000;
      await h.sample();
      clock += 5000;
      await h.sample(); // still failing with the same words: the same failure, first seen before
      const down = h.health().find((p) => p.part === "database")!;
      expect(down).to.deep.equal({
        part: "database",
        ok: false,
        detail: "PostgreSQL",
        lastError: "The database is not answering: try again in a moment.",
        lastErrorAt: new Date(1_005_000).toISOString(),
      });
      probes = probes.map((p) => (p.part === "database" ? ok("database", "PostgreSQL") : p));
      clock += 5000;
      await h.sample();
      expect(h.health().find((p) => p.part === "database")).to.deep.equal({ ...down, ok: true });
    });

    it("keeps 15 minutes of samples", async () => {
      const h = history();
      for (let i = 0; i < 200; i++) {
        clock += 5000;
        await h.sample();
      }
      expect(h.series()).to.have.length(180);
      expect(h.series()[179].at).to.equal(clock);
    });
  });
});

describe("GET /api/monitoring", () => {
  let server: RunningServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server?.close();
  });

  it("answers signed out with each part's health, the build and the manifest's addresses, and nothing secret", async () => {
    await server.services.monitoring.sample();
    const { status, body, headers } = await call(server, "GET", "/api/monitoring");
    expect(status).to.equal(200);
    expect(headers.get("cache-control")).to.equal("no-store");
    const manifest = server.services.chain.manifest;
    expect(body.build).to.deep.include({
      version: JSON.parse(readFileSync(path.resolve(__dirname, "..", "..", "package.json"), "utf8")).version,
      network: "localhost",
      chainId: 31337,
      proxy: manifest.proxy,
      implementation: manifest.implementation,
      batchPayments: manifest.batchPayments,
      deploymentBlock: manifest.deploymentBlock,
      deployedAt: manifest.deployedAt,
    });
    expect(body.build.commit).to.match(/^[0-9a-f]{7,}$/); // this checkout's
    expect(body.replica).to.deep.include({ leader: true, mode: "sole" });
    expect(body.parts.map((p: PartHealth) => [p.part, p.ok])).to.deep.equal([
      ["chain", true],
      ["database", true],
      ["auth", true],
      ["indexer", true],
      ["batchWatcher", true],
      ["mockBank", true],
      ["alerts", true],
    ]);
    const head = await provider().getBlockNumber();
    expect(body.parts[0].detail).to.equal(`localhost, block ${head.toLocaleString("en-US")}`);
    expect(body.parts[1].detail).to.equal("PGlite (embedded)");
    expect(body.parts[3].detail).to.match(/^checkpoint [\d,]+, 0 blocks behind the head; indexing here, polling for heads$/);
    expect(body.parts[6].detail).to.equal("running here; no delivery waiting");
    // Nothing a visitor should not see: no RPC URL (a provider's carries its key), no key, no user data.
    const text = JSON.stringify(body);
    expect(text).not.to.include(server.services.config.rpcUrl);
    expect(text).not.to.match(/0x[0-9a-fA-F]{64}/); // no private key or hash-length secret
  });

  it("charts the requests of each interval: rate and latency move when requests happen", async () => {
    await server.services.monitoring.sample();
    for (let i = 0; i < 20; i++) await call(server, "GET", "/api/token");
    await server.services.monitoring.sample();
    const { body } = await call(server, "GET", "/api/monitoring");
    const last = body.series.points.at(-1);
    expect(body.series.intervalSeconds).to.equal(5);
    // At least the 20 requests of this interval, over the seconds since the previous sample.
    expect(last.requestsPerSecond).to.be.above(0);
    expect(last.p50Ms).to.be.a("number").and.to.be.above(0);
    expect(last.p99Ms).to.be.at.least(last.p50Ms);
    expect(last.indexerLag).to.equal(0);
    expect(last.rpcErrorsPerSecond).to.equal(0);
  });
});
