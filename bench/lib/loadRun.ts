/**
 * One load run of `npm run bench:load`: `clients` keep-alive clients poll a list of endpoints over
 * a set of replicas, each request going to the next replica in turn (a round-robin load balancer),
 * and the machine's CPU is sampled meanwhile. Measures; prints nothing.
 */
import { readFileSync, readdirSync } from "node:fs";
import http from "node:http";

export interface Endpoint {
  name: string;
  path(client: number): string;
  token(client: number): string | null;
}

export interface Sample {
  endpoint: string;
  ms: number;
  ok: boolean;
}

export interface RunResult {
  seconds: number;
  samples: Sample[];
  /** "endpoint: status body" → how many times. */
  errors: Map<string, number>;
  /**
   * Where the CPU went: the machine's busy share (0..1), and in cores (1 = one core all the run):
   * each replica, PostgreSQL's processes, and the clients (this process).
   */
  cpu: { busy: number; cores: number; replicas: number[]; postgres: number; clients: number };
}

/** One GET on a keep-alive agent: its status (0 for a network failure) and the time to the last byte. */
function get(agent: http.Agent, port: number, urlPath: string, token: string | null): Promise<{ ms: number; error?: string }> {
  const started = process.hrtime.bigint();
  const elapsed = () => Number(process.hrtime.bigint() - started) / 1e6;
  return new Promise((resolve) => {
    const req = http.request(
      { agent, host: "127.0.0.1", port, path: urlPath, method: "GET", headers: token ? { authorization: `Bearer ${token}` } : {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const status = res.statusCode ?? 0;
          resolve({
            ms: elapsed(),
            error: status >= 200 && status < 300 ? undefined : `${status} ${Buffer.concat(chunks).toString().slice(0, 200)}`,
          });
        });
        res.on("error", (e) => resolve({ ms: elapsed(), error: e.message }));
      },
    );
    req.on("error", (e) => resolve({ ms: elapsed(), error: e.message }));
    req.end();
  });
}

export const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** A process's CPU time so far in clock ticks (Linux /proc/<pid>/stat: utime + stime), 0 once it is gone. */
function processTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // the name may hold spaces
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** Every PostgreSQL server process's CPU ticks (the postmaster and one backend per connection). */
function postgresTicks(): number {
  let ticks = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() === "postgres") ticks += processTicks(Number(entry));
    } catch {
      /* gone meanwhile */
    }
  }
  return ticks;
}

/** The machine's CPU counters (Linux /proc/stat): busy and total jiffies over all cores. */
function cpuTimes(): { busy: number; total: number; cores: number } {
  const lines = readFileSync("/proc/stat", "utf8").split("\n");
  const fields = lines[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = fields[3] + (fields[4] ?? 0); // idle + iowait
  const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - idle, total, cores: lines.filter((l) => /^cpu\d+ /.test(l)).length };
}

/** Warm-up: connections opened, caches filled, code paths compiled, on every replica. */
export async function warmUp(ports: number[], endpoints: Endpoint[]): Promise<void> {
  const agent = new http.Agent({ keepAlive: true });
  for (const port of ports) for (let i = 0; i < 3; i++) await Promise.all(endpoints.map((e) => get(agent, port, e.path(i), e.token(i))));
  agent.destroy();
}

/**
 * Each client asks for every endpoint once per `pollMs` (0: back to back, the capacity run),
 * starting at a random moment of the first interval, and each request goes to the next replica.
 */
export async function runLoad(
  replicas: { port: number; pid: number }[],
  endpoints: Endpoint[],
  clients: number,
  pollMs: number,
  seconds: number,
): Promise<RunResult> {
  const ports = replicas.map((r) => r.port);
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const samples: Sample[] = [];
  const errors = new Map<string, number>();
  let nextReplica = 0;
  const cpuBefore = cpuTimes();
  const replicasBefore = replicas.map((r) => processTicks(r.pid));
  const postgresBefore = postgresTicks();
  const ownBefore = process.cpuUsage();
  const started = Date.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      // Clients start spread over the first interval, as browsers opened at different moments.
      if (pollMs > 0) await new Promise((r) => setTimeout(r, Math.random() * pollMs));
      // Each client starts at a different endpoint so the mix is even at every moment.
      for (let n = client; Date.now() < end; n++) {
        const endpoint = endpoints[n % endpoints.length];
        const port = ports[nextReplica++ % ports.length];
        const answer = await get(agent, port, endpoint.path(client), endpoint.token(client));
        samples.push({ endpoint: endpoint.name, ms: answer.ms, ok: answer.error === undefined });
        if (answer.error !== undefined)
          errors.set(`${endpoint.name}: ${answer.error}`, (errors.get(`${endpoint.name}: ${answer.error}`) ?? 0) + 1);
        // After a round of every endpoint, wait for the next poll.
        if (pollMs > 0 && (n - client) % endpoints.length === endpoints.length - 1) {
          await new Promise((r) => setTimeout(r, Math.max(0, pollMs - answer.ms)));
        }
      }
    }),
  );
  const elapsed = (Date.now() - started) / 1000;
  agent.destroy();
  const cpuAfter = cpuTimes();
  const own = process.cpuUsage(ownBefore);
  const busyJiffies = cpuAfter.busy - cpuBefore.busy;
  const totalJiffies = cpuAfter.total - cpuBefore.total;
  // /proc counts in clock ticks (USER_HZ, 100 a second on Linux); cpuUsage in microseconds.
  const inCores = (ticks: number) => ticks / 100 / elapsed;
  return {
    seconds: elapsed,
    samples,
    errors,
    cpu: {
      busy: totalJiffies > 0 ? busyJiffies / totalJiffies : 0,
      cores: cpuAfter.cores,
      replicas: replicas.map((r, i) => inCores(processTicks(r.pid) - replicasBefore[i])),
      postgres: inCores(postgresTicks() - postgresBefore),
      clients: (own.user + own.system) / 1e6 / elapsed,
    },
  };
}

/** [requests, req/s, p50, p95, p99, max, errors] for `of`. */
export function figures(
  of: Sample[],
  seconds: number,
): { requests: number; perSecond: number; p50: number; p95: number; p99: number; max: number; errors: number } {
  const ms = of.map((s) => s.ms).sort((a, b) => a - b);
  return {
    requests: of.length,
    perSecond: of.length / seconds,
    p50: percentile(ms, 50),
    p95: percentile(ms, 95),
    p99: percentile(ms, 99),
    max: ms[ms.length - 1] ?? NaN,
    errors: of.filter((s) => !s.ok).length,
  };
}
