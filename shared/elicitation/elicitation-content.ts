import { z } from 'zod';
import { describe, showName, type ElicitField, type StringFormat } from './elicitation-field.js';

/** A value a person may submit for one field. */
export type ElicitValue = string | number | boolean | string[];

/** Checked content, or a message per field that is wrong. */
export type ContentCheck =
  { ok: true; content: Record<string, ElicitValue> } | { ok: false; errors: Record<string, string> };

const FORMAT_CHECKS: Record<StringFormat, z.ZodType<string>> = {
  email: z.email(),
  uri: z.url(),
  date: z.iso.date(),
  'date-time': z.iso.datetime({ offset: true }),
};

const FORMAT_NAMES: Record<StringFormat, string> = {
  email: 'an email address',
  uri: 'a URL',
  date: 'a date (YYYY-MM-DD)',
  'date-time': 'a date and time (ISO 8601)',
};

function checkValue(f: ElicitField, v: unknown): string | undefined {
  switch (f.kind) {
    case 'string': {
      if (typeof v !== 'string') return `must be text, got ${describe(v)}`;
      if (f.minLength !== undefined && v.length < f.minLength)
        return `must be at least ${f.minLength} characters`;
      if (f.maxLength !== undefined && v.length > f.maxLength)
        return `must be at most ${f.maxLength} characters`;
      if (f.format && !FORMAT_CHECKS[f.format].safeParse(v).success)
        return `must be ${FORMAT_NAMES[f.format]}`;
      return undefined;
    }
    case 'number': {
      if (typeof v !== 'number' || !Number.isFinite(v)) return `must be a number, got ${describe(v)}`;
      if (f.integer && !Number.isInteger(v)) return 'must be a whole number';
      if (f.minimum !== undefined && v < f.minimum) return `must be at least ${f.minimum}`;
      if (f.maximum !== undefined && v > f.maximum) return `must be at most ${f.maximum}`;
      return undefined;
    }
    case 'boolean':
      return typeof v === 'boolean' ? undefined : `must be true or false, got ${describe(v)}`;
    case 'enum':
      if (typeof v !== 'string') return `must be one of the options, got ${describe(v)}`;
      return f.options.some((o) => o.value === v)
        ? undefined
        : `${JSON.stringify(v.slice(0, 60))} is not one of the options`;
    case 'multi-enum': {
      if (!Array.isArray(v)) return `must be a list of options, got ${describe(v)}`;
      const list: readonly unknown[] = v;
      const bad = list.find((x) => typeof x !== 'string' || !f.options.some((o) => o.value === x));
      if (bad !== undefined)
        return `${typeof bad === 'string' ? JSON.stringify(bad.slice(0, 60)) : describe(bad)} is not one of the options`;
      if (new Set(list).size !== list.length) return 'lists an option twice';
      if (f.minItems !== undefined && list.length < f.minItems) return `choose at least ${f.minItems}`;
      if (f.maxItems !== undefined && list.length > f.maxItems) return `choose at most ${f.maxItems}`;
      return undefined;
    }
  }
}

/**
 * Check what a person submitted against the parsed fields: types, lengths, ranges, formats,
 * options and required fields. Keys the form does not have are refused, so nothing the
 * server did not ask for leaves the host.
 */
export function validateElicitContent(fields: ElicitField[], content: unknown): ContentCheck {
  const errors: Record<string, string> = {};
  const put = (k: string, message: string) =>
    Object.defineProperty(errors, k, {
      value: message,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  if (content === null || typeof content !== 'object' || Array.isArray(content))
    return { ok: false, errors: { '': `content must be an object, got ${describe(content)}` } };
  const given = content as Record<string, unknown>;
  const out: Record<string, ElicitValue> = {};
  const known = new Set(fields.map((f) => f.name));
  for (const k of Object.keys(given)) if (!known.has(k)) put(k, `the form has no field ${showName(k)}`);
  for (const f of fields) {
    const present = Object.prototype.hasOwnProperty.call(given, f.name) && given[f.name] !== undefined;
    if (!present) {
      if (f.required) put(f.name, 'is required');
      continue;
    }
    const problem = checkValue(f, given[f.name]);
    if (problem) put(f.name, problem);
    else
      Object.defineProperty(out, f.name, {
        value: given[f.name],
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, content: out };
}

/** Content with each omitted field that has a default filled in (the person saw the default and left it). */
export function withDefaults(
  fields: ElicitField[],
  content: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(content))
    Object.defineProperty(out, k, {
      value: content[k],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  for (const f of fields) {
    if (
      f.default !== undefined &&
      (!Object.prototype.hasOwnProperty.call(out, f.name) || out[f.name] === undefined)
    ) {
      Object.defineProperty(out, f.name, {
        value: f.default,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return out;
}
