/**
 * Model-facing tool names: valid for Gemini and OpenAI, reversible, deterministic.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  isValidToolName,
  qualifiedNameOf,
  qualifyToolNames,
  type ToolOrigin,
} from '../../electron/host/chat/tool-names.js';

const GEMINI = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;
const OPENAI = /^[a-zA-Z0-9_-]{1,64}$/;

function assertAllValid(names: Map<string, ToolOrigin>): void {
  for (const name of names.keys()) {
    assert.match(name, GEMINI, `${name} is a valid Gemini name`);
    assert.match(name, OPENAI, `${name} is a valid OpenAI name`);
    assert.ok(isValidToolName(name));
  }
}

describe('qualifyToolNames', () => {
  it('forms server__tool for ordinary names', () => {
    const names = qualifyToolNames([
      { serverId: 'fs', name: 'read_file' },
      { serverId: 'everything', name: 'get-sum' },
    ]);
    assert.deepEqual([...names.keys()], ['everything__get-sum', 'fs__read_file']);
    assert.deepEqual(names.get('fs__read_file'), { serverId: 'fs', tool: 'read_file' });
    assertAllValid(names);
  });

  it('sanitises dots, colons, spaces, unicode and a leading digit', () => {
    const tools = [
      { serverId: 'my.server', name: 'ns:tool name' },
      { serverId: '9lives', name: 'x' },
      { serverId: 'café', name: 'überprüfen' },
      { serverId: 'emoji', name: '🚀launch' },
    ];
    const names = qualifyToolNames(tools);
    assertAllValid(names);
    assert.equal(qualifiedNameOf(names, 'my.server', 'ns:tool name'), 'my_server__ns_tool_name');
    assert.equal(qualifiedNameOf(names, '9lives', 'x'), '_9lives__x');
    assert.equal(qualifiedNameOf(names, 'café', 'überprüfen'), 'caf____berpr_fen');
    // One underscore per code point, not per UTF-16 unit.
    assert.equal(qualifiedNameOf(names, 'emoji', '🚀launch'), 'emoji___launch');
    assert.equal(names.size, tools.length);
  });

  it('truncates a name over 64 characters and appends a stable hash', () => {
    const long = 'a_really_long_tool_name_that_goes_on_and_on_and_on_well_past_the_limit';
    const names = qualifyToolNames([{ serverId: 'server', name: long }]);
    const [name] = [...names.keys()];
    assert.ok(name);
    assert.equal(name.length, 64);
    assert.match(name, /^server__a_really_long_tool_name_.*_[0-9a-f]{8}$/);
    assertAllValid(names);
    assert.deepEqual(names.get(name), { serverId: 'server', tool: long });
    // Same input, same name (a later turn must address the same tool).
    assert.equal([...qualifyToolNames([{ serverId: 'server', name: long }]).keys()][0], name);
  });

  it('gives two long names sharing a 64-character prefix different names', () => {
    const prefix = 'x'.repeat(70);
    const names = qualifyToolNames([
      { serverId: 's', name: `${prefix}_one` },
      { serverId: 's', name: `${prefix}_two` },
    ]);
    assert.equal(names.size, 2);
    assertAllValid(names);
  });

  it('resolves collisions after sanitising with a hash on every member', () => {
    const tools = [
      { serverId: 'a', name: 'get.item' },
      { serverId: 'a', name: 'get:item' },
      { serverId: 'a', name: 'get_item' },
    ];
    const names = qualifyToolNames(tools);
    assert.equal(names.size, 3);
    assertAllValid(names);
    for (const t of tools) {
      const q = qualifiedNameOf(names, t.serverId, t.name);
      assert.ok(q, `${t.name} has a name`);
      assert.match(q, /^a__get_item_[0-9a-f]{8}$/, 'no member keeps the bare colliding name');
      assert.deepEqual(names.get(q), { serverId: 'a', tool: t.name });
    }
  });

  it('separates servers whose ids differ only in characters that get sanitised', () => {
    const names = qualifyToolNames([
      { serverId: 'my.server', name: 'run' },
      { serverId: 'my_server', name: 'run' },
    ]);
    assert.equal(names.size, 2);
    assert.notEqual(qualifiedNameOf(names, 'my.server', 'run'), qualifiedNameOf(names, 'my_server', 'run'));
  });

  it('does not let a hashed name steal a tool literally named like it', () => {
    const first = qualifyToolNames([
      { serverId: 'a', name: 'x.y' },
      { serverId: 'a', name: 'x:y' },
    ]);
    const hashed = qualifiedNameOf(first, 'a', 'x.y')!;
    const literal = hashed.slice('a__'.length);
    const names = qualifyToolNames([
      { serverId: 'a', name: 'x.y' },
      { serverId: 'a', name: 'x:y' },
      { serverId: 'a', name: literal },
    ]);
    assert.equal(names.size, 3);
    assert.equal(qualifiedNameOf(names, 'a', literal), hashed, 'the literal name keeps its plain form');
    assert.notEqual(qualifiedNameOf(names, 'a', 'x.y'), hashed);
  });

  it('is independent of input order and folds duplicates', () => {
    const tools = [
      { serverId: 'b', name: 't.1' },
      { serverId: 'a', name: 't' },
      { serverId: 'b', name: 't:1' },
      { serverId: 'c', name: 'z'.repeat(80) },
    ];
    const forward = [...qualifyToolNames(tools)];
    const reversed = [...qualifyToolNames([...tools].reverse())];
    const doubled = [...qualifyToolNames([...tools, ...tools])];
    assert.deepEqual(reversed, forward);
    assert.deepEqual(doubled, forward);
  });

  it('maps back and forth for every tool', () => {
    const tools = Array.from({ length: 50 }, (_, i) => ({
      serverId: `srv${i % 3}`,
      name: `tool.${i % 7}:${'q'.repeat(i)}`,
    }));
    const names = qualifyToolNames(tools);
    assertAllValid(names);
    const unique = new Set(tools.map((t) => `${t.serverId}/${t.name}`));
    assert.equal(names.size, unique.size);
    for (const t of tools) {
      const q = qualifiedNameOf(names, t.serverId, t.name);
      assert.ok(q);
      assert.deepEqual(names.get(q), { serverId: t.serverId, tool: t.name });
    }
    assert.equal(qualifiedNameOf(names, 'nope', 'nope'), undefined);
  });
});
