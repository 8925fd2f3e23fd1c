/**
 * Standing permissions through the real host: the chat engine and @google/genai client
 * against the fake Gemini server, server-everything over stdio, the router the UI uses.
 * "Always allow" on a card shows up in the list (with its conversation and time) and the
 * next call runs silently; Revoke makes the very next call ask again; the Trust switch does
 * the same for every tool; removing a server drops everything about it, on disk too.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { ToolApprovalRequest } from '../../shared/domain/chat.js';
import type { PermissionsSnapshot } from '../../shared/domain/permissions.js';
import type { RequestChannel, RequestOf, ResponseOf } from '../../shared/ipc/contract.js';
import { functionCall, reply, text, type FakeGemini } from '../fixtures/fake-gemini.js';
import { fakeModelOverrides, startFakeModel } from '../helpers/fake-model.js';
import {
  CleanupStack,
  createTestHost,
  nodeServer,
  SERVERS,
  waitFor,
  waitForState,
  type TestHost,
} from '../helpers/host-harness.js';

const KEY = 'fake-key-for-permissions';
const stack = new CleanupStack();
let fake: FakeGemini;
let h: TestHost;
const published: PermissionsSnapshot[] = [];

before(async () => {
  fake = await startFakeModel(stack, KEY);
  h = await createTestHost(stack, {
    servers: { ev: nodeServer(SERVERS.everything), other: nodeServer(SERVERS.fileResources) },
    // Not a second server-everything: its tools would shadow ev's, and a card for a flagged
    // tool offers no "always" (issue 24).
    providerOverrides: fakeModelOverrides(fake, KEY),
    dataDir: true,
  });
  stack.defer(h.events.on('permissions.changed', (list) => published.push(list)));
  await waitForState(h.host, 'ev', 'connected');
});
after(() => stack.run());

/** Call a channel the way the renderer does; a refusal fails the test with its message. */
async function call<C extends RequestChannel>(channel: C, req: RequestOf<C>): Promise<ResponseOf<C>> {
  const r = await h.router.handle(channel, req);
  if (!r.ok) throw new Error(`${channel}: ${r.error.code} ${r.error.message}`);
  return r.value as ResponseOf<C>;
}

const ev = (list: PermissionsSnapshot) => list.find((p) => p.serverId === 'ev');

/** Run one chat turn that calls ev's echo; answers its approval card with `choice`, or none if it runs silently. */
async function echoTurn(choice?: 'always' | 'deny'): Promise<{ asked: boolean; approval?: string }> {
  fake.enqueue(reply(functionCall('ev__echo', { message: 'hi' })), reply(text('done')));
  const conv = await h.chat.create();
  const { done } = await h.chat.send(conv.id, 'echo hi');
  let asked = false;
  if (choice) {
    const card = await waitFor('an approval card', () =>
      h.broker
        .list()
        .find((r): r is ToolApprovalRequest => r.kind === 'tool-approval' && r.conversationId === conv.id),
    );
    asked = true;
    assert.ok(h.broker.respond(card.id, { kind: 'tool-approval', choice }));
  }
  assert.equal((await done).reason, 'done');
  const stored = await h.chat.get(conv.id);
  const approval = JSON.stringify(stored.messages).match(/"approval":"([\w-]+)"/)?.[1];
  return { asked, ...(approval ? { approval } : {}) };
}

test('"Always allow" is listed with its conversation and time, and the next call runs without asking', async () => {
  assert.deepEqual(
    (await call('permissions.list', {})).map((p) => [p.serverId, p.configured, p.trust.trusted, p.tools]),
    [
      ['ev', true, false, []],
      ['other', true, false, []],
    ],
    'every configured server is listed with nothing granted',
  );
  const conv = await h.chat.create();
  fake.enqueue(reply(functionCall('ev__echo', { message: 'first' })), reply(text('ok')));
  const { done } = await h.chat.send(conv.id, 'echo');
  const card = await waitFor('an approval card', () =>
    h.broker.list().find((r) => r.kind === 'tool-approval' && r.conversationId === conv.id),
  );
  h.broker.respond(card.id, { kind: 'tool-approval', choice: 'always' });
  await done;
  const tools = ev(await call('permissions.list', {}))?.tools ?? [];
  assert.equal(tools.length, 1);
  assert.equal(tools[0]?.tool, 'echo');
  assert.equal(tools[0]?.conversationId, conv.id);
  assert.equal(tools[0]?.applies, true);
  assert.ok(Date.now() - Date.parse(tools[0]?.grantedAt ?? '') < 60_000, 'granted just now');
  assert.equal(ev(published.at(-1) ?? [])?.tools[0]?.tool, 'echo', 'every open view was told');

  assert.deepEqual(await echoTurn(), { asked: false, approval: 'allow-listed' });
});

test('Revoke takes effect at once: the next call asks again', async () => {
  const list = await call('permissions.revoke', { serverId: 'ev', kind: 'tool', tool: 'echo' });
  assert.deepEqual(ev(list)?.tools, []);
  assert.deepEqual(ev(published.at(-1) ?? [])?.tools, [], 'the change event carries the revoke');
  const turn = await echoTurn('deny');
  assert.equal(turn.asked, true, 'the revoked tool asked again');
});

test('the Trust switch: on, every tool runs silently; off, they ask again', async () => {
  const on = await call('permissions.setTrust', { serverId: 'ev', trusted: true });
  assert.equal(ev(on)?.trust.trusted, true);
  assert.equal(ev(on)?.trust.source, 'granted');
  assert.deepEqual(await echoTurn(), { asked: false, approval: 'trusted' });
  const off = await call('permissions.setTrust', { serverId: 'ev', trusted: false });
  assert.equal(ev(off)?.trust.trusted, false);
  assert.equal((await echoTurn('deny')).asked, true);
  const unknown = await h.router.handle('permissions.setTrust', { serverId: 'nope', trusted: true });
  assert.equal(unknown.ok ? 'ok' : unknown.error.code, 'unknown_server');
});

test("Revoke all takes a server's trust, tools and sampling decision; other servers keep theirs", async () => {
  await call('permissions.setTrust', { serverId: 'ev', trusted: true });
  await h.policies.trust.allowAlways('ev', 'whatever', 'add');
  await call('sampling.consent.set', { serverId: 'ev', consent: 'always' });
  await call('permissions.setTrust', { serverId: 'other', trusted: true });
  const before = ev(await call('permissions.list', {}));
  assert.equal(before?.sampling?.consent, 'always');
  assert.equal(before?.tools[0]?.applies, false, 'a record made for another command does not apply');
  const after = await call('permissions.revokeServer', { serverId: 'ev' });
  assert.deepEqual(ev(after), { serverId: 'ev', configured: true, trust: { trusted: false }, tools: [] });
  assert.equal((await call('sampling.consent.get', { serverId: 'ev' })).consent, 'ask');
  assert.equal(after.find((p) => p.serverId === 'other')?.trust.trusted, true);
});

test('removing a server drops its permissions, on disk too', async () => {
  await call('permissions.setTrust', { serverId: 'other', trusted: true });
  await call('sampling.consent.set', { serverId: 'other', consent: 'never' });
  await call('servers.remove', { id: 'other' });
  const list = await call('permissions.list', {});
  assert.equal(
    list.find((p) => p.serverId === 'other'),
    undefined,
    'nothing about the removed server is left',
  );
  assert.equal(
    published.at(-1)?.find((p) => p.serverId === 'other'),
    undefined,
  );
  await h.policies.flush();
  const settings = await readFile(join(h.dir, 'data', 'settings.json'), 'utf8');
  assert.doesNotMatch(settings, /"other"/);
  const sampling = await readFile(join(h.dir, 'data', 'sampling.json'), 'utf8');
  assert.doesNotMatch(sampling, /"other"/);
});
