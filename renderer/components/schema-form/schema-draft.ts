import { plural } from '../../lib/format.js';
import type { FieldNode, FieldSpec } from './schema-model.js';

/**
 * What the form holds while a person types: text stays text until submit (so "1." or a
 * half-written JSON value is not lost), booleans remember whether they were touched (so
 * an optional flag nobody clicked is not sent as false), and objects keep keys the form
 * has no field for (so a round trip through "raw JSON" loses nothing).
 */
export type Draft =
  | { kind: 'text'; text: string }
  | { kind: 'bool'; value: boolean; touched: boolean }
  | { kind: 'multi'; values: string[] }
  | { kind: 'object'; fields: Record<string, Draft>; extra: Record<string, unknown> };

/** A field problem, by dotted path from the root. */
export interface FieldError {
  path: string;
  message: string;
}

/** The value a draft stands for, or the problems stopping it from being one. */
export type DraftResult = { ok: true; value: unknown } | { ok: false; errors: FieldError[] };

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The own property `key` (a field may be called "__proto__", which must stay a plain key). */
export function own(o: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined;
}

/** Set `key` as a plain own property, whatever its name. */
export function put<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The draft of the field called `name` inside an object draft. */
export function fieldDraft(draft: Extract<Draft, { kind: 'object' }>, name: string): Draft | undefined {
  return own(draft.fields, name) as Draft | undefined;
}

function jsonText(value: unknown): string {
  return value === undefined ? '' : JSON.stringify(value, null, 2);
}

/** The draft showing `value` (or the node's default when `value` is undefined). */
export function draftOf(node: FieldNode, value: unknown): Draft {
  const v = value === undefined ? node.defaultValue : value;
  return draftForSpec(node.spec, v);
}

function draftForSpec(spec: FieldSpec, v: unknown): Draft {
  switch (spec.kind) {
    case 'string':
      if (spec.localTime) return { kind: 'text', text: typeof v === 'string' ? toLocalInput(v) : '' };
      return {
        kind: 'text',
        text: typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v),
      };
    case 'number':
      return { kind: 'text', text: typeof v === 'number' ? String(v) : typeof v === 'string' ? v : '' };
    case 'boolean':
      return { kind: 'bool', value: v === true, touched: typeof v === 'boolean' };
    case 'choice': {
      const index = spec.options.findIndex((o) => JSON.stringify(o) === JSON.stringify(v));
      return { kind: 'text', text: index >= 0 ? String(index) : '' };
    }
    case 'list':
      return { kind: 'text', text: Array.isArray(v) ? v.map((x) => String(x)).join('\n') : '' };
    case 'multi':
      return { kind: 'multi', values: Array.isArray(v) ? v.filter((x) => typeof x === 'string') : [] };
    case 'object': {
      const source = isObj(v) ? v : {};
      const fields: Record<string, Draft> = {};
      for (const p of spec.properties) put(fields, p.name, draftOf(p, own(source, p.name)));
      const known = new Set(spec.properties.map((p) => p.name));
      const extra = Object.fromEntries(Object.entries(source).filter(([k]) => !known.has(k)));
      return { kind: 'object', fields, extra };
    }
    case 'json':
      return { kind: 'text', text: jsonText(v) };
  }
}

/**
 * Turn a draft into the JSON value to send. `undefined` means "leave the key out".
 * With `lenient`, invalid fields are dropped instead of reported (for the raw-JSON view).
 */
export function valueOf(node: FieldNode, draft: Draft, path = '', lenient = false): DraftResult {
  const here = path || node.name || '(arguments)';
  const missing = (): DraftResult =>
    node.required && !lenient
      ? { ok: false, errors: [{ path: here, message: 'required' }] }
      : { ok: true, value: undefined };
  const bad = (message: string): DraftResult =>
    lenient ? { ok: true, value: undefined } : { ok: false, errors: [{ path: here, message }] };
  const spec = node.spec;

  if (spec.kind === 'object') {
    if (draft.kind !== 'object') return bad('not an object');
    // An optional group left blank is simply absent: its required fields only bind once
    // the person starts filling it in.
    if (!lenient && !node.required && path) {
      const probe = valueOf(node, draft, path, true);
      if (probe.ok && probe.value === undefined) return probe;
    }
    const out: Record<string, unknown> = { ...draft.extra };
    const errors: FieldError[] = [];
    for (const p of spec.properties) {
      const child = fieldDraft(draft, p.name) ?? draftOf(p, undefined);
      const r = valueOf(p, child, path ? `${path}.${p.name}` : p.name, lenient);
      if (!r.ok) errors.push(...r.errors);
      else if (r.value !== undefined) put(out, p.name, r.value);
    }
    if (errors.length) return { ok: false, errors };
    // An optional nested object nobody filled in is left out, not sent as {}.
    if (!node.required && path && Object.keys(out).length === 0) return { ok: true, value: undefined };
    return { ok: true, value: out };
  }

  if (spec.kind === 'boolean') {
    if (draft.kind !== 'bool') return bad('not a boolean');
    if (!draft.touched && !node.required) return { ok: true, value: undefined };
    return { ok: true, value: draft.value };
  }

  if (spec.kind === 'multi') {
    if (draft.kind !== 'multi') return bad('not a list');
    if (!draft.values.length) return node.required ? { ok: true, value: [] } : { ok: true, value: undefined };
    return { ok: true, value: draft.values };
  }

  if (draft.kind !== 'text') return bad('unexpected value');
  const text = draft.text;

  switch (spec.kind) {
    case 'string':
      if (text === '') return missing();
      if (spec.localTime) {
        const at = new Date(text);
        return Number.isNaN(at.getTime())
          ? bad('must be a date and time')
          : { ok: true, value: at.toISOString() };
      }
      if (spec.minLength !== undefined && text.length < spec.minLength)
        return bad(`at least ${plural(spec.minLength, 'character')}`);
      if (spec.maxLength !== undefined && text.length > spec.maxLength)
        return bad(`at most ${plural(spec.maxLength, 'character')}`);
      return { ok: true, value: text };
    case 'number': {
      if (text.trim() === '') return missing();
      const n = Number(text);
      if (!Number.isFinite(n)) return bad('not a number');
      if (spec.integer && !Number.isInteger(n)) return bad('must be a whole number');
      if (spec.minimum !== undefined && n < spec.minimum) return bad(`must be at least ${spec.minimum}`);
      if (spec.maximum !== undefined && n > spec.maximum) return bad(`must be at most ${spec.maximum}`);
      return { ok: true, value: n };
    }
    case 'choice':
      if (text === '') return missing();
      return { ok: true, value: spec.options[Number(text)] };
    case 'list': {
      const lines = text.split('\n').filter((l) => l.trim() !== '');
      if (!lines.length) return node.required ? { ok: true, value: [] } : { ok: true, value: undefined };
      if (spec.item === 'string') return { ok: true, value: lines };
      const nums = lines.map((l) => Number(l));
      const i = nums.findIndex(
        (n) => !Number.isFinite(n) || (spec.item === 'integer' && !Number.isInteger(n)),
      );
      if (i >= 0)
        return bad(`line ${i + 1} is not ${spec.item === 'integer' ? 'a whole number' : 'a number'}`);
      return { ok: true, value: nums };
    }
    case 'json':
      if (text.trim() === '') return missing();
      try {
        return { ok: true, value: JSON.parse(text) as unknown };
      } catch (error) {
        return bad(`not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
      }
  }
}

/** Replace the draft at `names` (a path of property names) inside an object draft. */
export function setDraftAt(root: Draft, names: string[], next: Draft): Draft {
  if (!names.length) return next;
  if (root.kind !== 'object') return root;
  const [head, ...rest] = names;
  const child = fieldDraft(root, head);
  const fields = { ...root.fields };
  put(fields, head, rest.length && child ? setDraftAt(child, rest, next) : next);
  return { ...root, fields };
}

/** An ISO date-time as a datetime-local input's value (local time, minutes). */
function toLocalInput(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}
