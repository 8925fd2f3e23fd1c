/**
 * The small parts of sampling: the token bucket, model choice from hints, the consent file
 * (format, bad entries, session consent) and the message checks the spec asks for.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { DEFAULT_CHAT_SETTINGS } from '../../electron/host/stores/settings-store.js';
import { chooseModel } from '../../electron/host/sampling/model-choice.js';
import { RateLimiter } from '../../electron/host/sampling/rate-limiter.js';
import {
  applyEdits,
  parseMessages,
  toModelMessages,
  toViews,
} from '../../electron/host/sampling/sampling-content.js';
import { SamplingConsentStore } from '../../electron/host/policies/sampling-consent-store.js';

test('the rate limiter allows a burst, then refills evenly', () => {
  let now = 0;
  const limiter = new RateLimiter(2, 60_000, () => now);
  assert.equal(limiter.take('a'), 0);
  assert.equal(limiter.take('a'), 0);
  assert.equal(limiter.take('a'), 30_000, 'one token comes back every 30 s');
  assert.equal(limiter.take('b'), 0, 'buckets are per server');
  now = 30_000;
  assert.equal(limiter.take('a'), 0);
  assert.ok(limiter.take('a') > 0);
});

test('model hints match the configured model first, then the known list, else the default', () => {
  const s = { ...DEFAULT_CHAT_SETTINGS, disabledServers: [], disabledTools: [] };
  const known = ['gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.5-flash-lite'];
  assert.deepEqual(chooseModel(s, [{ name: 'flash' }], known), {
    provider: 'gemini',
    model: 'gemini-2.5-flash',
  });
  assert.deepEqual(chooseModel(s, [{ name: 'claude-3-sonnet' }, { name: 'PRO' }], known), {
    provider: 'gemini',
    model: 'gemini-2.5-pro',
  });
  assert.deepEqual(chooseModel(s, [{ name: 'claude' }], known), {
    provider: 'gemini',
    model: 'gemini-2.5-flash',
  });
  assert.deepEqual(chooseModel(s, undefined, []), { provider: 'gemini', model: 'gemini-2.5-flash' });
});

test('consent: always/never and skipReplyReview persist, session does not, bad entries fall back to ask', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-desk-sampling-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'sampling.json');
  await writeFile(
    path,
    JSON.stringify({
      version: 1,
      futureKey: 'kept',
      servers: { good: { consent: 'never' }, bad: { consent: 'maybe' } },
    }),
  );
  const store = await SamplingConsentStore.open(path, () => undefined);
  assert.equal(store.get('good').consent, 'never');
  assert.deepEqual(store.get('bad'), { consent: 'ask', skipReplyReview: false });
  await store.setConsent('a', 'always');
  await store.setSkipReplyReview('a', true);
  await store.setConsent('s', 'session');
  assert.equal(store.get('s').consent, 'session');
  await store.setConsent('good', 'session');
  assert.equal(store.get('good').consent, 'session', 'the newer choice outranks a standing one');
  await store.flush();
  const saved = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
  assert.equal(saved.futureKey, 'kept');
  const again = await SamplingConsentStore.open(path);
  assert.deepEqual(again.get('a'), { consent: 'always', skipReplyReview: true });
  assert.equal(again.get('s').consent, 'ask');
  assert.equal(again.get('good').consent, 'ask');
});

test('consent: an unreadable file warns and asks everywhere', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-desk-sampling-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'sampling.json');
  await writeFile(path, '{not json');
  const warnings: string[] = [];
  const store = await SamplingConsentStore.open(path, (m) => warnings.push(m));
  assert.equal(store.get('x').consent, 'ask');
  assert.equal(warnings.length, 1);
});

test('messages: tool results must stand alone and answer every tool use (-32602)', () => {
  const use = { role: 'assistant', content: [{ type: 'tool_use', id: 'u1', name: 'f', input: { a: 1 } }] };
  const result = { type: 'tool_result', toolUseId: 'u1', content: [{ type: 'text', text: 'ok' }] };
  const user = { role: 'user', content: { type: 'text', text: 'go' } };
  assert.throws(
    () => parseMessages([user, use, { role: 'user', content: [result, { type: 'text', text: 'extra' }] }]),
    (e: Error & { code?: number }) => e.code === -32602 && /mixed/.test(e.message),
  );
  assert.throws(
    () => parseMessages([user, use, { role: 'user', content: { type: 'text', text: 'no result' } }]),
    /Tool result missing in request/,
  );
  assert.throws(() => parseMessages([]), /non-empty/);
  assert.throws(() => parseMessages([{ role: 'system', content: { type: 'text', text: 'x' } }]), /role/);
  const ok = parseMessages([user, use, { role: 'user', content: [result] }]);
  const model = toModelMessages(ok);
  assert.deepEqual(model[1].parts[0], { type: 'function_call', id: 'u1', name: 'f', args: { a: 1 } });
  assert.deepEqual(model[2].parts[0], {
    type: 'function_response',
    id: 'u1',
    name: 'f',
    output: 'ok',
    isError: false,
  });
});

test('edits replace text and keep the tool blocks the view only summarises', () => {
  const original = parseMessages([
    { role: 'user', content: { type: 'text', text: 'go' } },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'u1', name: 'f', input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', toolUseId: 'u1', content: [] }] },
  ]);
  const views = toViews(original);
  assert.equal(views[1].content[0].type, 'other');
  const edited = applyEdits(original, [
    { role: 'user', content: [{ type: 'text', text: 'GO' }] },
    views[1],
    views[2],
  ]);
  assert.deepEqual(edited[0], { role: 'user', blocks: [{ type: 'text', text: 'GO' }] });
  assert.equal(edited[1].blocks[0].type, 'tool_use');
  assert.equal(edited[2].blocks[0].type, 'tool_result');
  assert.throws(() => applyEdits(original, [{ role: 'user', content: [] }]), /no content left/);
});
