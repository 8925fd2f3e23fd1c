import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseCliArgs } from '../../electron/headless/cli-args.js';
import { sampleArguments } from '../../electron/headless/sample-args.js';
import { schemaDefaults } from '../../electron/host/elicitation/schema-defaults.js';

test('options are accepted before or after the subcommand', () => {
  const a = parseCliArgs(['--config', 'f.json', 'call', 'srv', 'echo', '{"m":1}', '--json']);
  const b = parseCliArgs(['call', 'srv', '--json', 'echo', '--config=f.json', '{"m":1}']);
  for (const p of [a, b]) {
    assert.equal(p.command, 'call');
    assert.deepEqual(p.positionals, ['srv', 'echo', '{"m":1}']);
    assert.equal(p.config, 'f.json');
    assert.equal(p.json, true);
  }
});

test('bad options fail with a one-line reason', () => {
  assert.throws(() => parseCliArgs(['servers', '--config']), /--config needs a value/);
  assert.throws(() => parseCliArgs(['servers', '--nope']), /unknown option --nope/);
  assert.throws(() => parseCliArgs(['browser', '--port', 'x']), /--port must be a non-negative integer/);
});

test('everything after -- is positional', () => {
  assert.deepEqual(parseCliArgs(['call', 's', 't', '--', '--json']).positionals, ['s', 't', '--json']);
});

test('elicitation defaults come from each property default (SEP-1034)', () => {
  assert.deepEqual(
    schemaDefaults({
      type: 'object',
      properties: {
        name: { type: 'string', default: 'John' },
        age: { type: 'integer', default: 30 },
        x: { type: 'string' },
      },
    }),
    { name: 'John', age: 30 },
  );
  assert.deepEqual(schemaDefaults(null), {});
});

test('sample arguments fill required fields with typed values and keep defaults', () => {
  assert.deepEqual(
    sampleArguments({
      type: 'object',
      properties: {
        a: { type: 'number' },
        b: { type: 'integer', minimum: 5 },
        c: { type: 'string', enum: ['x', 'y'] },
        d: { type: 'string', default: 'z' },
        e: { type: 'string' },
      },
      required: ['a', 'b', 'c'],
    }),
    { a: 1, b: 5, c: 'x', d: 'z' },
  );
});
