/** Maps with at most `limit` calls in flight (node calls: a provider counts each against its rate). */
export async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * A read each caller may trust to be as new as its call: a caller joins the read under way only if
 * it began after the call, else it waits for the next one, which every caller arriving meanwhile
 * shares. So any write committed before a call is seen by the read that answers it, while a crowd
 * of callers costs one read at a time (two at most in line), not one each.
 */
export class FreshRead<T> {
  private running: Promise<T> | null = null;
  private next: Promise<T> | null = null;

  constructor(private readonly read: () => Promise<T>) {}

  get(): Promise<T> {
    if (!this.running) return this.start();
    if (!this.next) {
      const settled = this.running.then(
        () => undefined,
        () => undefined,
      );
      this.next = settled.then(() => {
        this.next = null;
        return this.start();
      });
    }
    return this.next;
  }

  private start(): Promise<T> {
    const value = this.read();
    this.running = value;
    const done = () => {
      if (this.running === value) this.running = null;
    };
    value.then(done, done);
    return value;
  }
}

/**
 * `work`'s answer, or a rejection with `message` once `ms` have passed without one: a dependency
 * that is away may hang rather than refuse. The timer is cleared either way.
 */
export async function within<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Work in flight in this process, at most `perKey` at once for one key and `total` in all. `take`
 * either holds a place and answers the function that frees it (calling it twice frees it once), or
 * says which cap is full and holds nothing.
 */
export class Slots {
  private readonly held = new Map<string, number>();
  private inAll = 0;

  constructor(
    readonly perKey: number,
    readonly total: number,
  ) {}

  take(key: string): { release: () => void } | { full: "key" | "total" } {
    const mine = this.held.get(key) ?? 0;
    if (mine >= this.perKey) return { full: "key" };
    if (this.inAll >= this.total) return { full: "total" };
    this.held.set(key, mine + 1);
    this.inAll += 1;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.inAll -= 1;
        const left = (this.held.get(key) ?? 1) - 1;
        if (left > 0) this.held.set(key, left);
        else this.held.delete(key);
      },
    };
  }

  /** Places held now for `key`. */
  heldBy(key: string): number {
    return this.held.get(key) ?? 0;
  }
}
