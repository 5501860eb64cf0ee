import type { EventFilter, EventRecord, EventsService, IndexHead } from "./events";

/**
 * A value folded over the index's events in chain order, kept up to date incrementally: when the
 * index version changes, one query reads the index's head and, if the index still holds the block
 * where the fold stopped with the same hash, the events after it, which are applied; otherwise (a
 * rewind, a reorg, a new deployment) the fold starts over from all events. Checking costs at most
 * the version's check while it is unchanged; one update at a time, shared by every request meanwhile.
 */
export class IndexFold<S> {
  private current: { version: number; head: IndexHead | null; state: S; generation: number } | null = null;
  private update: { version: number; value: Promise<FoldResult<S>> } | null = null;
  private generation = 0;

  constructor(
    private readonly events: EventsService,
    private readonly indexVersion: () => Promise<number>,
    private readonly fold: {
      /** The events the fold reads. */
      filters: readonly EventFilter[];
      /** The state before any event. */
      initial(): S;
      /** Applies one event to the state, in place. */
      apply(state: S, row: EventRecord): void;
    },
  ) {}

  /** The state as of the index now; `generation` changes whenever an event was applied or the fold started over. */
  async get(): Promise<FoldResult<S>> {
    const version = await this.indexVersion();
    const current = this.current;
    if (current && current.version === version) return { state: current.state, generation: current.generation, head: current.head };
    if (this.update?.version === version) return this.update.value;
    // Updates run one after another: each carries on from where the previous one stopped.
    const previous = this.update?.value.catch(() => undefined) ?? Promise.resolve();
    const value = previous.then(() => this.advance(version));
    const update = (this.update = { version, value });
    const done = () => (this.update === update ? (this.update = null) : undefined);
    value.then(done, done);
    return value;
  }

  private async advance(version: number): Promise<FoldResult<S>> {
    const current = this.current;
    const { filters } = this.fold;
    const since = current?.head ? await this.events.changesSince(filters, current.head) : { head: await this.events.head(), rows: null };
    const head = since.head;
    if (current && since.rows) {
      // The index only grew (or stood still): apply the events of the blocks after the last head.
      if (since.rows.length > 0) this.generation++;
      for (const row of since.rows) this.fold.apply(current.state, row);
      this.current = { version, head, state: current.state, generation: this.generation };
    } else {
      // First use, or a rewind, a reorg or a new deployment under the last head: replay all.
      const state = this.fold.initial();
      const rows = head ? await this.events.eventsIn(filters, Number.MIN_SAFE_INTEGER, head.block) : [];
      for (const row of rows) this.fold.apply(state, row);
      this.generation++;
      this.current = { version, head, state, generation: this.generation };
    }
    return { state: this.current.state, generation: this.current.generation, head: this.current.head };
  }
}

export interface FoldResult<S> {
  state: S;
  generation: number;
  /** Where the index stood when the state was read (null before its first step). */
  head: IndexHead | null;
}
