/**
 * Just enough of npm's semver ranges to check a bundle's `compatibility.runtimes` (">=18",
 * "^20.1.0", "~3.11", ">=18 <23", "18.x || 20.x"). Why not the semver package: it is not one of
 * our dependencies, and these ranges are all a manifest writes in practice. A range this does
 * not understand returns undefined so the caller can say "not checked" rather than guess.
 */

type Version = [number, number, number];

function parseVersion(text: string): Version | undefined {
  const m = /^v?(\d+)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?(?:[-+].*)?$/.exec(text.trim());
  if (!m) return undefined;
  const part = (s: string | undefined) => (s === undefined || s === 'x' || s === '*' ? 0 : Number(s));
  return [Number(m[1]), part(m[2]), part(m[3])];
}

/** How many parts of a partial version were written ("18" → 1, "18.2" → 2). */
function precision(text: string): number {
  return text
    .replace(/^v/, '')
    .split(/[-+]/)[0]
    .split('.')
    .filter((p) => p !== 'x' && p !== '*').length;
}

function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** One comparator ("^20", ">=18.0.0", "20.x", "*"); undefined if not understood. */
function satisfiesOne(v: Version, comparator: string): boolean | undefined {
  if (comparator === '*' || comparator === '' || comparator === 'x') return true;
  const m = /^(\^|~|>=|<=|>|<|=)?\s*(.+)$/.exec(comparator);
  if (!m) return undefined;
  const op = m[1] ?? '';
  const target = parseVersion(m[2]);
  if (!target) return undefined;
  const c = compare(v, target);
  const parts = precision(m[2]);
  switch (op) {
    case '>=':
      return c >= 0;
    case '<=':
      return c <= 0;
    case '>':
      return c > 0;
    case '<':
      return c < 0;
    case '^': {
      const upper: Version =
        target[0] > 0 || parts === 1
          ? [target[0] + 1, 0, 0]
          : target[1] > 0 || parts === 2
            ? [0, target[1] + 1, 0]
            : [0, 0, target[2] + 1];
      return c >= 0 && compare(v, upper) < 0;
    }
    case '~': {
      const upper: Version = parts === 1 ? [target[0] + 1, 0, 0] : [target[0], target[1] + 1, 0];
      return c >= 0 && compare(v, upper) < 0;
    }
    default:
      // "20", "20.x", "20.1" match every version under them; "20.1.2" matches exactly.
      if (parts === 1) return v[0] === target[0];
      if (parts === 2) return v[0] === target[0] && v[1] === target[1];
      return c === 0;
  }
}

/** Whether `version` is in `range`; undefined when the range uses syntax this does not read. */
export function satisfiesRange(version: string, range: string): boolean | undefined {
  const v = parseVersion(version);
  if (!v) return undefined;
  let any = false;
  for (const alternative of range.split('||')) {
    const comparators = alternative
      .trim()
      .replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1')
      .split(/\s+/)
      .filter(Boolean);
    let all = true;
    for (const c of comparators.length ? comparators : ['*']) {
      const ok = satisfiesOne(v, c);
      if (ok === undefined) return undefined;
      all &&= ok;
    }
    any ||= all;
  }
  return any;
}
