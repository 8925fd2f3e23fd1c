import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ProtocolError, ProtocolErrorCode, type ElicitRequest } from '@modelcontextprotocol/client';
import { parseCliArgs } from '../../electron/headless/cli-args.js';
import { answerElicitationsHeadless } from '../../electron/headless/cli-elicitation.js';
import { ElicitationService } from '../../electron/host/elicitation/elicitation-service.js';
import { HostEvents } from '../../electron/host/host-events.js';
import { PendingBroker } from '../../electron/host/pending/pending-broker.js';
import {
  fieldDefaults,
  parseRequestedSchema,
  secretLikeFields,
  validateElicitContent,
  type ElicitField,
} from '../../shared/elicitation/elicitation-schema.js';

const obj = (properties: Record<string, unknown>, required?: string[]) => ({
  type: 'object',
  properties,
  ...(required ? { required } : {}),
});

function fields(schema: unknown): ElicitField[] {
  const r = parseRequestedSchema(schema);
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r.fields;
}

function refused(schema: unknown): string {
  const r = parseRequestedSchema(schema);
  assert.equal(r.ok, false, `expected refusal of ${JSON.stringify(schema).slice(0, 200)}`);
  return r.ok ? '' : r.error;
}

test('every primitive the spec allows parses into a field', () => {
  const f = fields(
    obj(
      {
        s: { type: 'string', title: 'S', description: 'd', minLength: 1, maxLength: 5, default: 'abc' },
        e: { type: 'string', format: 'email' },
        n: { type: 'number', minimum: 0, maximum: 1.5, default: 1 },
        i: { type: 'integer', default: 3 },
        b: { type: 'boolean', default: true },
        u: { type: 'string', enum: ['a', 'b'], default: 'b' },
        t: { type: 'string', oneOf: [{ const: 'x', title: 'Ex' }], default: 'x' },
        l: { type: 'string', enum: ['p1', 'p2'], enumNames: ['Cats', 'Dogs'] },
        m: {
          type: 'array',
          items: { type: 'string', enum: ['g', 'p'] },
          minItems: 1,
          maxItems: 2,
          default: ['g'],
        },
        a: { type: 'array', items: { anyOf: [{ const: 'f1', title: 'Tuna' }] } },
      },
      ['s', 'u'],
    ),
  );
  assert.deepEqual(
    f.map((x) => [x.name, x.kind, x.required]),
    [
      ['s', 'string', true],
      ['e', 'string', false],
      ['n', 'number', false],
      ['i', 'number', false],
      ['b', 'boolean', false],
      ['u', 'enum', true],
      ['t', 'enum', false],
      ['l', 'enum', false],
      ['m', 'multi-enum', false],
      ['a', 'multi-enum', false],
    ],
  );
  const legacy = f.find((x) => x.name === 'l');
  assert.ok(legacy?.kind === 'enum');
  assert.deepEqual(legacy.options, [
    { value: 'p1', label: 'Cats' },
    { value: 'p2', label: 'Dogs' },
  ]);
  assert.deepEqual(fieldDefaults(f), { s: 'abc', n: 1, i: 3, b: true, u: 'b', t: 'x', m: ['g'] });
});

test('what the spec does not allow is refused, naming the field', () => {
  assert.match(refused(null), /must be an object schema, got null/);
  assert.match(refused({ type: 'array', properties: {} }), /"type" must be "object"/);
  assert.match(refused({ type: 'object' }), /"properties" must be an object/);
  assert.match(
    refused(obj({ addr: { type: 'object', properties: {} } })),
    /field "addr": nested objects are not allowed/,
  );
  assert.match(refused(obj({ x: { type: 'date' } })), /field "x": unsupported type "date"/);
  assert.match(
    refused(obj({ x: { type: 'string' } }, ['y'])),
    /"required" names "y", which is not a property/,
  );
  assert.match(
    refused(obj({ x: { type: 'number', default: '3' } })),
    /field "x": "default" must be a finite number, got a string/,
  );
  assert.match(refused(obj({ x: { type: 'integer', default: 1.5 } })), /"default" must be an integer/);
  assert.match(refused(obj({ x: { type: 'boolean', default: 'yes' } })), /"default" must be a boolean/);
  assert.match(
    refused(obj({ x: { type: 'string', enum: [1, 2] } })),
    /field "x": "enum"\[0\] must be a string, got a number/,
  );
  assert.match(
    refused(obj({ x: { type: 'string', enum: ['a'], default: 'b' } })),
    /"default" "b" is not one of the options/,
  );
  assert.match(
    refused(obj({ x: { type: 'string', enum: ['a', 'b'], enumNames: ['A'] } })),
    /"enumNames" has 1 entries but "enum" has 2/,
  );
  assert.match(refused(obj({ x: { type: 'string', enum: [] } })), /at least one option/);
  assert.match(
    refused(obj({ x: { type: 'string', format: 'phone' } })),
    /"format" must be one of email, uri, date, date-time/,
  );
  assert.match(
    refused(obj({ x: { type: 'string', minLength: 5, maxLength: 2 } })),
    /minLength \(5\) is greater than maxLength \(2\)/,
  );
  assert.match(
    refused(obj({ x: { type: 'array', items: { type: 'number' } } })),
    /only multi-select enums are allowed/,
  );
  assert.match(
    refused(obj({ x: { type: 'array', items: { type: 'string', enum: ['a'] }, default: ['z'] } })),
    /"default" contains "z"/,
  );
  assert.match(
    refused(obj({ x: { type: 'string', description: 'd'.repeat(20_000) } })),
    /"description" is too long/,
  );
  assert.match(refused(obj({ '': { type: 'string' } })), /property name must not be empty/);
});

test('odd property names stay plain keys', () => {
  const schema = JSON.parse(
    '{"type":"object","properties":{"__proto__":{"type":"string","default":"p"},"constructor":{"type":"boolean"}},"required":["__proto__"]}',
  ) as unknown;
  const f = fields(schema);
  assert.deepEqual(
    f.map((x) => x.name),
    ['__proto__', 'constructor'],
  );
  const d = fieldDefaults(f);
  assert.equal(Object.getPrototypeOf(d), Object.prototype);
  assert.deepEqual(Object.keys(d), ['__proto__']);
  const content = JSON.parse('{"__proto__":"v","constructor":false}') as unknown;
  const checked = validateElicitContent(f, content);
  assert.ok(checked.ok);
  assert.deepEqual(Object.keys(checked.content), ['__proto__', 'constructor']);
});

test('content is checked for types, lengths, ranges, formats, options and required', () => {
  const f = fields(
    obj(
      {
        name: { type: 'string', minLength: 2, maxLength: 4 },
        mail: { type: 'string', format: 'email' },
        site: { type: 'string', format: 'uri' },
        day: { type: 'string', format: 'date' },
        at: { type: 'string', format: 'date-time' },
        n: { type: 'integer', minimum: 1, maximum: 10 },
        ok: { type: 'boolean' },
        pick: { type: 'string', enum: ['a', 'b'] },
        many: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, minItems: 1, maxItems: 2 },
      },
      ['name', 'ok'],
    ),
  );
  const good = validateElicitContent(f, {
    name: 'Ada',
    mail: 'a@b.co',
    site: 'https://x.org/p',
    day: '2020-02-29',
    at: '2020-01-01T10:00:00Z',
    n: 3,
    ok: false,
    pick: 'b',
    many: ['a', 'c'],
  });
  assert.ok(good.ok);
  const bad = validateElicitContent(f, {
    name: 'A',
    mail: 'nope',
    site: 'not a url',
    day: '2020-13-01',
    at: 'yesterday',
    n: 2.5,
    pick: 'z',
    many: ['a', 'b', 'c'],
    extra: 1,
  });
  assert.equal(bad.ok, false);
  assert.deepEqual(bad.ok ? {} : bad.errors, {
    extra: 'the form has no field "extra"',
    name: 'must be at least 2 characters',
    mail: 'must be an email address',
    site: 'must be a URL',
    day: 'must be a date (YYYY-MM-DD)',
    at: 'must be a date and time (ISO 8601)',
    n: 'must be a whole number',
    ok: 'is required',
    pick: '"z" is not one of the options',
    many: 'choose at most 2',
  });
  const typeErrors = validateElicitContent(f, { name: 5, ok: 'true', n: '3', many: 'a' });
  assert.equal(typeErrors.ok, false);
  assert.deepEqual(typeErrors.ok ? {} : typeErrors.errors, {
    name: 'must be text, got a number',
    ok: 'must be true or false, got a string',
    n: 'must be a number, got a string',
    many: 'must be a list of options, got a string',
  });
  assert.equal(validateElicitContent(f, [1]).ok, false);
});

test('secret-looking fields are found by name, title or description', () => {
  const f = fields(
    obj({
      password: { type: 'string' },
      apiKey: { type: 'string' },
      client_secret: { type: 'string' },
      x: { type: 'string', title: 'Credit card number' },
      y: { type: 'string', description: 'Your SSN' },
      z: { type: 'string', description: 'A personal access token' },
      pk: { type: 'string', title: 'Private key' },
      name: { type: 'string', description: 'Your full name' },
      fav: { type: 'integer', description: 'do not give us your phone number, pin, or other sensitive info' },
      passport: { type: 'string' },
    }),
  );
  assert.deepEqual(secretLikeFields(f), ['password', 'apiKey', 'client_secret', 'x', 'y', 'z', 'pk']);
});

function setup(timeoutMs?: number) {
  const events = new HostEvents();
  const broker = new PendingBroker(events);
  const opened: string[] = [];
  const service = new ElicitationService({
    broker,
    openExternal: async (u) => void opened.push(u),
    ...(timeoutMs ? { timeoutMs } : {}),
  });
  return { events, broker, service, opened };
}

const params = (p: Record<string, unknown>) => p as unknown as ElicitRequest['params'];

test('the service refuses malformed requests with InvalidParams, and warns about secrets', async () => {
  const { broker, service } = setup();
  const rejects = async (p: Record<string, unknown>, re: RegExp) => {
    await assert.rejects(
      service.handle('s', params(p)),
      (e: unknown) =>
        e instanceof ProtocolError &&
        e.code === Number(ProtocolErrorCode.InvalidParams) &&
        re.test(e.message),
    );
  };
  await rejects(
    { message: 'm', requestedSchema: obj({ a: { type: 'object' } }) },
    /field "a": nested objects/,
  );
  await rejects({ message: 3, requestedSchema: obj({}) }, /"message" must be a string/);
  await rejects(
    { mode: 'url', message: 'm', url: 'javascript:alert(1)' },
    /must be http or https, not javascript/,
  );
  await rejects({ mode: 'url', message: 'm', url: 'not a url' }, /not a valid URL/);
  await rejects({ mode: 'carrier-pigeon', message: 'm' }, /unsupported elicitation mode/);
  assert.deepEqual(broker.list(), []);

  const pending = service.handle(
    's',
    params({ message: 'm', requestedSchema: obj({ password: { type: 'string' } }) }),
  );
  const [view] = broker.list();
  assert.ok(view?.kind === 'elicitation');
  assert.deepEqual(view.warnings, [
    '“password” looks like it asks for a secret: servers must not ask for passwords in form mode',
  ]);
  broker.respond(view.id, { kind: 'elicitation', action: 'decline' });
  assert.deepEqual(await pending, { action: 'decline' });

  const link = service.handle(
    's',
    params({ mode: 'url', message: 'm', url: 'http://аpple.com/login', elicitationId: 'e' }),
  );
  const [urlView] = broker.list();
  assert.ok(urlView?.kind === 'elicitation');
  assert.equal(urlView.domain, 'xn--pple-43d.com');
  assert.match(urlView.warnings.join('\n'), /not encrypted[\s\S]*Punycode/);
  broker.respond(urlView.id, { kind: 'elicitation', action: 'cancel' });
  assert.deepEqual(await link, { action: 'cancel' });
});

test('the service fills defaults, and cancels on timeout, abort and server stop', async () => {
  const { broker, service } = setup();
  const accepted = service.handle(
    's',
    params({
      message: 'm',
      requestedSchema: obj({ a: { type: 'string', default: 'x' }, b: { type: 'boolean' } }),
    }),
  );
  broker.respond(broker.list()[0].id, { kind: 'elicitation', action: 'accept', content: { b: true } });
  assert.deepEqual(await accepted, { action: 'accept', content: { b: true, a: 'x' } });

  const controller = new AbortController();
  const aborted = service.handle('s', params({ message: 'm', requestedSchema: obj({}) }), controller.signal);
  controller.abort();
  assert.deepEqual(await aborted, { action: 'cancel' });

  const stopped = service.handle('gone', params({ message: 'm', requestedSchema: obj({}) }));
  assert.deepEqual(service.activeServers(), ['gone']);
  service.cancelServer('gone');
  assert.deepEqual(await stopped, { action: 'cancel' });
  assert.deepEqual(service.activeServers(), []);

  const quick = setup(30);
  assert.deepEqual(await quick.service.handle('s', params({ message: 'm', requestedSchema: obj({}) })), {
    action: 'cancel',
  });
});

test('the headless answerer accepts complete defaults and declines the rest', async () => {
  const { events, broker, service } = setup();
  const notes: string[] = [];
  const off = answerElicitationsHeadless({ events, broker }, 'accept-defaults', (t) => notes.push(t));
  const full = await service.handle(
    's',
    params({
      message: 'm',
      requestedSchema: obj(
        { n: { type: 'integer', default: 7 }, c: { type: 'string', enum: ['a'], default: 'a' } },
        ['n'],
      ),
    }),
  );
  assert.deepEqual(full, { action: 'accept', content: { n: 7, c: 'a' } });
  const partial = await service.handle(
    's',
    params({ message: 'm', requestedSchema: obj({ who: { type: 'string' } }, ['who']) }),
  );
  assert.deepEqual(partial, { action: 'decline' });
  const link = await service.handle(
    's',
    params({ mode: 'url', message: 'm', url: 'https://example.com/a', elicitationId: 'e' }),
  );
  assert.deepEqual(link, { action: 'decline' });
  off();
  assert.match(
    notes.join('\n'),
    /accepted with defaults: n, c[\s\S]*declined: the defaults do not complete the form \(who is required\)[\s\S]*never opened headless \(example\.com\)/,
  );
});

test('--elicitation takes one of three answers', () => {
  assert.equal(parseCliArgs(['call', 'a', 'b', '--elicitation', 'decline']).elicitation, 'decline');
  assert.equal(parseCliArgs(['--elicitation=accept-defaults', 'call']).elicitation, 'accept-defaults');
  assert.equal(parseCliArgs(['call']).elicitation, undefined);
  assert.throws(
    () => parseCliArgs(['--elicitation', 'yes', 'call']),
    /--elicitation must be one of accept-defaults, decline, cancel, got "yes"/,
  );
  assert.throws(() => parseCliArgs(['call', '--elicitation']), /--elicitation needs a value/);
});
