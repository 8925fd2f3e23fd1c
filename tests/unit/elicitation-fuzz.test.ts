/**
 * Fuzz: seeded random requestedSchemas, valid and deliberately broken, through the parser
 * and through the real ElicitationService with a real broker that a "person" answers. The
 * parser never throws; broken schemas get a message naming what is wrong; the service only
 * ever rejects with InvalidParams, and every answer it sends back satisfies the schema.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ProtocolError, ProtocolErrorCode, type ElicitRequest } from '@modelcontextprotocol/client';
import { ElicitationService } from '../../electron/host/elicitation/elicitation-service.js';
import { HostEvents } from '../../electron/host/host-events.js';
import { PendingBroker } from '../../electron/host/pending/pending-broker.js';
import {
  parseRequestedSchema,
  validateElicitContent,
  type ElicitField,
} from '../../shared/elicitation/elicitation-schema.js';
import { answerFor, cases, Gen, prng } from '../helpers/elicitation-fuzz-cases.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261122);

test(`fuzz: requestedSchema parsing and the elicitation service (seed ${SEED})`, async (t) => {
  const g = new Gen(prng(SEED));
  const all = cases(g, 600);
  const events = new HostEvents();
  const broker = new PendingBroker(events);
  const service = new ElicitationService({ broker, openExternal: async () => undefined, maxAttempts: 1 });
  let current: ElicitField[] = [];
  events.on('pending.changed', (list) => {
    for (const r of list)
      if (r.kind === 'elicitation')
        setImmediate(() =>
          broker.respond(r.id, { kind: 'elicitation', action: 'accept', content: answerFor(current, g) }),
        );
  });

  let valid = 0;
  let invalid = 0;
  for (const [i, c] of all.entries()) {
    const where = `case ${i} (seed ${SEED}): ${(JSON.stringify(c.schema) ?? String(c.schema)).slice(0, 300)}`;
    let parsed: ReturnType<typeof parseRequestedSchema>;
    try {
      parsed = parseRequestedSchema(c.schema);
    } catch (error) {
      assert.fail(`parseRequestedSchema threw on ${where}: ${String(error)}`);
    }
    if (c.valid) assert.ok(parsed.ok, `${where} -> ${parsed.ok ? '' : parsed.error}`);
    else assert.equal(parsed.ok, false, `expected a refusal for ${where}`);
    if (!parsed.ok) {
      invalid++;
      assert.match(parsed.error, /^requestedSchema( field ".*?(…)?")?: \S/, where);
      assert.ok(parsed.error.length < 400, `message too long for ${where}: ${parsed.error.length}`);
      if (c.field)
        assert.ok(
          parsed.error.includes(JSON.stringify(c.field.length > 60 ? `${c.field.slice(0, 60)}…` : c.field)),
          `${where} -> ${parsed.error}`,
        );
      await assert.rejects(
        service.handle('fuzz', {
          message: 'fill this in',
          requestedSchema: c.schema,
        } as unknown as ElicitRequest['params']),
        (e: unknown) =>
          e instanceof ProtocolError &&
          e.code === Number(ProtocolErrorCode.InvalidParams) &&
          e.message === parsed.error,
        where,
      );
    } else {
      valid++;
      current = parsed.fields;
      const result = await service.handle('fuzz', {
        message: 'fill this in',
        requestedSchema: c.schema,
      } as unknown as ElicitRequest['params']);
      assert.equal(result.action, 'accept', where);
      const check = validateElicitContent(parsed.fields, result.content ?? {});
      assert.ok(check.ok, `${where} -> ${JSON.stringify(check)}`);
      for (const f of parsed.fields) {
        if (f.default !== undefined)
          assert.ok(
            Object.prototype.hasOwnProperty.call(result.content, f.name),
            `default for ${f.name} missing in ${where}`,
          );
      }
    }
  }
  assert.deepEqual(broker.list(), [], 'nothing left pending');
  assert.ok(valid >= 100 && invalid >= 100, `valid ${valid}, invalid ${invalid}`);
  t.diagnostic(`fuzz seed ${SEED}: ${valid} valid, ${invalid} invalid schemas`);
});
