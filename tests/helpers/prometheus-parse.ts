/**
 * A small, strict parser of the Prometheus text exposition format 0.0.4, enough to prove
 * `mcp-desk metrics --prometheus` is well-formed: HELP/TYPE lines, one TYPE per family before
 * its samples, a family's samples together, valid metric and label names, escaped label
 * values, float values. Throws with the line number on anything else.
 */

/** One parsed sample. */
export interface PromSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The parsed exposition: families' types and every sample. */
export interface PromExposition {
  types: Map<string, string>;
  samples: PromSample[];
  /** A sample's value by `name{k="v",...}` with labels sorted by name. */
  value(name: string, labels?: Record<string, string>): number | undefined;
}

const METRIC = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'summary', 'histogram', 'untyped']);

/** Parse `text`; throws on the first line that breaks the format. */
export function parsePrometheus(text: string): PromExposition {
  const types = new Map<string, string>();
  const helps = new Set<string>();
  const samples: PromSample[] = [];
  const closed = new Set<string>();
  let current: string | undefined;
  if (!text.endsWith('\n')) throw new Error('the exposition must end with a line feed');
  const lines = text.slice(0, -1).split('\n');
  lines.forEach((line, i) => {
    const where = `line ${i + 1}: ${line}`;
    if (line.startsWith('#')) {
      const m = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
      if (!m) return; // a plain comment
      const [, kind, name, rest] = m;
      if (!METRIC.test(name)) throw new Error(`bad metric name, ${where}`);
      if (kind === 'HELP') {
        if (helps.has(name)) throw new Error(`second HELP, ${where}`);
        helps.add(name);
        return;
      }
      if (!TYPES.has(rest)) throw new Error(`bad type, ${where}`);
      if (types.has(name) || closed.has(name)) throw new Error(`TYPE after samples or twice, ${where}`);
      types.set(name, rest);
      return;
    }
    if (line.trim() === '') throw new Error(`blank line, ${where}`);
    const sample = parseSample(line, where);
    const family = familyOf(sample.name, types);
    if (family !== current) {
      if (current) closed.add(current);
      if (closed.has(family)) throw new Error(`family ${family} split, ${where}`);
      current = family;
    }
    samples.push(sample);
  });
  const index = new Map(samples.map((s) => [key(s.name, s.labels), s.value]));
  return { types, samples, value: (name, labels = {}) => index.get(key(name, labels)) };
}

function familyOf(name: string, types: Map<string, string>): string {
  for (const suffix of ['_sum', '_count', '_bucket']) {
    const base = name.endsWith(suffix) ? name.slice(0, -suffix.length) : undefined;
    const t = base ? types.get(base) : undefined;
    if (base && (t === 'summary' || t === 'histogram')) return base;
  }
  return name;
}

function parseSample(line: string, where: string): PromSample {
  const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})? (\S+)( -?\d+)?$/.exec(line);
  if (!m) throw new Error(`bad sample, ${where}`);
  const [, name, rawLabels, rawValue] = m;
  const labels: Record<string, string> = {};
  if (rawLabels) {
    let rest = rawLabels.slice(1, -1);
    while (rest.length) {
      const lm = /^([^=]+)="((?:[^"\\]|\\[\\"n])*)"(,|$)/.exec(rest);
      if (!lm || !LABEL.test(lm[1])) throw new Error(`bad label, ${where}`);
      if (lm[1] in labels) throw new Error(`repeated label, ${where}`);
      labels[lm[1]] = lm[2].replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
      rest = rest.slice(lm[0].length);
    }
  }
  const value =
    rawValue === '+Inf'
      ? Infinity
      : rawValue === '-Inf'
        ? -Infinity
        : rawValue === 'NaN'
          ? NaN
          : Number(rawValue);
  if (Number.isNaN(value) && rawValue !== 'NaN') throw new Error(`bad value, ${where}`);
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$|^[+-]Inf$|^NaN$/.test(rawValue))
    throw new Error(`bad value, ${where}`);
  return { name, labels, value };
}

function key(name: string, labels: Record<string, string>): string {
  const parts = Object.keys(labels)
    .sort()
    .map((k) => `${k}=${JSON.stringify(labels[k])}`);
  return `${name}{${parts.join(',')}}`;
}
