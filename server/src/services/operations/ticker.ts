import { databaseErrorSentence } from "../../db/errors";
import { errorText, type Logger } from "../../lib/logger";

/**
 * Runs a step every `intervalMs`, one at a time, until stopped. A step that throws is logged and
 * retried less often (the node or the database is away) until it succeeds again. `runNow` asks for
 * a step as soon as the current one ends, and resolves when that step has run.
 */
export class Ticker<T = unknown> {
  private timer: NodeJS.Timeout | null = null;
  private current: Promise<T> | null = null;
  private stopped = true;
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
  }

  /** One step now (after the one under way): its result, or its error. */
  runNow(): Promise<T> {
    const run = (this.current ?? Promise.resolve()).catch(() => undefined).then(() => this.step());
    this.current = run;
    return run;
  }

  /** Wakes the loop early: the next step starts now instead of at its interval. */
  poke(): void {
    if (this.stopped) return;
    this.schedule(0);
  }

  private schedule(delay: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.loop(), delay);
  }

  private async loop(): Promise<void> {
    this.timer = null;
    if (this.stopped) return;
    let next = this.intervalMs;
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
    if (!this.stopped && this.timer === null) this.schedule(next);
  }
}
