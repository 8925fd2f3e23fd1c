import { Type, type Schema } from '@google/genai';
import type { JsonSchema } from '../../../../../shared/domain/mcp-types.js';
import {
  isRecord,
  mergeSchemas,
  note,
  resolvePointer,
  str,
  withRefs,
  type JsonNode,
} from '../../../schema/json-schema-refs.js';
import {
  annotations,
  coercedEnum,
  convertNumber,
  convertString,
  jsonText,
  setInt,
  where,
  type Ctx,
} from './gemini-schema-leaves.js';
import type { ArgFix, ArgPath } from './gemini-arg-fixes.js';

// Re-exported so the provider has one entry point for its schema conversion and the way back.
export { applyArgFixes, type ArgFix, type ArgPath } from './gemini-arg-fixes.js';

/**
 * MCP tool input schemas (JSON Schema 2020-12 / draft-07, as servers send them) converted to
 * the `FunctionDeclaration.parameters` subset the Gemini Developer API accepts. We produce
 * `parameters` (Google's OpenAPI-3.0-subset `Schema`) rather than `parametersJsonSchema`,
 * so what we send can be checked against a documented, closed subset before the API sees it.
 *
 * Target subset (https://ai.google.dev/api/caching#Schema, the v1beta proto's `Schema`):
 *   type (STRING | NUMBER | INTEGER | BOOLEAN | ARRAY | OBJECT, uppercase, the SDK's `Type`)
 *   title, description, nullable, default, example, anyOf (never beside `type`)
 *   STRING:  enum (strings only), format ('date-time' only; the Developer API refuses other
 *            string formats), minLength, maxLength, pattern
 *   NUMBER:  format float|double, minimum, maximum;  INTEGER: format int32|int64, min/max
 *   ARRAY:   items (required), minItems, maxItems
 *   OBJECT:  properties (non-empty), required (existing names only), min/maxProperties
 *   int64 fields are decimal strings, as in the proto3 JSON mapping and @google/genai's types.
 *
 * What happens to JSON Schema beyond it:
 *   - `$ref` into `$defs`/`definitions` (any local JSON pointer) is inlined; a ref back into
 *     itself becomes a JSON-text field with a note (see below) instead of recursing.
 *   - `type: [X, "null"]`, `nullable`, and null branches of anyOf/oneOf become `nullable`.
 *     anyOf/oneOf: one branch left -> that branch; only literals -> one enum; else `anyOf`.
 *   - `allOf` is merged; `const` becomes a one-value enum (non-strings: a description note).
 *   - Non-string enums become STRING enums of their JSON text (noted in the description).
 *   - Exclusive bounds become inclusive ones; lookaround/backreference patterns (RE2 has
 *     neither) move into the description; unknown keywords and formats are dropped.
 *   - An object with no declared properties (a free-form map), or a value of any type, cannot
 *     be declared (Gemini rejects OBJECT without properties): it becomes a STRING holding JSON.
 * Wherever the model's answer would differ from what the server expects (JSON text, enum
 * text), an `ArgFix` is recorded; `applyArgFixes` turns the model's arguments back into the
 * values the MCP server asked for.
 */

/** A Gemini function-declaration schema node. */
export type GeminiSchema = Schema;

/** What `toGeminiParameters` produces for one tool. */
export interface GeminiParameters {
  /** Absent when the tool takes no (declarable) parameters. */
  parameters?: GeminiSchema;
  /** What could not be carried over faithfully, for logs and the UI. */
  warnings: string[];
  argFixes: ArgFix[];
}

/** Keys that only describe (stay on a union node instead of being copied into its branches). */
const ANNOTATIONS = new Set([
  'title',
  'description',
  'default',
  'example',
  'examples',
  'nullable',
  '$comment',
]);

/** Convert one MCP tool input schema to Gemini function-declaration parameters. */
export function toGeminiParameters(schema: JsonSchema | undefined): GeminiParameters {
  const warnings: string[] = [];
  if (!isRecord(schema) || Object.keys(schema).length === 0) return { warnings, argFixes: [] };
  const ctx: Ctx = { root: schema, warnings, fixes: [], refStack: ['#'] };
  let out = convert(schema, [], ctx);
  if (out.anyOf?.every((b) => b.type === Type.OBJECT)) out = mergeObjectBranches(out, out.anyOf);
  if (out.type !== Type.OBJECT) {
    const freeForm = ctx.fixes.some((f) => f.path.length === 0);
    if (freeForm && declaresExtraKeys(schema))
      warnings.push(
        'the tool accepts free-form arguments, which Gemini cannot declare; it is offered without parameters',
      );
    else if (!freeForm)
      warnings.push(
        `the input schema is not an object (${typeText(schema.type)}); the tool is offered without parameters`,
      );
    return { warnings, argFixes: [] };
  }
  return { parameters: out, warnings, argFixes: ctx.fixes };
}

function convert(raw: unknown, path: ArgPath, ctx: Ctx): GeminiSchema {
  if (raw === false)
    ctx.warnings.push(`${where(path)}: a schema that accepts nothing was offered as accepting every value`);
  if (!isRecord(raw)) return jsonText({}, path, ctx, 'any');

  if (typeof raw.$ref === 'string') {
    const { $ref: ref, ...siblings } = raw;
    if (ctx.refStack.includes(ref)) {
      ctx.warnings.push(`${where(path)}: recursive reference ${ref} is passed as JSON text`);
      const target = resolvePointer(ctx.root, ref);
      const expect = target && inferType(target, undefined) === 'object' ? 'object' : 'any';
      return jsonText(siblings, path, ctx, expect, [`the same structure as its parent, ${ref}`]);
    }
    const target = resolvePointer(ctx.root, ref);
    if (!target) {
      ctx.warnings.push(`${where(path)}: unresolvable reference ${ref} is passed as JSON text`);
      return jsonText(siblings, path, ctx, 'any');
    }
    return withRefs([ref], ctx, () => convert(mergeSchemas(target, siblings), path, ctx));
  }

  if (Array.isArray(raw.allOf)) {
    const { allOf, ...rest } = raw;
    let merged: JsonNode = rest;
    const refs: string[] = [];
    for (let branch of allOf) {
      while (
        isRecord(branch) &&
        typeof branch.$ref === 'string' &&
        !ctx.refStack.includes(branch.$ref) &&
        !refs.includes(branch.$ref)
      ) {
        const { $ref: ref, ...siblings } = branch;
        refs.push(ref);
        const target = resolvePointer(ctx.root, ref);
        branch = target ? mergeSchemas(target, siblings) : siblings;
      }
      if (isRecord(branch) && typeof branch.$ref !== 'string') merged = mergeSchemas(merged, branch);
      else ctx.warnings.push(`${where(path)}: a recursive allOf branch was left out`);
    }
    return withRefs(refs, ctx, () => convert(merged, path, ctx));
  }

  const node: JsonNode = { ...raw };
  let nullable = node.nullable === true;
  if (Array.isArray(node.type)) {
    const types = [...new Set(node.type.filter((t): t is string => typeof t === 'string'))];
    if (types.includes('null')) nullable = true;
    const rest = types.filter((t) => t !== 'null');
    node.type = rest.length === 1 ? rest[0] : undefined;
    if (rest.length > 1 && !node.anyOf && !node.oneOf) node.anyOf = rest.map((t) => ({ type: t }));
  }
  if (node.type === 'null') {
    nullable = true;
    node.type = undefined;
  }

  const union = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined;
  if (union) {
    if (node.anyOf && node.oneOf) ctx.warnings.push(`${where(path)}: oneOf beside anyOf was dropped`);
    delete node.anyOf;
    delete node.oneOf;
    const branches = union.filter((b) => !isNullSchema(b));
    if (branches.length < union.length) nullable = true;
    if (nullable) node.nullable = true;
    if (branches.length === 1) return convert(mergeSchemas(node, asNode(branches[0])), path, ctx);
    if (branches.length > 1 && branches.every(isLiteral)) {
      node.enum = branches.flatMap((b) => (Array.isArray(b.enum) ? (b.enum as unknown[]) : [b.const]));
      const described = branches
        .filter((b) => typeof b.description === 'string')
        .map((b) => `${JSON.stringify(b.const ?? b.enum)}: ${String(b.description)}`);
      if (described.length) node.description = note(str(node.description), described.join('; '));
    } else if (branches.length > 1 && branches.every((b) => !isStructural(b))) {
      ctx.warnings.push(`${where(path)}: anyOf/oneOf constraints between properties were dropped`);
    } else if (branches.length > 1) {
      return convertUnion(node, branches, path, ctx);
    }
  }
  if (nullable) node.nullable = true;
  return convertTyped(node, path, ctx);
}

/** Each branch gets the parent's structure (type, properties, ...) unless it says otherwise. */
function convertUnion(node: JsonNode, branches: unknown[], path: ArgPath, ctx: Ctx): GeminiSchema {
  const structure = Object.fromEntries(Object.entries(node).filter(([k]) => !ANNOTATIONS.has(k)));
  const converted: GeminiSchema[] = [];
  for (const branch of branches) {
    const c = convert(mergeSchemas(asNode(branch), structure), path, ctx);
    // A nested union adds nothing but depth; its branches join ours.
    if (c.anyOf && !c.type && !c.description && !c.title) converted.push(...c.anyOf);
    else converted.push(c);
  }
  return { anyOf: converted, ...annotations(node, undefined) };
}

function convertTyped(node: JsonNode, path: ArgPath, ctx: Ctx): GeminiSchema {
  const notes: string[] = [];
  if (node.const !== undefined) {
    if (typeof node.const === 'string') node.enum = [node.const];
    else if (node.const !== null) notes.push(`must be ${JSON.stringify(node.const)}`);
  }
  let values = Array.isArray(node.enum) ? node.enum.filter((v) => v !== null) : undefined;
  if (values && Array.isArray(node.enum) && values.length < node.enum.length) node.nullable = true;
  if (values?.length === 0) values = undefined;

  const type = typeof node.type === 'string' ? node.type : inferType(node, values);
  if (values && (values.some((v) => typeof v !== 'string') || (type !== 'string' && type !== undefined))) {
    return coercedEnum(node, values, path, ctx);
  }
  switch (type) {
    case 'string':
      return convertString(node, values as string[] | undefined, notes);
    case 'integer':
    case 'number':
      return convertNumber(node, type, notes);
    case 'boolean':
      return { type: Type.BOOLEAN, ...annotations(node, notes, 'boolean') };
    case 'array':
      return convertArray(node, notes, path, ctx);
    case 'object':
      return convertObject(node, notes, path, ctx);
    default:
      return jsonText(node, path, ctx, 'any', notes);
  }
}

function convertArray(node: JsonNode, notes: string[], path: ArgPath, ctx: Ctx): GeminiSchema {
  const itemsPath = [...path, null];
  const tuple = Array.isArray(node.prefixItems)
    ? node.prefixItems
    : Array.isArray(node.items)
      ? node.items
      : undefined;
  let items: GeminiSchema;
  if (tuple && tuple.length) {
    notes.push(`a list of ${tuple.length} items in order`);
    const converted = tuple.map((s) => convert(s, itemsPath, ctx));
    items = converted.length === 1 ? converted[0] : { anyOf: converted };
  } else {
    items = convert(node.items, itemsPath, ctx);
  }
  const out: GeminiSchema = { type: Type.ARRAY, items };
  setInt(out, 'minItems', node.minItems);
  setInt(out, 'maxItems', node.maxItems);
  if (node.uniqueItems === true) notes.push('no duplicates');
  return { ...out, ...annotations(node, notes, 'array') };
}

function convertObject(node: JsonNode, notes: string[], path: ArgPath, ctx: Ctx): GeminiSchema {
  const properties: Record<string, GeminiSchema> = {};
  if (isRecord(node.properties)) {
    for (const [name, sub] of Object.entries(node.properties))
      properties[name] = convert(sub, [...path, name], ctx);
  }
  if (Object.keys(properties).length === 0) {
    const values =
      isRecord(node.additionalProperties) && typeof node.additionalProperties.type === 'string'
        ? node.additionalProperties.type
        : undefined;
    if (path.length) ctx.warnings.push(`${where(path)}: a free-form object is passed as JSON text`);
    if (values) notes.push(`its values are ${values}s`);
    return jsonText(node, path, ctx, 'object', notes);
  }
  const out: GeminiSchema = { type: Type.OBJECT, properties };
  if (Array.isArray(node.required)) {
    const names = [...new Set(node.required.filter((r): r is string => typeof r === 'string'))];
    const missing = names.filter((r) => !Object.hasOwn(properties, r));
    if (missing.length)
      ctx.warnings.push(`${where(path)}: required ${missing.join(', ')} named no property and was dropped`);
    const required = names.filter((r) => Object.hasOwn(properties, r));
    if (required.length) out.required = required;
  }
  setInt(out, 'minProperties', node.minProperties);
  setInt(out, 'maxProperties', node.maxProperties);
  return { ...out, ...annotations(node, notes, 'object') };
}

/** A union of objects at the root: one object with every property, required only where all agree. */
function mergeObjectBranches(union: GeminiSchema, branches: GeminiSchema[]): GeminiSchema {
  const properties: Record<string, GeminiSchema> = {};
  for (const b of branches) for (const [k, v] of Object.entries(b.properties ?? {})) properties[k] ??= v;
  const required = (branches[0]?.required ?? []).filter((r) =>
    branches.every((b) => b.required?.includes(r)),
  );
  const sets = branches
    .map((b) => (b.required?.length ? b.required.join(' + ') : 'no required arguments'))
    .join('; or ');
  const description = note(union.description ?? '', `give one of these sets of arguments: ${sets}`);
  return { type: Type.OBJECT, properties, ...(required.length ? { required } : {}), description };
}

function inferType(node: JsonNode, values: unknown[] | undefined): string | undefined {
  if (values) return values.every((v) => typeof v === 'string') ? 'string' : undefined;
  if (node.const !== undefined && node.const !== null)
    return typeof node.const === 'object' ? undefined : typeof node.const;
  if (isRecord(node.properties) || node.additionalProperties !== undefined || Array.isArray(node.required))
    return 'object';
  if (node.items !== undefined || node.prefixItems !== undefined) return 'array';
  if (
    typeof node.pattern === 'string' ||
    node.minLength !== undefined ||
    node.maxLength !== undefined ||
    typeof node.format === 'string'
  )
    return 'string';
  if (typeof node.minimum === 'number' || typeof node.maximum === 'number') return 'number';
  return undefined;
}

function isNullSchema(b: unknown): boolean {
  return (
    isRecord(b) &&
    (b.type === 'null' ||
      b.const === null ||
      (Array.isArray(b.enum) && b.enum.length === 1 && b.enum[0] === null))
  );
}

function isLiteral(b: unknown): b is JsonNode {
  return (
    isRecord(b) &&
    (b.const !== undefined || Array.isArray(b.enum)) &&
    !isRecord(b.properties) &&
    b.items === undefined
  );
}

/** Whether a branch says what a value is, rather than only constraining its siblings. */
function isStructural(b: unknown): boolean {
  return (
    isRecord(b) &&
    [
      'type',
      'properties',
      'items',
      'enum',
      'const',
      '$ref',
      'allOf',
      'anyOf',
      'oneOf',
      'format',
      'pattern',
    ].some((k) => b[k] !== undefined)
  );
}

function declaresExtraKeys(schema: JsonNode): boolean {
  return (
    (schema.additionalProperties !== undefined && schema.additionalProperties !== false) ||
    schema.patternProperties !== undefined
  );
}

function asNode(value: unknown): JsonNode {
  return isRecord(value) ? value : {};
}

/** A `type` keyword as a warning shows it (`string,null` for a list, as String() would). */
function typeText(type: unknown): string {
  if (type === undefined || type === null) return 'untyped';
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.map((t) => (typeof t === 'string' ? t : JSON.stringify(t))).join(',');
  return JSON.stringify(type);
}
