import { databaseErrorSentence } from "../../db/errors";
import { errorText, type Logger } from "../../lib/logger";
import { HEADS_SAFETY_NET_MS, type HeadSource } from "../../chain/heads";

/**
 * Runs a step every `intervalMs`, one at a time, until stopped. A step that throws is logged and
 * retried less often (the node or the database is away) until it succeeds again. `runNow` asks for
 * a step as soon as the current one ends, and resolves when that step has run.
 */
export class Ticker<T = unknown> {
  private timer: NodeJS.Timeout | null = null;
  /** When the timer fires, and when the last step began (wake() keeps steps at least intervalMs apart). */
  private timerDue = 0;
  private lastStartAt = 0;
  private current: Promise<T> | null = null;
  private stopped = true;
  /** The wait between steps while something else wakes the loop (pushed heads); null: intervalMs. */
  private paceMs: number | null = null;
  /** Callers of wake() waiting for the step their wake-up starts. */
  private woken: (() => void)[] = [];
  lastError: string | null = null;

  constructor(
    private readonly step: () => Promise<T>,
    private readonly intervalMs: number,
    private readonly log: Logger,
    private readonly what: string,
  ) {}

  get running(): boolean {
    return !this.stopped;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.current?.catch(() => undefined);
    for (const resolve of this.woken.splice(0)) resolve();
  }

  /** One step now (after the one under way): its result, or its error. */
  runNow(): Promise<T> {
    const run = (this.current ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => {
        this.lastStartAt = Date.now();
        return this.step();
      });
    this.current = run;
    return run;
  }

  /** Wakes the loop early: the next step starts now instead of at its interval. */
  poke(): void {
    if (this.stopped) return;
    this.schedule(0);
  }

  /**
   * Wakes the loop early, but never sooner than intervalMs after the last step began: pushed heads
   * on a chain faster than the interval cost no more steps than polling would. Resolves once the
   * step it woke has run (failed or not), or at once when stopped.
   */
  wake(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      this.woken.push(resolve);
      const delay = Math.max(0, this.lastStartAt + this.intervalMs - Date.now());
      // After a failed step the wait it chose stands (a provider's Retry-After among them).
      if (this.timer === null || (this.lastError === null && Date.now() + delay < this.timerDue)) this.schedule(delay);
    });
  }

  /**
   * Waits `ms` between steps (never less than the interval) while something else wakes the loop;
   * null: the interval again. Takes effect from the next wait.
   */
  pace(ms: number | null): void {
    this.paceMs = ms === null ? null : Math.max(ms, this.intervalMs);
  }

  private schedule(delay: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timerDue = Date.now() + delay;
    this.timer = setTimeout(() => void this.loop(), delay);
  }

  private async loop(): Promise<void> {
    this.timer = null;
    // Every wake-up asked for until now is answered by this step.
    const woken = this.woken.splice(0);
    if (this.stopped) {
      for (const resolve of woken) resolve();
      return;
    }
    let next = this.paceMs ?? this.intervalMs;
    try {
      await this.runNow();
      this.lastError = null;
    } catch (error) {
      // A rate-limited RPC provider says when to come back (Retry-After): not before then.
      const asked = (error as { retryAfterMs?: unknown }).retryAfterMs;
      next = Math.max(Math.min(this.intervalMs * 4, 15_000), typeof asked === "number" ? asked : 0);
      // Drizzle's and the driver's words quote the query's parameters: /api/health says what happened instead, and the log the rest.
      this.lastError = databaseErrorSentence(error) ?? (error as Error).message;
      this.log.warn({ err: errorText(error) }, `${this.what} step failed; retrying`);
    }
    for (const resolve of woken) resolve();
    if (!this.stopped && this.timer === null) this.schedule(next);
  }
}

/**
 * Paces a loop by the heads: while they are pushed its polling slows to HEADS_SAFETY_NET_MS, and
 * each head calls `onHead`; when they stop it polls at its interval again, from a step at once.
 */
export function pacedByHeads(ticker: Ticker, heads: HeadSource, onHead: (block: number) => void): void {
  heads.listen({
    head: onHead,
    live: (live) => {
      ticker.pace(live ? HEADS_SAFETY_NET_MS : null);
      // Down: poll now. Up: one step, for whatever the heads missed while they were down.
      ticker.poke();
    },
  });
}
