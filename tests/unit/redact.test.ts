import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expandRefs } from '../../electron/host/config/expand.js';
import { toHostError } from '../../electron/host/util/errors.js';
import { RingBuffer } from '../../electron/host/util/ring-buffer.js';
import { Redactor, REDACTED } from '../../electron/host/util/redact.js';

test('secret-named fields, bearer credentials and known secret values are redacted', () => {
  const r = new Redactor();
  r.addSecret('hunter2-very-secret');
  const out = JSON.stringify(
    r.redactValue({
      params: {
        apiKey: 'abc',
        headers: { Authorization: 'Bearer xyz123456' },
        text: 'my pass is hunter2-very-secret ok',
        note: 'Bearer qwertyuiop',
      },
    }),
  );
  assert.ok(!out.includes('abc"'), out);
  assert.ok(!out.includes('xyz123456'), out);
  assert.ok(!out.includes('hunter2-very-secret'), out);
  assert.ok(!out.includes('qwertyuiop'), out);
  assert.ok(out.includes(REDACTED));
});

test('${env:X} expands; a missing variable is an error naming server and field; secret values get remembered', async () => {
  const r = new Redactor();
  assert.equal(
    await expandRefs(
      '--root=${env:ROOT}/x',
      { server: 's', field: 'args[0]' },
      { ROOT: '/data' },
      undefined,
      r,
    ),
    '--root=/data/x',
  );
  await assert.rejects(
    expandRefs('${env:NOPE}', { server: 's', field: 'env.KEY' }, {}, undefined, r),
    /server "s": env.KEY uses \$\{env:NOPE\}, which is not set/,
  );
  await assert.rejects(
    expandRefs('${secret:K}', { server: 's', field: 'headers.Authorization' }, {}, undefined, r),
    /has no stored value/,
  );
  const v = await expandRefs(
    'Bearer ${secret:K}',
    { server: 's', field: 'h' },
    {},
    { get: async () => 'sk-abcdef-123' },
    r,
  );
  assert.equal(v, 'Bearer sk-abcdef-123');
  assert.equal(r.redactText('leaked sk-abcdef-123 here'), `leaked ${REDACTED} here`);
});

test('errors that cross to the renderer are scrubbed and carry an actionable hint', () => {
  const r = new Redactor();
  r.addSecret('topsecretvalue');
  const e = toHostError(new Error('failed with topsecretvalue'), r);
  assert.equal(e.message.includes('topsecretvalue'), false);
  const enoent = Object.assign(new Error('spawn nosuchcmd ENOENT'), { code: 'ENOENT' });
  assert.match(toHostError(enoent).message, /command not found/i);
});

test('the ring buffer keeps the newest items in order', () => {
  const b = new RingBuffer<number>(3);
  for (let i = 1; i <= 5; i++) b.push(i);
  assert.deepEqual(b.toArray(), [3, 4, 5]);
  assert.equal(b.size, 3);
});

test('a DPoP-scheme credential is scrubbed from free text, prose about DPoP is not, and a DPoP header is blanked', () => {
  const r = new Redactor();
  const token = 'eyJhbGciOiJFUzI1NiJ9.eyJjbmYiOnt9fQ.c2ln';
  assert.equal(
    r.redactText(`sent Authorization: DPoP ${token} to x`),
    `sent Authorization: DPoP ${REDACTED} to x`,
  );
  assert.equal(
    r.redactText('the server requires DPoP proofs and DPoP-bound tokens'),
    'the server requires DPoP proofs and DPoP-bound tokens',
  );
  assert.deepEqual(r.redactValue({ DPoP: token, dpopKey: 'x' }), { DPoP: REDACTED, dpopKey: 'x' });
});

test('only keys that name a secret are redacted: counts and pointers that mention tokens are shown (issue 24)', () => {
  const r = new Redactor();
  const out = r.redactValue({
    maxTokens: 512,
    max_output_tokens: 100,
    progressToken: 'p-7',
    nextPageToken: 'abc',
    totalTokens: 9,
    token_type: 'Bearer',
    tokenEndpoint: 'https://example.test/token',
    accessToken: 'a1',
    refresh_token: 'r1',
    githubToken: 'g1',
    token: 't1',
    'X-Api-Key': 'k1',
    dbPassword: 'pw',
    client_secret: 'cs',
    accessTokens: 'x',
  }) as Record<string, unknown>;
  for (const shown of [
    'maxTokens',
    'max_output_tokens',
    'progressToken',
    'nextPageToken',
    'totalTokens',
    'token_type',
    'tokenEndpoint',
  ])
    assert.notEqual(out[shown], REDACTED, `${shown} is not a secret`);
  for (const hidden of [
    'accessToken',
    'refresh_token',
    'githubToken',
    'token',
    'X-Api-Key',
    'dbPassword',
    'client_secret',
    'accessTokens',
  ])
    assert.equal(out[hidden], REDACTED, `${hidden} is a secret`);
});
