/**
 * The restricted JSON schema an elicitation form may use (spec 2025-11-25 and 2026-07-28:
 * a flat object of primitive properties), parsed into fields a form can render. Shared by
 * the host (which refuses anything else before a person sees it) and the renderer.
 */

import {
  describe,
  showName,
  type ElicitField,
  type ElicitOption,
  type FieldBase,
  type StringFormat,
} from './elicitation-field.js';

export { showName, type ElicitField, type ElicitOption, type StringFormat };

/** The result of parsing a requestedSchema: fields, or one message naming what is wrong. */
export type ParsedSchema = { ok: true; fields: ElicitField[] } | { ok: false; error: string };

// Limits keep a hostile server from making the form unusable; generous for honest ones.
const MAX_FIELDS = 100;
const MAX_NAME = 200;
const MAX_TITLE = 1_000;
const MAX_DESCRIPTION = 10_000;
const MAX_OPTIONS = 1_000;
const MAX_OPTION_TEXT = 1_000;
const FORMATS: readonly StringFormat[] = ['email', 'uri', 'date', 'date-time'];

class SchemaProblem extends Error {}

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function has(o: Obj, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, key);
}

function fail(field: string | undefined, message: string): never {
  throw new SchemaProblem(
    field === undefined
      ? `requestedSchema: ${message}`
      : `requestedSchema field ${showName(field)}: ${message}`,
  );
}

function optText(o: Obj, key: string, field: string, max: number): string | undefined {
  if (!has(o, key) || o[key] === undefined) return undefined;
  const v = o[key];
  if (typeof v !== 'string') fail(field, `"${key}" must be a string`);
  if (v.length > max) fail(field, `"${key}" is too long (${v.length} characters, at most ${max})`);
  return v;
}

function optCount(o: Obj, key: string, field: string): number | undefined {
  if (!has(o, key) || o[key] === undefined) return undefined;
  const v = o[key];
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
    fail(field, `"${key}" must be a non-negative integer`);
  return v;
}

function optFinite(o: Obj, key: string, field: string): number | undefined {
  if (!has(o, key) || o[key] === undefined) return undefined;
  const v = o[key];
  if (typeof v !== 'number' || !Number.isFinite(v)) fail(field, `"${key}" must be a finite number`);
  return v;
}

function checkRange(field: string, lo: number | undefined, hi: number | undefined, what: string): void {
  if (lo !== undefined && hi !== undefined && lo > hi)
    fail(field, `min${what} (${lo}) is greater than max${what} (${hi})`);
}

function uniqueOptions(field: string, options: ElicitOption[], where: string): ElicitOption[] {
  if (options.length === 0) fail(field, `"${where}" must list at least one option`);
  if (options.length > MAX_OPTIONS)
    fail(field, `"${where}" has too many options (${options.length}, at most ${MAX_OPTIONS})`);
  const seen = new Set<string>();
  for (const o of options) {
    if (seen.has(o.value)) fail(field, `"${where}" lists ${JSON.stringify(o.value.slice(0, 60))} twice`);
    seen.add(o.value);
  }
  return options;
}

function stringList(field: string, v: unknown, where: string): string[] {
  if (!Array.isArray(v)) fail(field, `"${where}" must be an array of strings`);
  return v.map((x, i) => {
    if (typeof x !== 'string') fail(field, `"${where}"[${i}] must be a string, got ${describe(x)}`);
    if (x.length > MAX_OPTION_TEXT) fail(field, `"${where}"[${i}] is too long`);
    return x;
  });
}

function constTitleList(field: string, v: unknown, where: string): ElicitOption[] {
  if (!Array.isArray(v)) fail(field, `"${where}" must be an array of {const, title}`);
  return v.map((x, i) => {
    if (!isObj(x) || typeof x.const !== 'string')
      fail(field, `"${where}"[${i}] must be {const: string, title: string}`);
    if (typeof x.title !== 'string') fail(field, `"${where}"[${i}] needs a string "title"`);
    if (x.const.length > MAX_OPTION_TEXT || x.title.length > MAX_OPTION_TEXT)
      fail(field, `"${where}"[${i}] is too long`);
    return { value: x.const, label: x.title };
  });
}

function parseString(name: string, p: Obj, base: FieldBase): ElicitField {
  if (has(p, 'enum')) {
    const values = stringList(name, p.enum, 'enum');
    let labels: string[] | undefined;
    if (has(p, 'enumNames') && p.enumNames !== undefined) {
      labels = stringList(name, p.enumNames, 'enumNames');
      if (labels.length !== values.length)
        fail(name, `"enumNames" has ${labels.length} entries but "enum" has ${values.length}`);
    }
    const options = uniqueOptions(
      name,
      values.map((value, i) => ({ value, label: labels?.[i] ?? value })),
      'enum',
    );
    return { ...base, kind: 'enum', options, ...enumDefault(name, p, options) };
  }
  if (has(p, 'oneOf')) {
    const options = uniqueOptions(name, constTitleList(name, p.oneOf, 'oneOf'), 'oneOf');
    return { ...base, kind: 'enum', options, ...enumDefault(name, p, options) };
  }
  const minLength = optCount(p, 'minLength', name);
  const maxLength = optCount(p, 'maxLength', name);
  checkRange(name, minLength, maxLength, 'Length');
  let format: StringFormat | undefined;
  if (has(p, 'format') && p.format !== undefined) {
    if (typeof p.format !== 'string' || !(FORMATS as readonly string[]).includes(p.format)) {
      fail(
        name,
        `"format" must be one of ${FORMATS.join(', ')}, got ${typeof p.format === 'string' ? JSON.stringify(p.format.slice(0, 40)) : describe(p.format)}`,
      );
    }
    format = p.format as StringFormat;
  }
  const field: ElicitField = {
    ...base,
    kind: 'string',
    ...(minLength !== undefined ? { minLength } : {}),
    ...(maxLength !== undefined ? { maxLength } : {}),
    ...(format ? { format } : {}),
  };
  if (has(p, 'default') && p.default !== undefined) {
    if (typeof p.default !== 'string') fail(name, `"default" must be a string, got ${describe(p.default)}`);
    field.default = p.default;
  }
  return field;
}

function enumDefault(name: string, p: Obj, options: ElicitOption[]): { default?: string } {
  if (!has(p, 'default') || p.default === undefined) return {};
  if (typeof p.default !== 'string') fail(name, `"default" must be a string, got ${describe(p.default)}`);
  if (!options.some((o) => o.value === p.default))
    fail(name, `"default" ${JSON.stringify(p.default.slice(0, 60))} is not one of the options`);
  return { default: p.default };
}

function parseNumber(name: string, p: Obj, base: FieldBase, integer: boolean): ElicitField {
  const minimum = optFinite(p, 'minimum', name);
  const maximum = optFinite(p, 'maximum', name);
  checkRange(name, minimum, maximum, 'imum');
  const field: ElicitField = {
    ...base,
    kind: 'number',
    integer,
    ...(minimum !== undefined ? { minimum } : {}),
    ...(maximum !== undefined ? { maximum } : {}),
  };
  if (has(p, 'default') && p.default !== undefined) {
    if (typeof p.default !== 'number' || !Number.isFinite(p.default))
      fail(name, `"default" must be a finite number, got ${describe(p.default)}`);
    if (integer && !Number.isInteger(p.default)) fail(name, `"default" must be an integer, got ${p.default}`);
    field.default = p.default;
  }
  return field;
}

function parseArray(name: string, p: Obj, base: FieldBase): ElicitField {
  const items = p.items;
  if (!isObj(items))
    fail(name, 'an array field needs "items" with "enum" or "anyOf" (only multi-select enums are allowed)');
  let options: ElicitOption[];
  if (has(items, 'anyOf'))
    options = uniqueOptions(name, constTitleList(name, items.anyOf, 'items.anyOf'), 'items.anyOf');
  else if (has(items, 'enum')) {
    if (items.type !== 'string') fail(name, '"items.type" must be "string" for a multi-select enum');
    options = uniqueOptions(
      name,
      stringList(name, items.enum, 'items.enum').map((v) => ({ value: v, label: v })),
      'items.enum',
    );
  } else
    fail(name, 'an array field\'s "items" must have "enum" or "anyOf" (only multi-select enums are allowed)');
  const minItems = optCount(p, 'minItems', name);
  const maxItems = optCount(p, 'maxItems', name);
  checkRange(name, minItems, maxItems, 'Items');
  const field: ElicitField = {
    ...base,
    kind: 'multi-enum',
    options,
    ...(minItems !== undefined ? { minItems } : {}),
    ...(maxItems !== undefined ? { maxItems } : {}),
  };
  if (has(p, 'default') && p.default !== undefined) {
    const d = stringList(name, p.default, 'default');
    const bad = d.find((v) => !options.some((o) => o.value === v));
    if (bad !== undefined)
      fail(name, `"default" contains ${JSON.stringify(bad.slice(0, 60))}, which is not one of the options`);
    field.default = d;
  }
  return field;
}

function parseProperty(name: string, p: unknown, required: boolean): ElicitField {
  if (name.length === 0) fail(undefined, 'a property name must not be empty');
  if (name.length > MAX_NAME)
    fail(name, `the property name is too long (${name.length} characters, at most ${MAX_NAME})`);
  if (!isObj(p)) fail(name, `must be a schema object, got ${describe(p)}`);
  const title = optText(p, 'title', name, MAX_TITLE);
  const description = optText(p, 'description', name, MAX_DESCRIPTION);
  const base: FieldBase = {
    name,
    required,
    ...(title !== undefined ? { title } : {}),
    ...(description !== undefined ? { description } : {}),
  };
  switch (p.type) {
    case 'string':
      return parseString(name, p, base);
    case 'number':
    case 'integer':
      return parseNumber(name, p, base, p.type === 'integer');
    case 'boolean': {
      if (has(p, 'default') && p.default !== undefined && typeof p.default !== 'boolean')
        fail(name, `"default" must be a boolean, got ${describe(p.default)}`);
      return { ...base, kind: 'boolean', ...(typeof p.default === 'boolean' ? { default: p.default } : {}) };
    }
    case 'array':
      return parseArray(name, p, base);
    case 'object':
      return fail(
        name,
        'nested objects are not allowed (elicitation forms are flat: string, number, integer, boolean, enum)',
      );
    default:
      return fail(
        name,
        `unsupported type ${JSON.stringify(typeof p.type === 'string' ? p.type.slice(0, 40) : describe(p.type))} (allowed: string, number, integer, boolean, array of enum)`,
      );
  }
}

/** Parse an elicitation's requestedSchema; anything the spec does not allow is refused with a message naming the field. */
export function parseRequestedSchema(schema: unknown): ParsedSchema {
  try {
    if (!isObj(schema)) fail(undefined, `must be an object schema, got ${describe(schema)}`);
    if (schema.type !== 'object') fail(undefined, '"type" must be "object"');
    if (has(schema, '$schema') && schema.$schema !== undefined && typeof schema.$schema !== 'string')
      fail(undefined, '"$schema" must be a string');
    const props = schema.properties;
    if (!isObj(props)) fail(undefined, '"properties" must be an object');
    const names = Object.keys(props);
    if (names.length > MAX_FIELDS)
      fail(undefined, `too many properties (${names.length}, at most ${MAX_FIELDS})`);
    const required = new Set<string>();
    if (has(schema, 'required') && schema.required !== undefined) {
      if (!Array.isArray(schema.required)) fail(undefined, '"required" must be an array of property names');
      for (const r of schema.required) {
        if (typeof r !== 'string')
          fail(undefined, `"required" must list property names (strings), got ${describe(r)}`);
        if (!has(props, r)) fail(undefined, `"required" names ${showName(r)}, which is not a property`);
        required.add(r);
      }
    }
    return { ok: true, fields: names.map((n) => parseProperty(n, props[n], required.has(n))) };
  } catch (error) {
    if (error instanceof SchemaProblem) return { ok: false, error: error.message };
    // Anything else is our bug; still an answer, never a throw, so a server cannot crash us.
    return { ok: false, error: `requestedSchema could not be read: ${(error as Error).message}` };
  }
}

// Words, after splitting camelCase and snake_case, that suggest a secret.
const SECRET_WORDS =
  /\b(passwords?|passwd|pass ?codes?|pass ?phrases?|secrets?|tokens?|api ?keys?|private ?keys?|secret ?keys?|access ?keys?|credit ?cards?|card ?numbers?|cvv|cvc|ssn|social security( number)?|pins? ?codes?|seed ?phrases?|mnemonics?)\b/i;

function words(text: string): string {
  return text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_\-.]+/g, ' ');
}

/** Names of fields whose name, title or description suggests a secret (the spec forbids asking for those in form mode). */
export function secretLikeFields(fields: ElicitField[]): string[] {
  return fields
    .filter((f) => [f.name, f.title ?? '', f.description ?? ''].some((t) => SECRET_WORDS.test(words(t))))
    .map((f) => f.name);
}

/** The defaults of every field that has one (pre-fills a form, answers headless). */
export function fieldDefaults(fields: ElicitField[]): Record<string, string | number | boolean | string[]> {
  const out: Record<string, string | number | boolean | string[]> = {};
  for (const f of fields) {
    // defineProperty: a field may be called "__proto__", and that must stay a plain key.
    if (f.default !== undefined)
      Object.defineProperty(out, f.name, {
        value: f.default,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return out;
}

export {
  validateElicitContent,
  withDefaults,
  type ContentCheck,
  type ElicitValue,
} from './elicitation-content.js';
