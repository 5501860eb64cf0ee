import { RUN_LINES_KEPT, type RunKind, type ScenarioRun } from "@common/api/scenarios";
import { chainById } from "@common/networks";
import type { Config } from "../../config";
import { HttpError, conflict, notFound, unavailable } from "../../lib/errors";
import { errorForLog, type Logger } from "../../lib/logger";
import type { ScenarioEngine, ScenarioProgress, ScenarioSummary, SnapshotSummary } from ".";

/** What every endpoint of the panel answers (503) while this server has no scenario engine. */
export const NO_ENGINE = "Scenarios are not available on this server.";

/** Why the panel is refused on this server (404, before sign-in), or null on the local chain and its forks. */
export function offLocalChain(config: Pick<Config, "network" | "chainId">): string | null {
  if (config.network === "localhost") return null;
  return `Scenarios are for the local chain only: this server runs on ${chainById(config.chainId)?.label ?? `chain ${config.chainId}`}.`;
}

/** An engine's error as the sentence a person reads: its message's first line, never a stack. */
export function sentenceOf(error: unknown): string {
  const message = error instanceof Error ? error.message : typeof error === "string" ? error : "";
  const first = message.split("\n")[0].trim();
  return first || "The scenario engine failed without saying why: the server's log has the details.";
}

/** What a run's work gives back when it ends: an apply's transactions sent, and the lines to show after the steps. */
interface Outcome {
  sent: number | null;
  report: string[];
}

/**
 * The dashboard's Scenarios panel on the server: the shipped scenarios and the snapshots as the
 * engine lists them, and one run at a time (an apply or a restore), kept in memory with its
 * progress so the panel can poll it. A run is started and answered at once; the engine's error
 * ends it as a sentence in the run, never as a failed request. Built with no engine off the local
 * chain (compose.ts), and until the engine is wired: then every method answers NO_ENGINE (503).
 */
export class ScenarioRuns {
  private last: ScenarioRun | null = null;
  /** From the moment a change to the chain is asked until it ends, so two requests at once cannot both start one. */
  private busy = false;

  constructor(
    private readonly engine: ScenarioEngine | null,
    /** offLocalChain(config): the routes refuse every request with it, before sign-in. */
    readonly offReason: string | null,
    private readonly log: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The shipped scenarios, the snapshots, and the run under way or the last one. */
  async overview(): Promise<{ scenarios: ScenarioSummary[]; snapshots: SnapshotSummary[]; run: ScenarioRun | null }> {
    const engine = this.ready();
    const [scenarios, snapshots] = await Promise.all([engine.list(), engine.snapshots()]).catch((error: unknown) => {
      throw this.refusal(error, "The scenarios and snapshots could not be read");
    });
    return { scenarios, snapshots, run: this.current() };
  }

  /** The run under way or the last one since the server started, as it is now; null: none. */
  current(): ScenarioRun | null {
    this.ready();
    return this.last && { ...this.last, lines: [...this.last.lines] };
  }

  /** Starts applying the shipped scenario `name`: 404 for one that is not shipped, 409 while the chain is busy. */
  async apply(name: string): Promise<ScenarioRun> {
    const engine = this.ready();
    this.claim();
    try {
      const shipped = await engine.list().catch((error: unknown) => {
        throw this.refusal(error, "The scenarios could not be read");
      });
      if (!shipped.some((scenario) => scenario.name === name)) {
        const names = shipped.map((scenario) => scenario.name).join(", ");
        throw notFound(`There is no shipped scenario named '${name}'.${names ? ` The shipped scenarios: ${names}.` : ""}`);
      }
    } catch (error) {
      this.busy = false;
      throw error;
    }
    return this.start("apply", name, async (onProgress) => {
      const result = await engine.apply(name, onProgress);
      return { sent: result.sent, report: result.report };
    });
  }

  /** Starts returning the node to the snapshot `name`: 404 for one that does not exist, 409 while the chain is busy. */
  async restore(name: string): Promise<ScenarioRun> {
    const engine = this.ready();
    this.claim();
    let snapshot: SnapshotSummary | undefined;
    try {
      const snapshots = await engine.snapshots().catch((error: unknown) => {
        throw this.refusal(error, "The snapshots could not be read");
      });
      snapshot = snapshots.find((s) => s.name === name);
      if (!snapshot) {
        const names = snapshots.map((s) => s.name).join(", ");
        throw notFound(`There is no snapshot named '${name}'. ${names ? `The snapshots: ${names}.` : "Take one first."}`);
      }
    } catch (error) {
      this.busy = false;
      throw error;
    }
    const { blockNumber, takenAt } = snapshot;
    return this.start("restore", name, async (onProgress) => {
      await engine.restore(name, onProgress);
      return { sent: null, report: [`The chain is back at block ${blockNumber}, as it was at ${takenAt}.`] };
    });
  }

  /** Takes a snapshot named `name` of the chain as it is: 409 while a run is under way (it would keep a state half applied). */
  async takeSnapshot(name: string): Promise<SnapshotSummary> {
    const engine = this.ready();
    this.claim();
    try {
      return await engine.takeSnapshot(name);
    } catch (error) {
      throw this.refusal(error, "The snapshot was not taken");
    } finally {
      this.busy = false;
    }
  }

  private ready(): ScenarioEngine {
    if (!this.engine) throw unavailable(NO_ENGINE);
    return this.engine;
  }

  /** Takes the one slot for a change to the chain, or refuses with what holds it. */
  private claim(): void {
    if (this.busy) {
      const run = this.last;
      if (run?.state === "running") {
        const what = run.kind === "apply" ? `applying the scenario '${run.name}'` : `restoring the snapshot '${run.name}'`;
        const step = run.total > 0 ? ` (step ${run.done} of ${run.total})` : "";
        throw conflict(`A run is under way: ${what}${step}. Wait until it ends, then try again.`);
      }
      throw conflict("Another request is changing the chain right now: wait a moment, then try again.");
    }
    this.busy = true;
  }

  /** An engine's refusal outside a run: a 4xx it chose keeps its status; anything else is a 409 with its sentence. */
  private refusal(error: unknown, what: string): HttpError {
    if (error instanceof HttpError && error.status < 500) return error;
    this.log.warn({ err: errorForLog(error) }, what);
    return conflict(`${what}: ${sentenceOf(error)}`);
  }

  /** Records a new run and lets it go on in the background; answers it as it is at the start. */
  private start(kind: RunKind, name: string, work: (onProgress: (p: ScenarioProgress) => void) => Promise<Outcome>): ScenarioRun {
    const run: ScenarioRun = {
      kind,
      name,
      state: "running",
      done: 0,
      total: 0,
      label: null,
      lines: [],
      sent: null,
      error: null,
      startedAt: this.now().toISOString(),
      finishedAt: null,
    };
    this.last = run;
    const onProgress = (progress: ScenarioProgress) => {
      if (run.state !== "running") return;
      run.done = progress.done;
      run.total = progress.total;
      run.label = progress.label;
      // The engine may report a step as under way and again as finished: one line for it.
      if (run.lines.at(-1) !== progress.label) keep(run, [progress.label]);
    };
    void (async () => {
      try {
        const outcome = await work(onProgress);
        run.sent = outcome.sent;
        keep(run, outcome.report);
        run.state = "done";
      } catch (error) {
        this.log.warn({ err: errorForLog(error), kind, name }, "A scenario run failed");
        run.error = sentenceOf(error);
        run.state = "failed";
      } finally {
        run.finishedAt = this.now().toISOString();
        this.busy = false;
      }
    })();
    return { ...run, lines: [...run.lines] };
  }
}

/** Adds lines to a run, keeping the last RUN_LINES_KEPT. */
function keep(run: ScenarioRun, lines: string[]): void {
  run.lines.push(...lines);
  if (run.lines.length > RUN_LINES_KEPT) run.lines.splice(0, run.lines.length - RUN_LINES_KEPT);
}
