// Waiting on real conditions instead of sleeping.

/** Generous on purpose: CI machines have two cores and run two test files at once. */
export const WAIT_MS = 30_000;

/** Poll until `probe` returns something other than undefined; the error names `what`. */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = WAIT_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await delay(25);
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * Poll until `holds` is true. For a page showing the outcome of several events (a badge, a
 * card's status, a scroll position) that land in separate renders: asserting right after the
 * first would race the others.
 */
export async function eventually(
  what: string,
  holds: () => boolean | Promise<boolean>,
  timeoutMs = WAIT_MS,
): Promise<void> {
  await waitFor(what, async () => ((await holds()) ? true : undefined), timeoutMs);
}
