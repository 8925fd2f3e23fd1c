/**
 * The audit log end to end: a real host with its data on disk, real server-everything over
 * stdio holding a secret in its env, a header-auth remote entry that cannot connect, direct
 * tool calls and a chat tool approval through the real broker (fake Gemini). The audit
 * files must hold connection, tool-call and approval records, and neither secret anywhere.
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { functionCall, reply, text, type FakeGemini } from '../fixtures/fake-gemini.js';
import { fakeModelOverrides, startFakeModel } from '../helpers/fake-model.js';
import {
  CleanupStack,
  createTestHost,
  freePort,
  SERVERS,
  textOf,
  waitFor,
  waitForState,
  type TestHost,
} from '../helpers/host-harness.js';

const KEY = 'fake-key-for-tests-123';
const ENV_SECRET = 'supersecret-audit-value-123';
const HEADER_SECRET = 'tok_audit_secret_456';
const stack = new CleanupStack();
let fake: FakeGemini;
let h: TestHost;

before(async () => {
  fake = await startFakeModel(stack, KEY);
  // Nothing listens on this port: the remote entry fails, and its failure is audited too.
  const deadPort = await freePort();
  h = await createTestHost(stack, {
    dataDir: true,
    servers: {
      everything: {
        command: process.execPath,
        args: [SERVERS.everything, 'stdio'],
        env: { API_KEY: ENV_SECRET },
      },
      remote: {
        url: `http://127.0.0.1:${deadPort}/mcp`,
        headers: { Authorization: `Bearer ${HEADER_SECRET}` },
      },
    },
    providerOverrides: fakeModelOverrides(fake, KEY),
  });
  await waitForState(h.host, 'everything', 'connected');
  await waitFor('the remote entry to give up', () => {
    const s = h.host.list().find((x) => x.id === 'remote')?.state.kind;
    return s === 'failed' || s === 'reconnecting' ? true : undefined;
  });
});
after(() => stack.run());

/** Every file under the audit directory, as text. */
async function auditFiles(): Promise<Map<string, string>> {
  const dir = join(h.dir, 'data', 'audit');
  const out = new Map<string, string>();
  for (const name of await readdir(dir)) out.set(name, await readFile(join(dir, name), 'utf8'));
  return out;
}

test('connections, tool calls and approvals are recorded on disk, and no secret reaches the audit directory', async () => {
  // The server really has the secret: get-env hands it back (the result itself is never audited).
  const env = await h.host.callTool('everything', 'get-env', {});
  assert.ok(textOf(env).includes(ENV_SECRET), 'get-env returns the env with the secret');
  // Arguments are audited, redacted: a secret value inside them and a secret-named field.
  await h.host.callTool('everything', 'echo', { message: `my key is ${ENV_SECRET}` });
  await assert.rejects(h.host.callTool('everything', 'no-such-tool', { token: HEADER_SECRET }));

  // A chat tool call approved by a person, through the broker.
  fake.enqueue(reply(functionCall('everything__echo', { message: 'approve me' })), reply(text('Done.')));
  const conv = await h.chat.create();
  const { done } = await h.chat.send(conv.id, 'echo something');
  const pending = await waitFor('approval request', () => h.broker.list()[0]);
  assert.equal(pending.kind, 'tool-approval');
  assert.ok(h.broker.respond(pending.id, { kind: 'tool-approval', choice: 'once' }));
  assert.equal((await done).reason, 'done');

  await h.audit.flush();
  const files = await auditFiles();
  assert.ok(files.size >= 1, 'an audit file exists');
  for (const name of files.keys()) assert.match(name, /^audit-\d{4}-\d{2}-\d{2}\.jsonl$/);

  const records = await h.audit.query({ limit: 10_000 });
  const has = (kind: string, action: string, serverId: string) =>
    records.some((r) => r.kind === kind && r.action === action && r.serverId === serverId);
  assert.ok(has('connection', 'connected', 'everything'), 'connected recorded');
  const connected = records.find((r) => r.kind === 'connection' && r.action === 'connected');
  assert.equal(connected?.details?.transport, 'stdio');
  assert.ok(connected?.details?.era, 'the protocol era is recorded');
  assert.ok(
    has('connection', 'failed', 'remote') || has('connection', 'reconnecting', 'remote'),
    'the remote failure recorded',
  );
  assert.ok(
    has('tool-call', 'call-start', 'everything') && has('tool-call', 'call-end', 'everything'),
    'tool calls recorded',
  );
  assert.ok(has('tool-call', 'call-error', 'everything'), 'a failed call recorded');
  const getEnv = records.find((r) => r.action === 'call-end' && r.details?.tool === 'get-env');
  assert.equal(typeof getEnv?.details?.durationMs, 'number');
  assert.equal(getEnv?.details?.isError, false);
  const raised = records.find((r) => r.kind === 'approval' && r.action === 'requested');
  assert.equal(raised?.details?.tool, 'echo');
  assert.deepEqual(raised?.details?.args, { message: 'approve me' });
  const answered = records.find((r) => r.kind === 'approval' && r.action === 'answered');
  assert.equal(answered?.details?.choice, 'once');
  assert.equal(answered?.details?.id, raised?.details?.id);
  // The chat's call ran after the approval, and was audited like any other call.
  assert.ok(
    records.some(
      (r) =>
        r.action === 'call-start' &&
        (r.details?.args as { message?: string } | undefined)?.message === 'approve me',
    ),
  );

  // The query API filters too.
  const onlyRemote = await h.audit.query({ serverId: 'remote' });
  assert.ok(onlyRemote.length > 0 && onlyRemote.every((r) => r.serverId === 'remote'));

  for (const [name, content] of files) {
    assert.ok(!content.includes(ENV_SECRET), `${name} holds the env secret`);
    assert.ok(!content.includes(HEADER_SECRET), `${name} holds the header secret`);
  }
  const exported = await h.router.handle('audit.export', {});
  assert.ok(exported.ok);
  const body = JSON.stringify(exported);
  assert.ok(!body.includes(ENV_SECRET) && !body.includes(HEADER_SECRET));
  assert.match(body, /call-start/);
});

test('the router validates audit queries strictly', async () => {
  const bad = await h.router.handle('audit.query', { kind: 'nonsense' });
  assert.equal(bad.ok, false);
  const extra = await h.router.handle('audit.query', { serverId: 'everything', command: 'rm -rf /' });
  assert.equal(extra.ok, false);
  const good = await h.router.handle('audit.query', { serverId: 'everything', kind: 'connection', limit: 5 });
  assert.ok(good.ok);
  if (good.ok) {
    const list = good.value as { kind: string; serverId?: string }[];
    assert.ok(
      list.length >= 1 &&
        list.length <= 5 &&
        list.every((r) => r.kind === 'connection' && r.serverId === 'everything'),
    );
  }
});

test('sampling and elicitation flows are recorded, without the values a person typed', async () => {
  // Sampling: the server asks for the model; a person approves the request and the reply.
  fake.enqueue(reply(text('A sampled answer.')));
  const sampled = h.host.callTool('everything', 'trigger-sampling-request', { prompt: 'summarise this' });
  for (const stage of ['request', 'reply'] as const) {
    const req = await waitFor(`sampling ${stage}`, () =>
      h.broker.list().find((r) => r.kind === 'sampling' && r.stage === stage),
    );
    h.broker.respond(req.id, { kind: 'sampling', action: 'approve' });
  }
  assert.match(textOf(await sampled), /A sampled answer/);

  // Elicitation: the form is accepted with a secret typed into a field.
  const elicited = h.host.callTool('everything', 'trigger-elicitation-request', {});
  const form = await waitFor('elicitation form', () => h.broker.list().find((r) => r.kind === 'elicitation'));
  h.broker.respond(form.id, { kind: 'elicitation', action: 'accept', content: { name: ENV_SECRET } });
  assert.match(textOf(await elicited), /provided the requested information/);

  await h.audit.flush();
  const records = (await h.audit.query({})).map((r) => `${r.kind}:${r.action}`);
  for (const expected of [
    'sampling:requested',
    'sampling:answered',
    'elicitation:requested',
    'elicitation:answered',
  ]) {
    assert.ok(records.includes(expected), `${expected} in ${records.join(', ')}`);
  }
  for (const [name, content] of await auditFiles()) {
    assert.ok(!content.includes(ENV_SECRET), `${name} holds the typed secret`);
    assert.ok(!content.includes(HEADER_SECRET), `${name} holds the header secret`);
  }
});

test('disposing the host records the disconnect and leaves every line whole', async () => {
  await h.dispose();
  for (const [name, content] of await auditFiles()) {
    assert.ok(content.endsWith('\n'), `${name} ends with a newline`);
    for (const line of content.trimEnd().split('\n'))
      assert.doesNotThrow(() => JSON.parse(line), `${name}: ${line}`);
    assert.ok(!content.includes(ENV_SECRET) && !content.includes(HEADER_SECRET));
  }
  const all = [...(await auditFiles()).values()].join('');
  assert.match(all, /"action":"disconnected"/);
});
