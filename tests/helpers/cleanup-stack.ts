// The cleanup stack every integration helper pushes its teardown onto.

type CleanupFn = () => Promise<void> | void;

/**
 * A LIFO list of cleanups. Register `after(() => stack.run())` once per file (or
 * `t.after(...)` per test); every helper below pushes its own teardown onto it.
 */
export class CleanupStack {
  private readonly fns: CleanupFn[] = [];

  defer(fn: CleanupFn): void {
    this.fns.push(fn);
  }

  /** Run every cleanup, newest first; one failing cleanup never skips the others. */
  async run(): Promise<void> {
    const errors: unknown[] = [];
    while (this.fns.length) {
      const fn = this.fns.pop()!;
      try {
        await fn();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length) throw errors[0];
  }
}
