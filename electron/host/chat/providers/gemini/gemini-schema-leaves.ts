import { Type, type Schema as GeminiSchema } from '@google/genai';
import { isRecord, note, str, type JsonNode } from '../../../schema/json-schema-refs.js';
import type { ArgFix, ArgPath } from './gemini-arg-fixes.js';

/**
 * The parts of the Gemini converter that never recurse into sub-schemas: strings, numbers,
 * coerced enums, the JSON-text fallback and the annotations every node carries. The
 * recursive walk (objects, arrays, unions, refs) stays in gemini-schema.ts.
 */

/** State shared by one conversion: the root (for refs), what was lost, and the fixes to apply. */
export interface Ctx {
  root: JsonNode;
  warnings: string[];
  fixes: ArgFix[];
  /** Refs being expanded on the current path: a repeat is recursion. */
  refStack: string[];
}

/** A STRING node; formats and patterns Gemini refuses become description notes. */
export function convertString(node: JsonNode, values: string[] | undefined, notes: string[]): GeminiSchema {
  const out: GeminiSchema = { type: Type.STRING };
  if (values) out.enum = [...new Set(values)];
  if (node.format === 'date-time') out.format = 'date-time';
  else if (typeof node.format === 'string' && node.format !== 'enum') notes.push(`format: ${node.format}`);
  setInt(out, 'minLength', node.minLength);
  setInt(out, 'maxLength', node.maxLength);
  if (typeof node.pattern === 'string') {
    // Google evaluates patterns with RE2: no lookaround, no backreferences.
    if (/\(\?<?[=!]|\(\?>|\\[1-9]|\\k</.test(node.pattern))
      notes.push(`must match the regular expression ${node.pattern}`);
    else out.pattern = node.pattern;
  }
  return { ...out, ...annotations(node, notes, 'string') };
}

/** An INTEGER or NUMBER node; exclusive bounds become inclusive ones where the type allows. */
export function convertNumber(node: JsonNode, type: 'integer' | 'number', notes: string[]): GeminiSchema {
  const out: GeminiSchema = { type: type === 'integer' ? Type.INTEGER : Type.NUMBER };
  const formats = type === 'integer' ? ['int32', 'int64'] : ['float', 'double'];
  if (typeof node.format === 'string' && formats.includes(node.format)) out.format = node.format;
  const bound = (inclusive: unknown, exclusive: unknown, sign: 1 | -1, word: string): number | undefined => {
    // 2019+: exclusiveMinimum is the number; draft-04: a boolean flag on minimum.
    const ex =
      typeof exclusive === 'number'
        ? exclusive
        : exclusive === true && typeof inclusive === 'number'
          ? inclusive
          : undefined;
    if (ex === undefined) return typeof inclusive === 'number' ? inclusive : undefined;
    if (type === 'integer' && Number.isInteger(ex)) return ex + sign;
    notes.push(`${word} ${ex}`);
    return ex;
  };
  const min = bound(node.minimum, node.exclusiveMinimum, 1, 'greater than');
  const max = bound(node.maximum, node.exclusiveMaximum, -1, 'less than');
  if (min !== undefined && Number.isFinite(min)) out.minimum = min;
  if (max !== undefined && Number.isFinite(max)) out.maximum = max;
  if (typeof node.multipleOf === 'number') notes.push(`a multiple of ${node.multipleOf}`);
  return { ...out, ...annotations(node, notes, 'number') };
}

/** Non-string literals: offered as their JSON text, mapped back by an ArgFix. */
export function coercedEnum(node: JsonNode, values: unknown[], path: ArgPath, ctx: Ctx): GeminiSchema {
  const mapping: Record<string, unknown> = {};
  const texts: string[] = [];
  for (const v of values) {
    const text = typeof v === 'string' ? v : JSON.stringify(v);
    if (Object.hasOwn(mapping, text)) continue;
    mapping[text] = v;
    texts.push(text);
  }
  ctx.fixes.push({ path, kind: 'enum', values: mapping });
  const desc = note(
    str(node.description),
    `one of ${values.map((v) => JSON.stringify(v)).join(', ')}, given as text`,
  );
  const out: GeminiSchema = { type: Type.STRING, enum: texts };
  const coerce = (v: unknown) =>
    v === undefined ? undefined : typeof v === 'string' ? v : JSON.stringify(v);
  return {
    ...out,
    ...annotations(
      {
        ...node,
        description: desc,
        default: coerce(node.default),
        example: coerce(firstExample(node)),
        examples: undefined,
      },
      undefined,
      'string',
    ),
  };
}

/** A value Gemini cannot declare, carried as JSON text and parsed back by an ArgFix. */
export function jsonText(
  node: JsonNode,
  path: ArgPath,
  ctx: Ctx,
  expect: 'object' | 'any',
  notes: string[] = [],
): GeminiSchema {
  ctx.fixes.push({ path, kind: 'json', expect });
  const how =
    expect === 'object'
      ? 'give a JSON object written as a string, e.g. "{\\"key\\": \\"value\\"}"'
      : 'give JSON text written as a string';
  const def = node.default === undefined ? undefined : JSON.stringify(node.default);
  const example = firstExample(node);
  return {
    type: Type.STRING,
    ...annotations(
      {
        ...node,
        description: note(str(node.description), [...notes, how].join('; ')),
        default: def,
        example: example === undefined ? undefined : JSON.stringify(example),
        examples: undefined,
      },
      undefined,
      'string',
    ),
  };
}

/** title, description (+ notes), nullable, and default/example when they fit the type. */
export function annotations(
  node: JsonNode,
  notes: string[] | undefined,
  kind?: 'string' | 'number' | 'boolean' | 'array' | 'object',
): GeminiSchema {
  const out: GeminiSchema = {};
  if (typeof node.title === 'string') out.title = node.title;
  const description = note(str(node.description), notes?.join('; ') ?? '');
  if (description) out.description = description;
  if (node.nullable === true) out.nullable = true;
  const fits = (v: unknown) =>
    v !== undefined &&
    v !== null &&
    (!kind || (kind === 'array' ? Array.isArray(v) : kind === 'object' ? isRecord(v) : typeof v === kind));
  if (fits(node.default)) out.default = node.default;
  const example = firstExample(node);
  if (fits(example)) out.example = example;
  return out;
}

/** Set a Gemini int64 field (a decimal string) when the schema gave a usable count. */
export function setInt(
  out: GeminiSchema,
  key: 'minLength' | 'maxLength' | 'minItems' | 'maxItems' | 'minProperties' | 'maxProperties',
  value: unknown,
): void {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) out[key] = String(value);
}

function firstExample(node: JsonNode): unknown {
  return node.example !== undefined
    ? node.example
    : Array.isArray(node.examples)
      ? node.examples[0]
      : undefined;
}

/** A readable argument path for warnings: `a.b.[]`, or `(root)`. */
export function where(path: ArgPath): string {
  return path.length ? path.map((p) => (p === null ? '[]' : p)).join('.') : '(root)';
}
