/**
 * The renderer's one schema-to-form engine in plain Node: tool schemas, prompt arguments and
 * elicitation fields map onto one model and one draft; the elicitation mode reads drafts the
 * way its card always has (defaults kept, removed defaults sent as "", unreadable text named),
 * and the stricter checks stay with shared/elicitation.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseRequestedSchema, validateElicitContent } from '../../shared/elicitation/elicitation-schema.js';
import { elicitContentOf } from '../../renderer/components/schema-form/elicit-values.js';
import { constraintHint } from '../../renderer/components/schema-form/field-hints.js';
import { argumentsRootOf, elicitRootOf } from '../../renderer/components/schema-form/field-sources.js';
import {
  draftOf,
  fieldDraft,
  setDraftAt,
  valueOf,
  type Draft,
} from '../../renderer/components/schema-form/schema-draft.js';
import { rootFieldOf } from '../../renderer/components/schema-form/schema-model.js';

function parsed(schema: unknown) {
  const p = parseRequestedSchema(schema);
  assert.ok(p.ok, p.ok ? '' : p.error);
  return p.fields;
}

function objectDraft(d: Draft): Extract<Draft, { kind: 'object' }> {
  assert.equal(d.kind, 'object');
  return d;
}

const ELICIT = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 2 },
    nick: { type: 'string', default: 'ada' },
    age: { type: 'integer', minimum: 1, maximum: 100, default: 42 },
    when: { type: 'string', format: 'date-time' },
    ok: { type: 'boolean' },
    colour: { type: 'string', enum: ['r', 'g'], enumNames: ['Red', 'Green'], default: 'g' },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, default: ['a'] },
  },
  required: ['name', 'colour'],
};

test('an elicitation form starts from its defaults, in the engine draft', () => {
  const root = elicitRootOf(parsed(ELICIT));
  const d = objectDraft(draftOf(root, undefined));
  assert.deepEqual(fieldDraft(d, 'name'), { kind: 'text', text: '' });
  assert.deepEqual(fieldDraft(d, 'nick'), { kind: 'text', text: 'ada' });
  assert.deepEqual(fieldDraft(d, 'age'), { kind: 'text', text: '42' });
  assert.deepEqual(fieldDraft(d, 'ok'), { kind: 'bool', value: false, touched: false });
  assert.deepEqual(fieldDraft(d, 'colour'), { kind: 'text', text: 'g' });
  assert.deepEqual(fieldDraft(d, 'tags'), { kind: 'multi', values: ['a'] });
  const colour = root.spec.kind === 'object' ? root.spec.properties[5].spec : null;
  assert.deepEqual(colour?.kind === 'string' && colour.options, [
    { value: 'r', label: 'Red' },
    { value: 'g', label: 'Green' },
  ]);
  assert.equal(colour?.kind === 'string' && colour.blankOption, false, 'required with a default');
});

test('the elicitation mode reads drafts as content; the shared rules check it', () => {
  const fields = parsed(ELICIT);
  const root = elicitRootOf(fields);
  let d = draftOf(root, undefined);
  d = setDraftAt(d, ['nick'], { kind: 'text', text: '' });
  d = setDraftAt(d, ['age'], { kind: 'text', text: 'seven' });
  const first = elicitContentOf(root, d);
  assert.equal(first.unreadable.get('age'), 'must be a number');
  assert.deepEqual(first.content, { nick: '', colour: 'g', tags: ['a'] }, 'a removed default is sent as ""');
  const check = validateElicitContent(fields, first.content);
  assert.ok(!check.ok && /required/.test(check.errors.name ?? ''));

  d = setDraftAt(d, ['name'], { kind: 'text', text: 'Ada' });
  d = setDraftAt(d, ['age'], { kind: 'text', text: ' 7 ' });
  d = setDraftAt(d, ['ok'], { kind: 'bool', value: false, touched: true });
  d = setDraftAt(d, ['when'], { kind: 'text', text: '2026-01-02T03:04' });
  const second = elicitContentOf(root, d);
  assert.equal(second.unreadable.size, 0);
  assert.equal(second.content.age, 7);
  assert.equal(second.content.ok, false, 'a touched optional boolean is answered');
  assert.equal(second.content.when, new Date('2026-01-02T03:04').toISOString());
  assert.ok(validateElicitContent(fields, second.content).ok);
});

test('a field called "__proto__" stays a plain field', () => {
  const fields = parsed(JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}'));
  const root = elicitRootOf(fields);
  const d = setDraftAt(draftOf(root, undefined), ['__proto__'], { kind: 'text', text: 'x' });
  const { content } = elicitContentOf(root, d);
  assert.ok(Object.prototype.hasOwnProperty.call(content, '__proto__'));
  assert.equal(Object.getPrototypeOf(content), Object.prototype);
});

test('the elicitation help line names the limits', () => {
  const root = elicitRootOf(parsed(ELICIT));
  const specs = root.spec.kind === 'object' ? root.spec.properties.map((p) => p.spec) : [];
  assert.deepEqual(specs.map(constraintHint), [
    'at least 2 characters',
    '',
    'whole number, 1–100',
    '',
    '',
    '',
    '',
  ]);
});

test('prompt arguments are plain text fields of the same model', () => {
  const root = argumentsRootOf([
    { name: 'city', label: 'City', description: 'where', required: true },
    { name: 'unit', label: 'unit', required: false },
  ]);
  assert.ok(root.spec.kind === 'object');
  assert.deepEqual(
    root.spec.properties.map((p) => [p.name, p.title, p.required, p.spec.kind]),
    [
      ['city', 'City', true, 'string'],
      ['unit', 'unit', false, 'string'],
    ],
  );
  const r = valueOf(root, setDraftAt(draftOf(root, undefined), ['city'], { kind: 'text', text: 'Paris' }));
  assert.deepEqual(r, { ok: true, value: { city: 'Paris' } });
});

test('tool arguments keep their own messages and string enums', () => {
  const root = rootFieldOf({
    type: 'object',
    properties: { mode: { enum: ['a', 'b'] }, n: { type: 'integer', maximum: 3 } },
    required: ['mode'],
  });
  let d = draftOf(root, undefined);
  assert.deepEqual(valueOf(root, d), { ok: false, errors: [{ path: 'mode', message: 'required' }] });
  d = setDraftAt(d, ['mode'], { kind: 'text', text: 'b' });
  d = setDraftAt(d, ['n'], { kind: 'text', text: '4' });
  assert.deepEqual(valueOf(root, d), { ok: false, errors: [{ path: 'n', message: 'must be at most 3' }] });
  d = setDraftAt(d, ['n'], { kind: 'text', text: '2' });
  assert.deepEqual(valueOf(root, d), { ok: true, value: { mode: 'b', n: 2 } });
});
