/**
 * MCP input schemas -> Gemini function-declaration parameters. Every tool of the reference
 * servers (started for real over stdio) and every schema in tests/fixtures/schemas/tricky.json
 * must convert into a declaration the documented subset accepts, without losing `required`.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Type } from '@google/genai';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import {
  applyArgFixes,
  toGeminiParameters,
  type GeminiSchema,
} from '../../electron/host/chat/providers/gemini/gemini-schema.js';
import { inlineRefs } from '../../electron/host/schema/json-schema-refs.js';
import { qualifyToolNames } from '../../electron/host/chat/tool-names.js';
import type { JsonSchema } from '../../shared/domain/mcp-types.js';
import { validateFunctionDeclaration } from '../helpers/gemini-schema-validator.js';

interface FixtureTool {
  name: string;
  inputSchema: JsonSchema;
  mustRequire: string[];
}

const MODULES = join(import.meta.dirname, '../../node_modules/@modelcontextprotocol');
const SERVERS = {
  everything: join(MODULES, 'server-everything/dist/index.js'),
  filesystem: join(MODULES, 'server-filesystem/dist/index.js'),
};

const tricky = JSON.parse(
  readFileSync(join(import.meta.dirname, '../fixtures/schemas/tricky.json'), 'utf8'),
) as { tools: FixtureTool[] };

async function listTools(
  args: string[],
): Promise<{ name: string; description?: string; inputSchema: JsonSchema }[]> {
  const client = new Client({ name: 'gemini-schema-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args, stderr: 'pipe' }));
  try {
    const tools: { name: string; description?: string; inputSchema: JsonSchema }[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  } finally {
    await client.close();
  }
}

/** The schema at a dotted path of properties (arrays stepped through `items`). */
function at(schema: GeminiSchema | undefined, path: string[]): GeminiSchema | undefined {
  let cur = schema;
  for (const key of path) {
    while (cur?.type === Type.ARRAY) cur = cur.items;
    cur = cur?.properties?.[key];
  }
  return cur;
}

/** Every `a.b.c` that the source schema requires, following plain properties and items. */
function requiredPaths(schema: unknown, prefix: string[] = []): string[][] {
  if (typeof schema !== 'object' || schema === null) return [];
  const s = schema as { properties?: Record<string, unknown>; required?: unknown; items?: unknown };
  const out: string[][] = [];
  if (s.items) out.push(...requiredPaths(s.items, prefix));
  for (const [name, sub] of Object.entries(s.properties ?? {}))
    out.push(...requiredPaths(sub, [...prefix, name]));
  if (Array.isArray(s.required))
    for (const r of s.required)
      if (typeof r === 'string' && s.properties && r in s.properties) out.push([...prefix, r]);
  return out;
}

function assertRequired(parameters: GeminiSchema | undefined, path: string[], label: string): void {
  const parent = at(parameters, path.slice(0, -1));
  const holder = parent?.type === Type.ARRAY ? parent.items : parent;
  assert.ok(
    holder?.required?.includes(path.at(-1)!),
    `${label}: ${path.join('.')} stays required (got ${JSON.stringify(holder?.required)})`,
  );
}

describe('gemini schema conversion', { timeout: 60_000 }, () => {
  const serverTools: { server: string; name: string; description?: string; inputSchema: JsonSchema }[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'gemini-schema-fs-'));

  before(async () => {
    for (const t of await listTools([SERVERS.everything, 'stdio']))
      serverTools.push({ server: 'everything', ...t });
    for (const t of await listTools([SERVERS.filesystem, dir]))
      serverTools.push({ server: 'filesystem', ...t });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('converts every tool of server-everything and server-filesystem into a valid declaration', () => {
    assert.ok(
      serverTools.filter((t) => t.server === 'everything').length >= 10,
      'server-everything listed its tools',
    );
    assert.ok(
      serverTools.filter((t) => t.server === 'filesystem').length >= 10,
      'server-filesystem listed its tools',
    );
    const names = qualifyToolNames(serverTools.map((t) => ({ serverId: t.server, name: t.name })));
    for (const [qualified, origin] of names) {
      const tool = serverTools.find((t) => t.server === origin.serverId && t.name === origin.tool)!;
      const { parameters, warnings } = toGeminiParameters(tool.inputSchema);
      const errors = validateFunctionDeclaration({
        name: qualified,
        description: tool.description ?? '',
        ...(parameters ? { parameters } : {}),
      });
      assert.deepEqual(errors, [], `${qualified}: ${JSON.stringify(parameters)}`);
      assert.deepEqual(warnings, [], `${qualified} converts without loss`);
      for (const path of requiredPaths(tool.inputSchema)) assertRequired(parameters, path, qualified);
    }
  });

  it('keeps the shape of a nested array of objects (filesystem edit_file)', () => {
    const edit = serverTools.find((t) => t.name === 'edit_file');
    assert.ok(edit);
    const { parameters } = toGeminiParameters(edit.inputSchema);
    const edits = at(parameters, ['edits']);
    assert.equal(edits?.type, 'ARRAY');
    assert.equal(edits?.items?.type, 'OBJECT');
    assert.deepEqual(edits?.items?.required, ['oldText', 'newText']);
    assert.equal(at(parameters, ['dryRun'])?.default, false);
  });

  it('gives tools without arguments no parameters (Gemini rejects an OBJECT without properties)', () => {
    const env = serverTools.find((t) => t.name === 'get-env');
    assert.ok(env);
    assert.equal(toGeminiParameters(env.inputSchema).parameters, undefined);
    assert.equal(toGeminiParameters(undefined).parameters, undefined);
    assert.equal(toGeminiParameters({}).parameters, undefined);
  });

  it('converts every tricky fixture schema into a valid declaration, keeping required', () => {
    const names = qualifyToolNames(tricky.tools.map((t) => ({ serverId: 'tricky', name: t.name })));
    assert.equal(names.size, tricky.tools.length);
    for (const [qualified, origin] of names) {
      const tool = tricky.tools.find((t) => t.name === origin.tool)!;
      const { parameters } = toGeminiParameters(tool.inputSchema);
      const errors = validateFunctionDeclaration({
        name: qualified,
        description: `fixture ${tool.name}`,
        ...(parameters ? { parameters } : {}),
      });
      assert.deepEqual(errors, [], `${tool.name}: ${JSON.stringify(parameters)}`);
      for (const path of tool.mustRequire) assertRequired(parameters, path.split('.'), tool.name);
      if (tool.name.length > 64) assert.ok(qualified.length <= 64, 'the long tool name was shortened');
    }
  });

  const fixture = (name: string) => {
    const tool = tricky.tools.find((t) => t.name === name);
    assert.ok(tool, name);
    return toGeminiParameters(tool.inputSchema);
  };

  it('inlines $defs/definitions refs', () => {
    const { parameters } = fixture('defs_and_refs');
    assert.equal(at(parameters, ['home', 'country'])?.type, 'STRING');
    assert.deepEqual(at(parameters, ['home', 'country'])?.enum, ['NL', 'FR', 'DE']);
    assert.equal(at(parameters, ['home'])?.description, 'Where the person lives', 'a sibling of $ref wins');
    assert.equal(at(parameters, ['previous'])?.items?.type, 'OBJECT');
    assert.equal(at(parameters, ['previous'])?.maxItems, '5');
    assert.equal(JSON.stringify(parameters).includes('"$ref"'), false);
    const { parameters: d7 } = fixture('draft07_definitions');
    assert.equal(at(d7, ['ids'])?.items?.type, 'INTEGER');
    assert.equal(at(d7, ['ids'])?.items?.format, 'int64');
  });

  it('turns null unions into nullable', () => {
    const { parameters } = fixture('nullable_unions');
    for (const key of ['a', 'b', 'c', 'd', 'f']) assert.equal(at(parameters, [key])?.nullable, true, key);
    assert.equal(at(parameters, ['a'])?.type, 'STRING');
    assert.equal(at(parameters, ['b'])?.type, 'INTEGER');
    assert.equal(at(parameters, ['c'])?.type, 'OBJECT');
    assert.deepEqual(at(parameters, ['f'])?.enum, ['on', 'off']);
    const e = at(parameters, ['e']);
    assert.deepEqual(
      e?.anyOf?.map((b) => b.type),
      ['STRING', 'NUMBER'],
    );
    assert.equal(e?.type, undefined, 'never type beside anyOf');
  });

  it('keeps real unions as anyOf, folds literal unions into an enum, flattens nested unions', () => {
    const { parameters, warnings } = fixture('any_and_one_of');
    assert.deepEqual(
      at(parameters, ['target'])?.anyOf?.map((b) => b.type),
      ['STRING', 'OBJECT'],
    );
    assert.match(at(parameters, ['target'])?.anyOf?.[0]?.description ?? '', /format: uri/);
    assert.deepEqual(at(parameters, ['mode'])?.enum, ['fast', 'slow']);
    assert.match(at(parameters, ['mode'])?.description ?? '', /Quick.*Thorough/);
    assert.deepEqual(
      at(parameters, ['nested'])?.anyOf?.map((b) => b.type),
      ['STRING', 'BOOLEAN', 'INTEGER'],
    );
    assert.deepEqual(at(parameters, ['shape'])?.required, ['kind']);
    assert.ok(
      warnings.some((w) => w.startsWith('shape:')),
      'dropped oneOf constraints are reported',
    );
  });

  it('merges allOf and makes exclusive bounds inclusive', () => {
    const { parameters } = fixture('all_of_merge');
    assert.deepEqual(at(parameters, ['item'])?.required?.sort(), ['name', 'price']);
    assert.equal(at(parameters, ['item', 'price'])?.minimum, 0);
    assert.match(at(parameters, ['item', 'price'])?.description ?? '', /greater than 0/);
    const { parameters: c } = fixture('const_and_enums');
    assert.equal(at(c, ['count'])?.minimum, 1);
    assert.equal(at(c, ['count'])?.maximum, 99);
    assert.equal(at(c, ['legacy'])?.minimum, 0);
  });

  it('turns const into a one-value enum and non-string enums into text, mapping the answer back', () => {
    const { parameters, argFixes } = fixture('const_and_enums');
    assert.deepEqual(at(parameters, ['version'])?.enum, ['v2']);
    assert.equal(at(parameters, ['confirm'])?.type, 'BOOLEAN');
    assert.match(at(parameters, ['confirm'])?.description ?? '', /must be true/);
    assert.deepEqual(at(parameters, ['level'])?.enum, ['1', '2', '3']);
    assert.equal(at(parameters, ['level'])?.default, '2');
    assert.deepEqual(at(parameters, ['ratio'])?.enum, ['0.5', '1', 'auto']);
    const fixed = applyArgFixes(
      { version: 'v2', level: '3', ratio: 'auto', flag: 'false', other: 'x' },
      argFixes,
    );
    assert.deepEqual(fixed, { version: 'v2', level: 3, ratio: 'auto', flag: false, other: 'x' });
  });

  it('passes free-form objects and untyped values as JSON text and parses them back', () => {
    const { parameters, argFixes, warnings } = fixture('free_form_and_unsupported');
    for (const key of ['metadata', 'config', 'headers', 'anything'])
      assert.equal(at(parameters, [key])?.type, 'STRING', key);
    assert.match(at(parameters, ['metadata'])?.description ?? '', /JSON object/);
    assert.equal(at(parameters, ['tags'])?.items?.type, 'STRING');
    assert.deepEqual(
      parameters?.required,
      ['metadata', 'code'],
      'the required entry naming no property is gone',
    );
    assert.ok(warnings.some((w) => /ghost/.test(w)));
    assert.equal(at(parameters, ['when'])?.format, 'date-time');
    assert.equal(at(parameters, ['when'])?.example, '2024-01-01T00:00:00Z');
    assert.equal(
      at(parameters, ['email'])?.format,
      undefined,
      'email is not a format the Developer API takes',
    );
    assert.equal(at(parameters, ['email'])?.pattern, undefined, 'a lookahead is not RE2');
    assert.match(at(parameters, ['email'])?.description ?? '', /\(\?!admin@\)/);
    assert.equal(at(parameters, ['code'])?.pattern, '^[A-Z]{3}$');
    assert.equal(at(parameters, ['size'])?.format, 'double');
    const fixed = applyArgFixes(
      {
        metadata: '{"a":"b"}',
        config: 'not json',
        anything: '[1,2]',
        tags: ['"x"', '{"y":1}', 'plain'],
        code: 'ABC',
      },
      argFixes,
    );
    assert.deepEqual(fixed, {
      metadata: { a: 'b' },
      config: 'not json',
      anything: [1, 2],
      tags: ['x', { y: 1 }, 'plain'],
      code: 'ABC',
    });
  });

  it('stops at recursive refs with a note instead of recursing', () => {
    const { parameters, argFixes, warnings } = fixture('recursive_tree');
    assert.equal(at(parameters, ['tree', 'label'])?.type, 'STRING');
    const child = at(parameters, ['tree', 'children'])?.items;
    assert.equal(child?.type, 'STRING');
    assert.match(child?.description ?? '', /same structure as its parent/);
    assert.equal(at(parameters, ['tree', 'parent'])?.type, 'STRING', 'a ref to the root is recursion too');
    assert.ok(warnings.some((w) => /recursive reference #\/\$defs\/node/.test(w)));
    assert.ok(warnings.some((w) => /unresolvable reference https:/.test(w)));
    const fixed = applyArgFixes({ tree: { label: 'root', children: ['{"label":"leaf"}'] } }, argFixes);
    assert.deepEqual(fixed, { tree: { label: 'root', children: [{ label: 'leaf' }] } });
  });

  it('merges a root union of objects into one object', () => {
    const { parameters } = fixture('root_union');
    assert.equal(parameters?.type, 'OBJECT');
    assert.deepEqual(Object.keys(parameters?.properties ?? {}).sort(), ['id', 'name', 'verbose']);
    assert.deepEqual(parameters?.required, ['verbose']);
    assert.match(parameters?.description ?? '', /id \+ verbose; or name \+ verbose/);
  });

  it('inlineRefs gives plain JSON Schema for APIs that do not resolve refs', () => {
    const tool = tricky.tools.find((t) => t.name === 'recursive_tree')!;
    const { schema, warnings } = inlineRefs(tool.inputSchema);
    const text = JSON.stringify(schema);
    assert.equal(text.includes('"$ref"'), false);
    assert.equal(text.includes('"$defs"'), false);
    assert.ok(warnings.some((w) => /recursive reference/.test(w)));
    const tree = (
      schema.properties as Record<
        string,
        { properties: Record<string, { type: string; items?: { type: string } }> }
      >
    ).tree;
    assert.equal(tree.properties.label?.type, 'string');
    assert.equal(tree.properties.children?.items?.type, 'object');
  });
});
