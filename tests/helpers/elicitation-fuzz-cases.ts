// Seeded generators for the elicitation fuzz test: valid requestedSchemas, the ways to break
// one, the answers a person would give, and random garbage.
import { type ElicitField } from '../../shared/elicitation/elicitation-schema.js';

/** mulberry32: small, fast, and the same sequence for the same seed on every machine. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A JSON object as the generators build it. */
export type Json = Record<string, unknown>;

/** Draws numbers, words, keys and options from one seeded sequence. */
export class Gen {
  constructor(readonly r: () => number) {}
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.r() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.r() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(0, xs.length - 1)];
  }
  word(): string {
    return this.pick([
      'alpha',
      'beta',
      'Gamma',
      'δέλτα',
      '名前',
      'x y',
      'a"b',
      'back\\slash',
      'emoji🙂',
      'tab\tin',
      'dot.ted',
    ]);
  }
  key(i: number): string {
    if (this.chance(0.1))
      return this.pick([
        '__proto__',
        'constructor',
        'toString',
        'hasOwnProperty',
        'prototype',
        '$ref',
        '0',
        'ü',
        'k'.repeat(200),
      ]);
    return `${this.word()}_${i}`;
  }
  options(n: number): string[] {
    return Array.from({ length: n }, (_, i) => `${this.word()}-${i}`);
  }
}

/** A property the spec allows, with a default that satisfies it when there is one. */
function validProp(g: Gen): Json {
  const p: Json = {};
  if (g.chance(0.5)) p.title = g.chance(0.05) ? 'T'.repeat(1_000) : g.word();
  if (g.chance(0.5)) p.description = g.chance(0.05) ? 'd'.repeat(9_000) : `about ${g.word()}`;
  switch (g.int(0, 8)) {
    case 0: {
      p.type = 'string';
      if (g.chance(0.3)) p.format = g.pick(['email', 'uri', 'date', 'date-time']);
      else {
        const min = g.chance(0.5) ? g.int(0, 5) : undefined;
        const max = g.chance(0.5) ? (min ?? 0) + g.int(0, 10) : undefined;
        if (min !== undefined) p.minLength = min;
        if (max !== undefined) p.maxLength = max;
        if (g.chance(0.4)) p.default = 'd'.repeat(Math.min(max ?? Infinity, Math.max(min ?? 0, 3)));
      }
      return p;
    }
    case 1:
    case 2: {
      const integer = g.chance(0.5);
      p.type = integer ? 'integer' : 'number';
      const min = g.chance(0.5) ? g.int(-100, 100) : undefined;
      const max = g.chance(0.5) ? (min ?? 0) + g.int(0, 100) : undefined;
      if (min !== undefined) p.minimum = min;
      if (max !== undefined) p.maximum = max;
      if (g.chance(0.4)) p.default = min ?? max ?? (integer ? 7 : 0.5);
      return p;
    }
    case 3:
      p.type = 'boolean';
      if (g.chance(0.5)) p.default = g.chance(0.5);
      return p;
    case 4:
    case 5: {
      p.type = 'string';
      const opts = g.options(g.int(1, 6));
      const style = g.int(0, 2);
      if (style === 0) p.enum = opts;
      else if (style === 1) p.oneOf = opts.map((o) => ({ const: o, title: o.toUpperCase() }));
      else {
        p.enum = opts;
        p.enumNames = opts.map((o) => `Name ${o}`);
      }
      if (g.chance(0.5)) p.default = g.pick(opts);
      return p;
    }
    default: {
      p.type = 'array';
      const opts = g.options(g.int(1, 6));
      p.items = g.chance(0.5)
        ? { type: 'string', enum: opts }
        : { anyOf: opts.map((o) => ({ const: o, title: o })) };
      const min = g.chance(0.5) ? g.int(0, opts.length) : undefined;
      const max = g.chance(0.5) ? g.int(min ?? 0, opts.length) : undefined;
      if (min !== undefined) p.minItems = min;
      if (max !== undefined) p.maxItems = max;
      if (g.chance(0.4)) p.default = opts.slice(0, min ?? max ?? 1);
      return p;
    }
  }
}

function validSchema(g: Gen): Json {
  const properties: Json = {};
  const names: string[] = [];
  const n = g.int(0, 14);
  for (let i = 0; i < n; i++) {
    const k = g.key(i);
    if (names.includes(k)) continue;
    names.push(k);
    // defineProperty: `__proto__` must become a key, as JSON.parse makes it.
    Object.defineProperty(properties, k, {
      value: validProp(g),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  const schema: Json = { type: 'object', properties };
  if (g.chance(0.2)) schema.$schema = 'https://json-schema.org/draft/2020-12/schema';
  if (names.length && g.chance(0.6)) schema.required = names.filter(() => g.chance(0.5));
  return schema;
}

/** One way to break a schema, and the field (if any) the message must name. */
type Breaker = (s: Json, g: Gen) => string | undefined;

function addProp(s: Json, name: string, p: unknown): string {
  Object.defineProperty(s.properties as Json, name, {
    value: p,
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return name;
}

const BREAKERS: Breaker[] = [
  (s) => addProp(s, 'nested', { type: 'object', properties: { a: { type: 'string' } } }),
  (s, g) =>
    addProp(s, 'weird', {
      type: g.pick(['date', 'null', 'file', 'any', 'Object', 42, null, ['string'], true]),
    }),
  (s) => addProp(s, 'untyped', { title: 'no type' }),
  (s, g) => addProp(s, 'numbers', { type: 'string', enum: [1, 2, g.int(3, 9)] }),
  (s, g) => addProp(s, 'mixed', { type: 'string', enum: ['a', g.pick([null, 3, true, {}, ['x']])] }),
  (s, g) => addProp(s, 'sdefault', { type: 'string', default: g.pick([1, true, null, ['a'], { a: 1 }]) }),
  (s, g) =>
    addProp(s, 'ndefault', {
      type: g.pick(['number', 'integer']),
      default: g.pick(['3', true, null, [], 'NaN']),
    }),
  (s) => addProp(s, 'idefault', { type: 'integer', default: 2.5 }),
  (s, g) => addProp(s, 'bdefault', { type: 'boolean', default: g.pick(['true', 0, 1, null]) }),
  (s) => addProp(s, 'edefault', { type: 'string', enum: ['a', 'b'], default: 'c' }),
  (s) => addProp(s, 'mdefault', { type: 'array', items: { type: 'string', enum: ['a'] }, default: 'a' }),
  (s) =>
    addProp(s, 'mdefault2', {
      type: 'array',
      items: { anyOf: [{ const: 'a', title: 'A' }] },
      default: ['b'],
    }),
  (s) => addProp(s, 'emptyenum', { type: 'string', enum: [] }),
  (s) => addProp(s, 'dupenum', { type: 'string', enum: ['a', 'a'] }),
  (s) => addProp(s, 'names', { type: 'string', enum: ['a', 'b'], enumNames: ['A'] }),
  (s) => addProp(s, 'oneof', { type: 'string', oneOf: [{ const: 1, title: 'one' }] }),
  (s) => addProp(s, 'oneof2', { type: 'string', oneOf: [{ const: 'a' }] }),
  (s) => addProp(s, 'noitems', { type: 'array' }),
  (s) => addProp(s, 'numitems', { type: 'array', items: { type: 'number', enum: [1] } }),
  (s) => addProp(s, 'objitems', { type: 'array', items: { type: 'object', properties: {} } }),
  (s) => addProp(s, 'format', { type: 'string', format: 'phone' }),
  (s) => addProp(s, 'lengths', { type: 'string', minLength: 9, maxLength: 2 }),
  (s) => addProp(s, 'neglen', { type: 'string', minLength: -1 }),
  (s) => addProp(s, 'range', { type: 'number', minimum: 10, maximum: 1 }),
  (s) =>
    addProp(s, 'items', { type: 'array', items: { type: 'string', enum: ['a'] }, minItems: 3, maxItems: 1 }),
  (s) => addProp(s, 'hugetitle', { type: 'string', title: 'T'.repeat(50_000) }),
  (s) => addProp(s, 'hugedesc', { type: 'string', description: 'D'.repeat(200_000) }),
  (s) => addProp(s, 'x'.repeat(5_000), { type: 'string' }),
  (s) => addProp(s, 'notschema', 'string'),
  (s) => addProp(s, 'arrayschema', [{ type: 'string' }]),
  (s) => addProp(s, 'ttl', { type: 'string', title: 42 }),
  (s) => {
    s.required ??= [];
    (s.required as unknown[]).push('missing-field');
    return undefined;
  },
  (s) => {
    s.required = 'all';
    return undefined;
  },
  (s) => {
    s.required = [7];
    return undefined;
  },
  (s, g) => {
    s.type = g.pick(['array', 'string', undefined, 'Object', 1]);
    return undefined;
  },
  (s, g) => {
    s.properties = g.pick([null, [], 'props', 3]);
    return undefined;
  },
  (s) => {
    for (let i = 0; i < 101; i++) addProp(s, `many${i}`, { type: 'string' });
    return undefined;
  },
  (s) => {
    addProp(s, '', { type: 'string' });
    return undefined;
  },
];

function sample(f: ElicitField): unknown {
  switch (f.kind) {
    case 'string': {
      if (f.format)
        return {
          email: 'a@example.com',
          uri: 'https://example.com/x',
          date: '2024-02-29',
          'date-time': '2024-02-29T12:00:00Z',
        }[f.format];
      const len = Math.min(f.maxLength ?? Infinity, Math.max(f.minLength ?? 0, 1));
      return 's'.repeat(len);
    }
    case 'number':
      return f.integer ? Math.ceil(f.minimum ?? f.maximum ?? 3) : (f.minimum ?? f.maximum ?? 1.25);
    case 'boolean':
      return true;
    case 'enum':
      return f.options[f.options.length - 1].value;
    case 'multi-enum':
      return f.options.slice(0, f.minItems ?? 0).map((o) => o.value);
  }
}

/** What a person would submit: required fields filled, optional ones sometimes, defaults left alone. */
export function answerFor(fields: ElicitField[], g: Gen): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    if (f.default !== undefined && g.chance(0.5)) continue;
    if (f.required || g.chance(0.5))
      Object.defineProperty(out, f.name, {
        value: sample(f),
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return out;
}

/** One generated requestedSchema: valid or broken, and the field a refusal must name. */
export interface Case {
  schema: unknown;
  valid: boolean;
  field?: string;
}

/** `n` schemas, some valid, some broken by one of the breakers. */
export function cases(g: Gen, n: number): Case[] {
  const out: Case[] = [];
  for (let i = 0; i < n; i++) {
    const s = validSchema(g);
    const roll = g.r();
    if (roll < 0.45) out.push({ schema: JSON.parse(JSON.stringify(s)) as unknown, valid: true });
    else if (roll < 0.9) {
      const field = g.pick(BREAKERS)(s, g);
      // Through JSON like the wire, except what JSON cannot carry (undefined type) stays as is.
      out.push({
        schema: s.type === undefined ? s : (JSON.parse(JSON.stringify(s)) as unknown),
        valid: false,
        ...(field ? { field } : {}),
      });
    } else out.push({ schema: garbage(g, 0), valid: false });
  }
  return out;
}

/** Random JSON-ish values (mostly not schemas at all). */
function garbage(g: Gen, depth: number): unknown {
  const k = g.int(0, depth > 2 ? 4 : 6);
  if (k === 0) return null;
  if (k === 1) return g.int(-5, 5);
  if (k === 2) return g.word();
  if (k === 3) return g.chance(0.5);
  if (k === 4) return undefined;
  if (k === 5) return Array.from({ length: g.int(0, 3) }, () => garbage(g, depth + 1));
  const o: Json = {};
  for (let i = 0; i < g.int(0, 4); i++)
    o[g.pick(['type', 'properties', 'required', g.word()])] = garbage(g, depth + 1);
  return o;
}
