import { databaseErrorSentence } from "../../db/errors";
import { errorText, type Logger } from "../../lib/logger";
import { HEADS_SAFETY_NET_MS, type HeadListener, type HeadSource } from "../../chain/heads";

/**
 * Runs a step every `intervalMs`, one at a time, until stopped. A step that throws is logged and
 * retried less often (the node or the database is away) until it succeeds again. `runNow` asks for
 * a step as soon as the current one ends, and resolves when that step has run.
 */
export class Ticker<T = unknown> {
  private timer: NodeJS.Timeout | null = null;
  /** When the timer fires. */
  private timerDue = 0;
  /** When the last step began: wake() keeps steps at least intervalMs apart. */
  private lastStartAt = 0;
  private current: Promise<T> | null = null;
  private stopped = true;
  /** Whether the loop's own step is under way; a poke or wake meanwhile is answered once it ends, not by a second loop. */
  private inStep = false;
  private pokedDuringStep = false;
  private wokenDuringStep = false;
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

  /** Wakes the loop early: the next step starts now (or as soon as the one under way ends) instead of at its interval. */
  poke(): void {
    if (this.stopped) return;
    if (this.inStep) this.pokedDuringStep = true;
    else this.scheduleBy(Date.now());
  }

  /**
   * Wakes the loop early, but never sooner than intervalMs after the last step began (pushed heads
   * on a chain faster than the interval cost no more steps than polling would), nor sooner than a
   * failed step chose to wait (a provider's Retry-After among them). Resolves once the step it woke
   * has run (failed or not), or at once when stopped.
   */
  wake(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      this.woken.push(resolve);
      if (this.inStep) this.wokenDuringStep = true;
      else if (this.lastError === null || this.timer === null) this.scheduleBy(this.lastStartAt + this.intervalMs);
    });
  }

  /**
   * Waits `ms` between steps (never less than the interval) while something else wakes the loop;
   * null: the interval again. Takes effect from the next wait.
   */
  pace(ms: number | null): void {
    this.paceMs = ms === null ? null : Math.max(ms, this.intervalMs);
  }

  /** The next step no later than `at` (a timer already due sooner stands). */
  private scheduleBy(at: number): void {
    if (this.timer === null || at < this.timerDue) this.schedule(Math.max(0, at - Date.now()));
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
    let failed = false;
    this.inStep = true;
    try {
      await this.runNow();
      this.lastError = null;
    } catch (error) {
      failed = true;
      // A rate-limited RPC provider says when to come back (Retry-After): not before then.
      const asked = (error as { retryAfterMs?: unknown }).retryAfterMs;
      next = Math.max(Math.min(this.intervalMs * 4, 15_000), typeof asked === "number" ? asked : 0);
      // Drizzle's and the driver's words quote the query's parameters: /api/health says what happened instead, and the log the rest.
      this.lastError = databaseErrorSentence(error) ?? (error as Error).message;
      this.log.warn({ err: errorText(error) }, `${this.what} step failed; retrying`);
    } finally {
      this.inStep = false;
    }
    for (const resolve of woken) resolve();
    if (this.pokedDuringStep) next = 0;
    else if (this.wokenDuringStep && !failed) next = Math.min(next, Math.max(0, this.lastStartAt + this.intervalMs - Date.now()));
    this.pokedDuringStep = this.wokenDuringStep = false;
    if (!this.stopped && this.timer === null) this.schedule(next);
  }
}

/**
 * Paces a loop by the heads: while they are pushed its polling slows to HEADS_SAFETY_NET_MS, and
 * each head calls `onHead`; when they stop it polls at its interval again, from a step at once.
 */
export function pacedByHeads(ticker: Ticker, heads: HeadSource, onHead: HeadListener["head"]): void {
  heads.listen({
    head: onHead,
    live: (live) => {
      ticker.pace(live ? HEADS_SAFETY_NET_MS : null);
      // Down: poll now. Up: one step, for whatever the heads missed while they were down.
      ticker.poke();
    },
  });
}
