/** The one shape of everything the composition root tears down: a service, a store, a subscription. */
export interface Disposable {
  dispose(): void | Promise<void>;
}

/**
 * Services registered as they are created and disposed in reverse order, so nothing is torn
 * down while something created after it (and so possibly using it) is still alive. A dispose
 * that fails does not stop the rest: shutdown must still kill processes and flush files.
 */
export class DisposeStack implements Disposable {
  private readonly items: Disposable[] = [];
  private disposing?: Promise<void>;

  /** Register a service; returns it so creation and registration read as one line. */
  use<T extends Disposable>(item: T): T {
    this.items.push(item);
    return item;
  }

  /** Register a plain teardown step (an unsubscribe, a flush) at this point of creation. */
  defer(fn: () => void | Promise<void>): void {
    this.items.push({ dispose: fn });
  }

  /** Dispose everything in reverse order of registration; a second call waits for the first. */
  dispose(): Promise<void> {
    this.disposing ??= this.run();
    return this.disposing;
  }

  private async run(): Promise<void> {
    const errors: unknown[] = [];
    while (this.items.length > 0) {
      const item = this.items.pop();
      try {
        await item?.dispose();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, 'several services failed to dispose');
  }
}
