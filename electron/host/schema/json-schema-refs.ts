import type { JsonSchema } from '../../../shared/domain/mcp-types.js';

/**
 * Provider-neutral JSON Schema plumbing: local `$ref` resolution and inlining, and the
 * allOf-style merge. Kept apart from the Gemini converter because the OpenAI-compatible
 * provider needs refs inlined too, without any of Gemini's subset rules.
 */

/** A JSON Schema object node, read loosely: servers send every draft and extension. */
export type JsonNode = Record<string, unknown>;

/**
 * Inline every local `$ref` (recursive ones become a permissive object with a note) and drop
 * `$schema`/`$defs`/`definitions`: plain JSON Schema for APIs that do not resolve refs.
 */
export function inlineRefs(schema: JsonSchema): { schema: JsonSchema; warnings: string[] } {
  const warnings: string[] = [];
  const stack: string[] = ['#'];
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (!isRecord(value)) return value;
    if (typeof value.$ref === 'string') {
      const { $ref: ref, ...siblings } = value;
      const target = stack.includes(ref) ? undefined : resolvePointer(schema, ref);
      if (!target) {
        const recursive = stack.includes(ref);
        warnings.push(recursive ? `recursive reference ${ref} was cut off` : `unresolvable reference ${ref}`);
        const why = recursive ? `the same structure as its parent, ${ref}` : `described by ${ref}`;
        return { type: 'object', ...walkMap(siblings), description: note(str(siblings.description), why) };
      }
      stack.push(ref);
      try {
        return walk(mergeSchemas(target, siblings));
      } finally {
        stack.pop();
      }
    }
    return walkMap(value);
  };
  const walkMap = (node: JsonNode): JsonNode => {
    const out: JsonNode = {};
    for (const [key, v] of Object.entries(node)) {
      if (key === '$defs' || key === 'definitions' || key === '$schema') continue;
      if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples' || key === 'example')
        out[key] = v;
      else if ((key === 'properties' || key === 'patternProperties') && isRecord(v))
        out[key] = Object.fromEntries(Object.entries(v).map(([k, s]) => [k, walk(s)]));
      else out[key] = walk(v);
    }
    return out;
  };
  return { schema: walk(schema) as JsonSchema, warnings };
}

/**
 * allOf-style merge: properties united (a property in both becomes an allOf of the two),
 * required united, anything else taken from `a` first.
 */
export function mergeSchemas(a: JsonNode, b: JsonNode): JsonNode {
  const out: JsonNode = { ...b };
  for (const [k, v] of Object.entries(a)) if (v !== undefined) out[k] = v;
  if (isRecord(a.properties) || isRecord(b.properties)) {
    const pa = isRecord(a.properties) ? a.properties : {};
    const pb = isRecord(b.properties) ? b.properties : {};
    const props: JsonNode = { ...pb };
    for (const [k, v] of Object.entries(pa)) props[k] = Object.hasOwn(pb, k) ? { allOf: [v, pb[k]] } : v;
    out.properties = props;
  }
  if (Array.isArray(a.required) || Array.isArray(b.required)) {
    const listed = (v: unknown): unknown[] => (Array.isArray(v) ? (v as unknown[]) : []);
    out.required = [...new Set([...listed(a.required), ...listed(b.required)])];
  }
  if ((a.type === 'integer' && b.type === 'number') || (a.type === 'number' && b.type === 'integer'))
    out.type = 'integer';
  return out;
}

/** Run `run` with `refs` marked as being expanded, so a repeat below is seen as recursion. */
export function withRefs<T>(refs: string[], ctx: { refStack: string[] }, run: () => T): T {
  ctx.refStack.push(...refs);
  try {
    return run();
  } finally {
    ctx.refStack.length -= refs.length;
  }
}

/** Local JSON pointers only (`#`, `#/$defs/x`, `#/definitions/x`); remote refs are never fetched. */
export function resolvePointer(root: JsonNode, ref: string): JsonNode | undefined {
  if (!ref.startsWith('#')) return undefined;
  let cur: unknown = root;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    cur = isRecord(cur) ? cur[key] : Array.isArray(cur) ? cur[Number(key)] : undefined;
  }
  return isRecord(cur) ? cur : undefined;
}

/** Append `extra` to a description in parentheses (the form every note in a schema takes). */
export function note(description: string, extra: string): string {
  if (!extra) return description;
  return description ? `${description} (${extra})` : `(${extra})`;
}

/** A string keyword's value, or '' when the schema gave something else. */
export function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A plain object (not null, not an array): the only thing that can be a schema node. */
export function isRecord(value: unknown): value is JsonNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
