import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import serverSchema from './server.schema.draft.json' with { type: 'json' };
import type { ServerJson } from './server-json.js';

/**
 * Validation of a `server.json` against the registry's published JSON Schema. No npm package
 * ships that schema, so a copy lives beside this file (server.schema.draft.json): the registry
 * repository's draft as of commit 13760d0, which is the 2025-12-11 release plus one relaxation
 * (transport URLs may start with a `{variable}`). Keeping the copy means validation works
 * offline and cannot change under us; docs/bundles-and-registry.md#registry-and-install-links says
 * where it came from and when.
 */
export const SERVER_SCHEMA_SOURCE = {
  url: 'https://github.com/modelcontextprotocol/registry/blob/13760d02395eed4195a90c80c511aa6a93b33028/docs/reference/server-json/draft/server.schema.json',
  basedOn: '2025-12-11',
  copied: '2026-11-24',
} as const;

/** Most problems listed for one document: the first few say what is wrong. */
const MAX_PROBLEMS = 20;

let compiled: ReturnType<Ajv2020['compile']> | undefined;

function validator(): ReturnType<Ajv2020['compile']> {
  if (compiled) return compiled;
  // Not strict: the generated schema carries OpenAPI's `example` and `required` lists inside
  // anyOf branches that Ajv's strict mode flags; both are valid JSON Schema, and ignored.
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  compiled = ajv.compile(serverSchema);
  return compiled;
}

/** The outcome of validating one document. */
export type SchemaCheck = { ok: true; value: ServerJson } | { ok: false; problems: string[] };

/** Validate a parsed server.json; each problem is one sentence naming where it is. */
export function checkServerJson(value: unknown): SchemaCheck {
  const validate = validator();
  if (validate(value)) return { ok: true, value: value as ServerJson };
  return { ok: false, problems: describeErrors(validate.errors ?? []) };
}

/** Ajv's errors as sentences: "packages[0].version: must not be "latest"". */
export function describeErrors(errors: readonly ErrorObject[]): string[] {
  const out: string[] = [];
  for (const e of errors) {
    // anyOf/allOf wrappers repeat what their branches already said.
    if (e.keyword === 'anyOf' || e.keyword === 'allOf' || e.keyword === 'if') continue;
    const line = `${where(e.instancePath)}: ${sentence(e)}`;
    if (!out.includes(line)) out.push(line);
    if (out.length >= MAX_PROBLEMS) break;
  }
  return out.length ? out : ['the document does not match the server.json schema'];
}

function where(pointer: string): string {
  if (!pointer) return 'the document';
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

function sentence(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return `"${String(p.missingProperty)}" is required`;
    case 'type':
      return `must be ${article(String(p.type))}`;
    case 'enum':
      return `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'not':
      return 'has a value that is not allowed here (a version must be exact, not "latest")';
    case 'pattern':
      return `does not have the expected form (${String(p.pattern)})`;
    case 'format':
      return `must be a valid ${String(p.format)}`;
    case 'maxLength':
      return `must be at most ${String(p.limit)} characters`;
    case 'minLength':
      return `must be at least ${String(p.limit)} characters`;
    default:
      return e.message ?? 'is not valid';
  }
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
