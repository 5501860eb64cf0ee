/**
 * A wake-up call between two parts that each need the other: one rings, the other listens from its
 * own construction, so neither has to be handed the other after it is built (the batch service rings
 * when a chunk's transaction is reported; the batch watcher then looks at once instead of at its next tick).
 */
export class Doorbell {
  private readonly listeners: (() => void)[] = [];

  listen(listener: () => void): void {
    this.listeners.push(listener);
  }

  ring(): void {
    for (const listener of this.listeners) listener();
  }
}
