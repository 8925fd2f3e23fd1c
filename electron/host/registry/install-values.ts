import type { InstallInput } from '../../../shared/domain/registry.js';
import { SERVER_SECRET_NAME } from '../../../shared/domain/server-secrets.js';
import type { Input, InputWithVariables } from './server-json.js';

/**
 * The values of one install: which inputs a server.json asks for (an env variable, a header, an
 * argument, a URL variable, or a `{variable}` inside a fixed value), and how the values a person
 * typed become the strings of the saved entry. A secret never lands in the entry: it becomes
 * `${secret:NAME}` and is collected for the keychain.
 */

/** One fillable value: what the renderer shows, and the schema's input behind it. */
export interface Slot {
  view: InstallInput;
  spec: Input;
}

/** How one string of the entry is made: a fixed template with variables, or one slot. */
export type ValueSpec =
  | { kind: 'template'; template: string; vars: Map<string, Slot>; required: boolean }
  | { kind: 'slot'; slot: Slot };

/** What filling values collects along the way. */
export interface FillContext {
  values: Readonly<Record<string, string>>;
  /** The local server's name: secret names start with it. */
  serverName: string;
  missing: string[];
  problems: string[];
  /** Keychain names and their values, in order. */
  secrets: { name: string; value: string }[];
}

const FORMATS = new Set(['string', 'number', 'boolean', 'filepath']);

/** The renderer's view of a schema Input. */
export function slotOf(
  id: string,
  label: string,
  target: InstallInput['target'],
  spec: Input,
  extra: { repeated?: boolean; required?: boolean } = {},
): Slot {
  const format = spec.format && FORMATS.has(spec.format) ? spec.format : 'string';
  const view: InstallInput = {
    id,
    label,
    target,
    required: extra.required ?? spec.isRequired === true,
    secret: spec.isSecret === true,
    format,
  };
  if (spec.description) view.description = spec.description;
  if (spec.default !== undefined) view.default = spec.default;
  if (spec.placeholder) view.placeholder = spec.placeholder;
  if (Array.isArray(spec.choices) && spec.choices.length) view.choices = [...spec.choices];
  if (extra.repeated) view.repeated = true;
  return { view, spec };
}

/** The spec of a KeyValueInput or argument: its fixed value with variables, or itself as a slot. */
export function specOf(
  id: string,
  label: string,
  target: InstallInput['target'],
  input: InputWithVariables,
  extra: { repeated?: boolean; required?: boolean } = {},
): ValueSpec {
  if (typeof input.value === 'string') {
    const vars = new Map<string, Slot>();
    for (const [name, v] of Object.entries(input.variables ?? {}))
      if (input.value.includes(`{${name}}`)) vars.set(name, slotOf(`${id}.${name}`, name, target, v));
    return { kind: 'template', template: input.value, vars, required: input.isRequired === true };
  }
  return { kind: 'slot', slot: slotOf(id, label, target, input, extra) };
}

/** Every slot of a spec, for the preview's form. */
export function slotsOf(spec: ValueSpec): Slot[] {
  return spec.kind === 'slot' ? [spec.slot] : [...spec.vars.values()];
}

/**
 * The strings a spec makes with these values: none when an optional value is left empty,
 * several for a repeated argument. A missing required value is recorded, not thrown.
 */
export function fill(spec: ValueSpec, ctx: FillContext): string[] {
  if (spec.kind === 'slot') return fillSlot(spec.slot, ctx);
  let empty = 0;
  const text = spec.template.replace(/\{([A-Za-z_][A-Za-z0-9_.-]*)\}/g, (whole, name: string) => {
    const slot = spec.vars.get(name);
    // Per the schema, a name not among the variables stays as it is.
    if (!slot) return whole;
    const [value] = fillSlot(slot, ctx);
    if (value === undefined) empty++;
    return value ?? '';
  });
  // A fixed value made only of optional variables nobody filled is left out entirely.
  if (spec.vars.size > 0 && empty === spec.vars.size && !spec.required) return [];
  return [text];
}

function fillSlot(slot: Slot, ctx: FillContext): string[] {
  const { view } = slot;
  const typed = ctx.values[view.id] ?? '';
  const raw = typed.trim() === '' ? (view.default ?? '') : typed;
  if (raw.trim() === '') {
    if (view.required) ctx.missing.push(view.label);
    return [];
  }
  const parts = view.repeated
    ? raw
        .split('\n')
        .map((s) => s.trim())
        .filter(Boolean)
    : [view.secret ? raw : raw.trim()];
  for (const part of parts) {
    const problem = formatProblem(view, part);
    if (problem) ctx.problems.push(problem);
  }
  if (!view.secret) return parts;
  const name = secretName(ctx, view.label);
  ctx.secrets.push({ name, value: parts.join('\n') });
  return [`\${secret:${name}}`];
}

function formatProblem(view: InstallInput, value: string): string | undefined {
  if (view.choices && !view.choices.includes(value))
    return `${view.label} must be one of ${view.choices.join(', ')}`;
  if (view.format === 'number' && !/^-?\d+(?:\.\d+)?$/.test(value)) return `${view.label} must be a number`;
  if (view.format === 'boolean' && value !== 'true' && value !== 'false')
    return `${view.label} must be true or false`;
  return undefined;
}

/** `<server>.<label>`, valid for `${secret:NAME}`, unique within this install. */
export function secretName(ctx: Pick<FillContext, 'serverName' | 'secrets'>, label: string): string {
  const clean = (s: string) => s.replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/^[^A-Za-z_]+/, '');
  const base = [clean(ctx.serverName), clean(label)].filter(Boolean).join('.').slice(0, 80) || 'secret';
  const valid = SERVER_SECRET_NAME.test(base) ? base : `s_${base}`.slice(0, 80);
  const taken = new Set(ctx.secrets.map((s) => s.name));
  let name = valid;
  for (let i = 2; taken.has(name); i++) name = `${valid}-${i}`;
  return name;
}
