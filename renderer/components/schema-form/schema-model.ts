import type { JsonSchema } from '../../../shared/domain/mcp-types.js';

/**
 * The form engine's model: a schema reduced to the few field kinds a form can offer. Tool
 * arguments come from any JSON Schema (read defensively here: whatever does not fit a known
 * kind becomes a JSON textarea rather than a wrong widget); prompt arguments and elicitation
 * fields are mapped onto the same model in field-sources.ts.
 */

/** One choice of a select or checkbox group: the value sent, and the words shown. */
export interface FieldOption {
  value: string;
  label: string;
}

/** The widget a schema node maps to. */
export type FieldSpec =
  | {
      kind: 'string';
      options: FieldOption[] | null;
      /** Whether a select offers "— choose —" (nothing chosen). */
      blankOption: boolean;
      format: string | null;
      /** Edited as a local date and time, sent as an ISO instant. */
      localTime: boolean;
      multiline: boolean;
      minLength?: number;
      maxLength?: number;
      pattern?: string;
    }
  | { kind: 'number'; integer: boolean; minimum?: number; maximum?: number }
  | { kind: 'boolean' }
  /** An enum or const whose values are not all strings; the draft holds an index. */
  | { kind: 'choice'; options: unknown[] }
  | { kind: 'list'; item: 'string' | 'number' | 'integer' }
  /** Several of a fixed set of strings, as a checkbox group. */
  | { kind: 'multi'; options: FieldOption[]; minItems?: number; maxItems?: number }
  | { kind: 'object'; properties: FieldNode[] }
  | { kind: 'json' };

/** One field: its widget and the words around it. */
export interface FieldNode {
  name: string;
  title: string | null;
  description: string | null;
  required: boolean;
  /** The schema's default, undefined when there is none. */
  defaultValue: unknown;
  spec: FieldSpec;
}

const MAX_DEPTH = 6;

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** Follow a local `#/$defs/X` or `#/definitions/X` reference; anything else stays as is. */
function deref(node: Obj, root: Obj, seen: Set<string>): Obj | null {
  const ref = str(node.$ref);
  if (!ref) return node;
  if (seen.has(ref)) return null;
  const m = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
  const table = m ? root[m[1]] : undefined;
  const target = m && isObj(table) ? table[decodeURIComponent(m[2])] : undefined;
  if (!isObj(target)) return null;
  seen.add(ref);
  const { $ref: _ignored, ...rest } = node;
  return deref({ ...target, ...rest }, root, seen);
}

/** `type: ["string", "null"]` and `anyOf: [X, {type: "null"}]` are just an optional X. */
function unwrapNullable(node: Obj): Obj {
  if (Array.isArray(node.type)) {
    const types = node.type.filter((t) => t !== 'null');
    if (types.length === 1) return { ...node, type: types[0] };
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = node[key];
    if (Array.isArray(branches)) {
      const real = branches.filter((b) => !(isObj(b) && b.type === 'null'));
      if (real.length === 1 && isObj(real[0])) {
        const { [key]: _ignored, ...rest } = node;
        return { ...rest, ...real[0] };
      }
    }
  }
  return node;
}

function specOf(raw: unknown, root: Obj, depth: number, seen: Set<string>): FieldSpec {
  if (!isObj(raw) || depth > MAX_DEPTH) return { kind: 'json' };
  const resolved = deref(raw, root, new Set(seen));
  if (!resolved) return { kind: 'json' };
  const node = unwrapNullable(resolved);

  const values = Array.isArray(node.enum) ? node.enum : 'const' in node ? [node.const] : null;
  if (values && values.length) {
    if (values.every((v) => typeof v === 'string')) {
      const options = values.map((v) => ({ value: v, label: v }));
      return { kind: 'string', options, blankOption: true, format: null, localTime: false, multiline: false };
    }
    return { kind: 'choice', options: values };
  }

  switch (node.type) {
    case 'string': {
      const maxLength = num(node.maxLength);
      const format = str(node.format);
      return {
        kind: 'string',
        options: null,
        blankOption: true,
        format,
        localTime: false,
        // Long free text deserves room; short ids and names do not.
        multiline:
          format === null &&
          (maxLength === undefined || maxLength > 200) &&
          /text|body|content|prompt|query|code|script/i.test(str(node.description) ?? ''),
        minLength: num(node.minLength),
        maxLength,
        pattern: str(node.pattern) ?? undefined,
      };
    }
    case 'number':
    case 'integer':
      return {
        kind: 'number',
        integer: node.type === 'integer',
        minimum: num(node.minimum) ?? num(node.exclusiveMinimum),
        maximum: num(node.maximum) ?? num(node.exclusiveMaximum),
      };
    case 'boolean':
      return { kind: 'boolean' };
    case 'array': {
      const items = isObj(node.items) ? unwrapNullable(node.items) : null;
      const t = items?.type;
      if (items && !items.enum && (t === 'string' || t === 'number' || t === 'integer'))
        return { kind: 'list', item: t };
      return { kind: 'json' };
    }
    case 'object':
      return isObj(node.properties)
        ? { kind: 'object', properties: propertiesOf(node, root, depth + 1, seen) }
        : { kind: 'json' };
    default:
      if (node.type === undefined && isObj(node.properties)) {
        return { kind: 'object', properties: propertiesOf(node, root, depth + 1, seen) };
      }
      return { kind: 'json' };
  }
}

function propertiesOf(node: Obj, root: Obj, depth: number, seen: Set<string>): FieldNode[] {
  const props = isObj(node.properties) ? node.properties : {};
  const required = new Set(
    Array.isArray(node.required) ? node.required.filter((r): r is string => typeof r === 'string') : [],
  );
  return Object.entries(props).map(([name, raw]) => {
    const meta = isObj(raw) ? (deref(raw, root, new Set(seen)) ?? raw) : {};
    return {
      name,
      title: str(meta.title),
      description: str(meta.description),
      required: required.has(name),
      defaultValue: meta.default,
      spec: specOf(raw, root, depth, seen),
    };
  });
}

/** The form model of a tool's inputSchema: always an object at the root. */
export function rootFieldOf(schema: JsonSchema): FieldNode {
  const spec = specOf(schema, schema, 0, new Set());
  return {
    name: '',
    title: null,
    description: null,
    required: true,
    defaultValue: schema.default,
    spec: spec.kind === 'object' ? spec : { kind: 'object', properties: [] },
  };
}
