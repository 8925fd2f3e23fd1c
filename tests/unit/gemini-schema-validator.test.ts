/**
 * Self-tests of the Gemini schema-subset validator: it must be able to fail, or the
 * conversion tests that lean on it prove nothing.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateFunctionDeclaration, validateGeminiSchema } from '../helpers/gemini-schema-validator.js';

const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'OBJECT',
  properties,
  ...extra,
});
const decl = (parameters: unknown, name = 'tool') => ({ name, description: 'd', parameters });

function rejects(schema: unknown, pattern: RegExp): void {
  const errors = validateFunctionDeclaration(decl(schema));
  assert.ok(
    errors.some((e) => pattern.test(e)),
    `expected an error matching ${pattern}, got ${JSON.stringify(errors)}`,
  );
}

describe('gemini schema validator', () => {
  it('accepts a declaration that uses the whole subset', () => {
    const schema = obj(
      {
        s: {
          type: 'STRING',
          format: 'date-time',
          title: 'T',
          description: 'D',
          nullable: true,
          minLength: '1',
          maxLength: 5,
          pattern: '^a',
          example: 'a',
          default: 'a',
        },
        e: { type: 'STRING', format: 'enum', enum: ['a', 'b'] },
        n: { type: 'NUMBER', format: 'double', minimum: 0, maximum: 1.5 },
        i: { type: 'INTEGER', format: 'int64' },
        b: { type: 'BOOLEAN' },
        a: { type: 'ARRAY', items: { type: 'STRING' }, minItems: 1, maxItems: '3' },
        o: obj(
          { x: { type: 'STRING' } },
          { required: ['x'], minProperties: 1, maxProperties: 2, propertyOrdering: ['x'] },
        ),
        u: { anyOf: [{ type: 'STRING' }, { type: 'INTEGER' }], nullable: true, description: 'either' },
      },
      { required: ['s', 'u'] },
    );
    assert.deepEqual(validateFunctionDeclaration(decl(schema)), []);
    assert.deepEqual(validateFunctionDeclaration({ name: 'no_params', description: 'x' }), []);
  });

  it('rejects unknown keys, at any depth', () => {
    rejects(
      obj({ a: { type: 'STRING' } }, { additionalProperties: false }),
      /^parameters\.additionalProperties: unknown field/,
    );
    rejects(obj({ a: { type: 'STRING', $ref: '#/x' } }), /properties\.a\.\$ref: unknown field/);
    rejects(
      obj({ a: { type: 'ARRAY', items: { type: 'STRING', const: 'x' } } }),
      /properties\.a\.items\.const: unknown field/,
    );
    rejects(
      obj({ a: { type: 'STRING' } }, { $schema: 'http://json-schema.org/draft-07/schema#' }),
      /\$schema: unknown field/,
    );
  });

  it('rejects bad type names, lowercase JSON Schema types and a NULL type', () => {
    rejects(obj({ a: { type: 'string' } }), /properties\.a\.type: "string" is not one of/);
    rejects(obj({ a: { type: 'NULL' } }), /properties\.a\.type: "NULL"/);
    rejects(obj({ a: { type: ['STRING', 'NULL'] } }), /properties\.a\.type/);
    rejects(obj({ a: { description: 'untyped' } }), /properties\.a\.type: undefined/);
    rejects({ type: 'STRING' }, /parameters\.type: the parameters of a function must be an OBJECT/);
  });

  it('rejects wrong value types', () => {
    rejects(obj({ a: { type: 'STRING', nullable: 'yes' } }), /nullable: must be a boolean/);
    rejects(
      obj({ a: { type: 'ARRAY', items: { type: 'STRING' }, minItems: -1 } }),
      /minItems: must be a non-negative integer/,
    );
    rejects(obj({ a: { type: 'STRING', maxLength: 2.5 } }), /maxLength: must be a non-negative integer/);
    rejects(obj({ a: { type: 'NUMBER', minimum: '0' } }), /minimum: must be a number/);
    rejects(obj({ a: { type: 'STRING', description: 3 } }), /description: must be a string/);
    rejects(obj({ a: { type: 'STRING', default: () => 1 } }), /default: must be a JSON value/);
  });

  it('rejects non-string enums and enums on non-STRING types', () => {
    rejects(obj({ a: { type: 'STRING', enum: ['a', 1] } }), /enum\[1\]: 1 is not a string/);
    rejects(
      obj({ a: { type: 'INTEGER', enum: ['1', '2'] } }),
      /properties\.a\.enum: only allowed for STRING type/,
    );
    rejects(obj({ a: { type: 'STRING', enum: [] } }), /enum: must be a non-empty array/);
  });

  it('rejects formats the Developer API refuses', () => {
    rejects(obj({ a: { type: 'STRING', format: 'uri' } }), /format: "uri" is not supported for STRING/);
    rejects(
      obj({ a: { type: 'INTEGER', format: 'double' } }),
      /format: "double" is not supported for INTEGER/,
    );
    rejects(obj({ a: { type: 'BOOLEAN', format: 'enum' } }), /format: "enum" is not supported for BOOLEAN/);
  });

  it('rejects required entries that name no property, and object-only fields elsewhere', () => {
    rejects(
      obj({ a: { type: 'STRING' } }, { required: ['a', 'b'] }),
      /^parameters\.required: "b" is not a property/,
    );
    rejects(
      obj({ a: obj({ x: { type: 'STRING' } }, { required: ['y'] }) }),
      /properties\.a\.required: "y" is not a property/,
    );
    rejects(
      obj({ a: { type: 'STRING', required: ['x'] } }),
      /properties\.a\.required: only allowed for OBJECT/,
    );
    rejects(
      obj({ a: { type: 'STRING', properties: { x: { type: 'STRING' } } } }),
      /properties\.a\.properties: only allowed for OBJECT/,
    );
    rejects(
      obj({ a: { type: 'STRING' } }, { propertyOrdering: ['a', 'z'] }),
      /propertyOrdering: "z" is not a property/,
    );
  });

  it('rejects objects without properties and arrays without items', () => {
    rejects(obj({}), /^parameters\.properties: should be non-empty for OBJECT type/);
    rejects(obj({ meta: { type: 'OBJECT' } }), /properties\.meta\.properties: should be non-empty/);
    rejects(obj({ list: { type: 'ARRAY' } }), /properties\.list\.items: required for ARRAY type/);
    rejects(
      obj({ s: { type: 'STRING', items: { type: 'STRING' } } }),
      /properties\.s\.items: only allowed for ARRAY/,
    );
  });

  it('rejects type beside anyOf, empty anyOf, and bad branches', () => {
    rejects(
      obj({ u: { type: 'STRING', anyOf: [{ type: 'STRING' }] } }),
      /properties\.u: type and anyOf cannot both be set/,
    );
    rejects(obj({ u: { anyOf: [] } }), /properties\.u\.anyOf: must be a non-empty array/);
    rejects(obj({ u: { anyOf: [{ type: 'string' }] } }), /properties\.u\.anyOf\[0\]\.type/);
  });

  it('checks the function name', () => {
    const bad = ['1starts_with_digit', 'has space', 'x'.repeat(65), '', 'émoji'];
    for (const name of bad)
      assert.ok(
        validateFunctionDeclaration(decl(undefined, name)).some((e) => e.startsWith('name:')),
        name,
      );
    for (const name of ['_ok', 'a.b:c-d', 'x'.repeat(64)])
      assert.deepEqual(validateFunctionDeclaration(decl(undefined, name)), [], name);
    assert.deepEqual(validateFunctionDeclaration({ name: 'x', behavior: 'BLOCKING' }), [
      'behavior: unknown field of FunctionDeclaration',
    ]);
  });

  it('validates a bare schema too', () => {
    assert.deepEqual(validateGeminiSchema({ type: 'STRING' }, 'root'), []);
    assert.deepEqual(validateGeminiSchema('STRING', 'root'), ['root: a schema must be an object']);
  });
});
