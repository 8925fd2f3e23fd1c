/** Wall-clock time with milliseconds, for log and trace lines. */
export function formatClock(at: number): string {
  const d = new Date(at);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

/** "3 tools" / "1 tool"; `count` formats the number ("1,204 turns"), `many` names an irregular plural. */
export function plural(n: number, word: string, many = `${word}s`, count: string = String(n)): string {
  return `${count} ${pluralWord(n, word, many)}`;
}

/** The word alone, in the form `n` needs: "turn" for 1, "turns" otherwise. */
export function pluralWord(n: number, word: string, many = `${word}s`): string {
  return n === 1 ? word : many;
}

/** Seconds left until `at`, never negative. */
export function secondsUntil(at: number, now: number): number {
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/** A countdown in one format everywhere: "45 s", "4 min 07 s". */
export function formatCountdown(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
}
