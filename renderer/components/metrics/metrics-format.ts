/** A latency for people: "-" while there is none, µs-precise below 10 ms. */
export function formatMs(ms: number | null): string {
  if (ms === null) return '–';
  if (ms < 10) return `${ms.toFixed(2)} ms`;
  if (ms < 10_000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}

/** A byte count for people (JSON characters, close to bytes). */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** A count with thousands separators. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}
