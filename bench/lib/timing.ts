/** Latency samples for the API benches (bench/api.ts, bench/holders.ts): percentiles of timed calls. */

export interface Latency {
  p50: number;
  p95: number;
}

/** The p-th percentile of samples sorted ascending. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * `fn` timed `runs` times, in milliseconds. With `setup`, an untimed setup before each sample (and
 * no warm-up, since setup changes what is timed); without, one untimed warm-up call first.
 */
export async function time(runs: number, fn: () => Promise<unknown>, setup?: () => Promise<unknown>): Promise<Latency> {
  const samples: number[] = [];
  if (!setup) await fn();
  for (let i = 0; i < runs; i++) {
    if (setup) await setup();
    const t = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p95: percentile(samples, 95) };
}
