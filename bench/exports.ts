/**
 * The exports for the books at 100,000 rows (run by bench/api.ts once its batch payments are
 * indexed): GET /api/events/export?eventName=Transfer (every Transfer) and the payer's
 * GET /api/accounts/:address/history/export, each read over HTTP as a client reads a download (the
 * body streamed, never held whole), with the time, rows a second, megabytes and how far the
 * process's resident memory rose above where it started (the server runs in this process).
 */
import type { RunningServer } from "../server/src/index";
import { emailUser } from "../server/test/helpers";
import type { Stack } from "../server/test/stack";
import { formatTable } from "@common/textTable";

const EXPORT_RUNS = 3;
/** Issue 18: "100,000 rows export in a few seconds", taken as 3 s for 100,000 rows. */
const GOAL_MS_PER_100K = 3000;

interface ExportRun {
  ms: number;
  rows: number;
  bytes: number;
  rssGrowth: number;
}

/** One export, streamed: rows counted by line ends as the bytes arrive, resident memory sampled every 10 ms. */
async function exportOnce(server: RunningServer, token: string, path: string): Promise<ExportRun> {
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 10);
  const started = process.hrtime.bigint();
  try {
    const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    if (res.status !== 200 || !res.body) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    let bytes = 0;
    let lineEnds = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) lineEnds++;
    }
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    return { ms, rows: lineEnds - 1, bytes, rssGrowth: Math.max(rssPeak, process.memoryUsage().rss) - rssBefore };
  } finally {
    clearInterval(sampler);
  }
}

/** Prints the figures; true when the median export of each met the goal scaled to its rows. */
export async function benchExports(server: RunningServer, stack: Stack, payer: string): Promise<boolean> {
  (globalThis as { usdxStack?: Stack }).usdxStack = stack;
  const { idToken: token } = await emailUser();
  const cases: [string, string][] = [
    ["Contract Events, eventName=Transfer", "/api/events/export?eventName=Transfer"],
    ["the payer's history", `/api/accounts/${payer}/history/export`],
  ];
  const rows: string[][] = [];
  let met = true;
  for (const [label, path] of cases) {
    await exportOnce(server, token, path); // warm-up: the planner's statistics and the page cache
    const runs: ExportRun[] = [];
    for (let i = 0; i < EXPORT_RUNS; i++) runs.push(await exportOnce(server, token, path));
    runs.sort((a, b) => a.ms - b.ms);
    const median = runs[Math.floor(runs.length / 2)];
    const goal = (GOAL_MS_PER_100K * median.rows) / 100_000;
    met &&= median.ms <= goal;
    rows.push([
      label,
      median.rows.toLocaleString("en-US"),
      (median.ms / 1000).toFixed(2),
      Math.round(median.rows / (median.ms / 1000)).toLocaleString("en-US"),
      (median.bytes / 1024 / 1024).toFixed(1),
      (Math.max(...runs.map((r) => r.rssGrowth)) / 1024 / 1024).toFixed(0),
      `${(median.ms / goal).toFixed(2)}`,
    ]);
  }
  console.log(
    `\nCSV exports, streamed over HTTP (median of ${EXPORT_RUNS} after a warm-up; RSS: the bench process, server included, its largest rise in a run)\n`,
  );
  console.log(formatTable(["export", "rows", "seconds", "rows/s", "MB", "RSS rise MB", "of goal"], rows));
  console.log(
    `\ngoal: 100,000 rows in a few seconds (taken as ${GOAL_MS_PER_100K / 1000} s; "of goal" is the time over the goal, 1.00 or less meets it): ${met ? "met" : "MISSED"}`,
  );
  return met;
}
