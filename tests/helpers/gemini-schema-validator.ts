/**
 * A validator for the function-declaration schema subset the Gemini API (Developer API,
 * generativelanguage v1beta) accepts in `FunctionDeclaration.parameters`. Written from
 * Google's documentation, independently of our converter, so that a converter bug fails a
 * test instead of a person's chat:
 *
 * - FunctionDeclaration and Schema:  https://ai.google.dev/api/caching#FunctionDeclaration
 *   and https://ai.google.dev/api/caching#Schema ("a select subset of an OpenAPI 3.0 schema
 *   object"); the field list mirrors the v1beta proto,
 *   https://docs.cloud.google.com/nodejs/docs/reference/generativelanguage/latest/generativelanguage/protos.google.ai.generativelanguage.v1beta.ischema
 *   (type, format, title, description, nullable, enum, maxItems, minItems, properties,
 *   required, minProperties, maxProperties, minLength, maxLength, pattern, example, anyOf,
 *   propertyOrdering, default, items, minimum, maximum). Any other key is an "Unknown name"
 *   400 from the API.
 * - `format`: NUMBER float|double, INTEGER int32|int64 (Schema.format); for STRING the Gemini
 *   Developer API accepts only `enum` and `date-time`
 *   (https://firebase.google.com/docs/reference/js/ai.schemashared#schemasharedformat:
 *   "When using the Gemini Developer API ... this must be either 'enum' or 'date-time',
 *   otherwise requests will fail").
 * - `enum` is `string[]` in the proto; the API answers "enum: only allowed for STRING type".
 * - `properties`/`required` are "only allowed for OBJECT type", and an OBJECT's properties
 *   "should be non-empty" (API errors quoted in googleapis issue trackers, e.g.
 *   CherryHQ/cherry-studio#3270, anomalyco/opencode#11889). The other type-specific fields
 *   are documented per type ("If type is ARRAY, maxItems ..."); this validator holds them to it.
 * - int64 fields (maxItems, minLength, ...) travel as JSON numbers or decimal strings (proto3
 *   JSON mapping; @google/genai types them as strings).
 * - FunctionDeclaration.name: "Must start with a letter or an underscore. Must be a-z, A-Z,
 *   0-9, or contain underscores, dots, colons and dashes, with a maximum length of 64."
 * - `type` and `anyOf` together are refused by @google/genai's own transformer ("type and
 *   anyOf cannot be both populated"), so a node is either typed or a union.
 */

/** The fields a Gemini `Schema` may carry. */
export const GEMINI_SCHEMA_KEYS: ReadonlySet<string> = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'default',
  'items',
  'minimum',
  'maximum',
]);

/** The data types the subset uses (nullability is the `nullable` flag, never a NULL type). */
export const GEMINI_TYPES: ReadonlySet<string> = new Set([
  'STRING',
  'NUMBER',
  'INTEGER',
  'BOOLEAN',
  'ARRAY',
  'OBJECT',
]);

/** FunctionDeclaration.name as documented. */
export const GEMINI_FUNCTION_NAME = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;

const FORMATS: Record<string, ReadonlySet<string>> = {
  STRING: new Set(['enum', 'date-time']),
  INTEGER: new Set(['int32', 'int64']),
  NUMBER: new Set(['float', 'double']),
};

/** Which type each type-specific field belongs to. */
const ONLY_FOR: Record<string, readonly string[]> = {
  enum: ['STRING'],
  minLength: ['STRING'],
  maxLength: ['STRING'],
  pattern: ['STRING'],
  minimum: ['NUMBER', 'INTEGER'],
  maximum: ['NUMBER', 'INTEGER'],
  items: ['ARRAY'],
  minItems: ['ARRAY'],
  maxItems: ['ARRAY'],
  properties: ['OBJECT'],
  required: ['OBJECT'],
  propertyOrdering: ['OBJECT'],
  minProperties: ['OBJECT'],
  maxProperties: ['OBJECT'],
};

const DECLARATION_KEYS: ReadonlySet<string> = new Set(['name', 'description', 'parameters']);

/** Every violation in one schema node and below; `at` prefixes each message. */
export function validateGeminiSchema(schema: unknown, at = 'parameters'): string[] {
  const errors: string[] = [];
  check(schema, at, errors);
  return errors;
}

/** Every violation in a function declaration: name, description, and the parameters schema. */
export function validateFunctionDeclaration(decl: unknown): string[] {
  if (!isRecord(decl)) return ['declaration: must be an object'];
  const errors: string[] = [];
  for (const key of Object.keys(decl))
    if (!DECLARATION_KEYS.has(key)) errors.push(`${key}: unknown field of FunctionDeclaration`);
  if (typeof decl.name !== 'string' || !GEMINI_FUNCTION_NAME.test(decl.name)) {
    errors.push(`name: ${JSON.stringify(decl.name)} does not match ${GEMINI_FUNCTION_NAME.source}`);
  }
  if (decl.description !== undefined && typeof decl.description !== 'string')
    errors.push('description: must be a string');
  if (decl.parameters !== undefined) {
    if (isRecord(decl.parameters) && decl.parameters.type !== 'OBJECT')
      errors.push('parameters.type: the parameters of a function must be an OBJECT');
    check(decl.parameters, 'parameters', errors);
  }
  return errors;
}

function check(node: unknown, at: string, errors: string[]): void {
  if (!isRecord(node)) {
    errors.push(`${at}: a schema must be an object`);
    return;
  }
  for (const key of Object.keys(node))
    if (!GEMINI_SCHEMA_KEYS.has(key)) errors.push(`${at}.${key}: unknown field of Schema`);

  const type = node.type;
  if (node.anyOf !== undefined) {
    if (type !== undefined) errors.push(`${at}: type and anyOf cannot both be set`);
    if (!Array.isArray(node.anyOf) || node.anyOf.length === 0)
      errors.push(`${at}.anyOf: must be a non-empty array of schemas`);
    else node.anyOf.forEach((branch, i) => check(branch, `${at}.anyOf[${i}]`, errors));
  } else if (typeof type !== 'string' || !GEMINI_TYPES.has(type)) {
    errors.push(`${at}.type: ${JSON.stringify(type)} is not one of ${[...GEMINI_TYPES].join(', ')}`);
  }
  const typeName = typeof type === 'string' ? type : undefined;

  for (const [key, types] of Object.entries(ONLY_FOR)) {
    if (node[key] !== undefined && (!typeName || !types.includes(typeName)))
      errors.push(`${at}.${key}: only allowed for ${types.join('/')} type`);
  }
  for (const key of ['title', 'description', 'pattern'] as const) {
    if (node[key] !== undefined && typeof node[key] !== 'string')
      errors.push(`${at}.${key}: must be a string`);
  }
  if (node.nullable !== undefined && typeof node.nullable !== 'boolean')
    errors.push(`${at}.nullable: must be a boolean`);
  for (const key of [
    'minItems',
    'maxItems',
    'minLength',
    'maxLength',
    'minProperties',
    'maxProperties',
  ] as const) {
    if (node[key] !== undefined && !isInt64(node[key]))
      errors.push(`${at}.${key}: must be a non-negative integer (int64)`);
  }
  for (const key of ['minimum', 'maximum'] as const) {
    if (node[key] !== undefined && (typeof node[key] !== 'number' || !Number.isFinite(node[key])))
      errors.push(`${at}.${key}: must be a number`);
  }
  if (node.format !== undefined) {
    const allowed = typeName ? FORMATS[typeName] : undefined;
    if (typeof node.format !== 'string' || !allowed?.has(node.format)) {
      errors.push(
        `${at}.format: ${JSON.stringify(node.format)} is not supported for ${typeName ?? 'an untyped schema'}${allowed ? ` (use ${[...allowed].join(' or ')})` : ''}`,
      );
    }
  }
  if (node.enum !== undefined) {
    if (!Array.isArray(node.enum) || node.enum.length === 0)
      errors.push(`${at}.enum: must be a non-empty array`);
    else
      node.enum.forEach(
        (v, i) =>
          typeof v !== 'string' && errors.push(`${at}.enum[${i}]: ${JSON.stringify(v)} is not a string`),
      );
  }
  for (const key of ['default', 'example'] as const) {
    if (node[key] !== undefined && !isJsonValue(node[key])) errors.push(`${at}.${key}: must be a JSON value`);
  }

  if (typeName === 'ARRAY') {
    if (node.items === undefined) errors.push(`${at}.items: required for ARRAY type`);
    else check(node.items, `${at}.items`, errors);
  }
  if (typeName === 'OBJECT') checkObject(node, at, errors);
}

function checkObject(node: Record<string, unknown>, at: string, errors: string[]): void {
  const props = node.properties;
  if (!isRecord(props) || Object.keys(props).length === 0) {
    errors.push(`${at}.properties: should be non-empty for OBJECT type`);
    return;
  }
  for (const [name, sub] of Object.entries(props)) check(sub, `${at}.properties.${name}`, errors);
  for (const key of ['required', 'propertyOrdering'] as const) {
    const list = node[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      errors.push(`${at}.${key}: must be an array of property names`);
      continue;
    }
    const seen = new Set<string>();
    for (const entry of list) {
      if (typeof entry !== 'string') errors.push(`${at}.${key}: ${JSON.stringify(entry)} is not a string`);
      else if (!Object.hasOwn(props, entry))
        errors.push(`${at}.${key}: "${entry}" is not a property of this object`);
      else if (seen.has(entry)) errors.push(`${at}.${key}: "${entry}" is listed twice`);
      else seen.add(entry);
    }
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isInt64(value: unknown): boolean {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0;
  return typeof value === 'string' && /^\d{1,18}$/.test(value);
}

function isJsonValue(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isJsonValue);
  if (isRecord(value)) return Object.values(value).every(isJsonValue);
  return false;
}
