/**
 * Pinned tool definitions through the real host (issue 15, Must show 1): the chat engine and
 * @google/genai against the fake Gemini, the rug-pull fixture over stdio, the router the UI
 * uses. A tool approved "always" that changes its description and schema is not run again
 * until a person reviews the change; the card carries both versions; accepting restores the
 * silent approval; the audit log has the change and the acceptance. Also: a removed-then-
 * readded tool counts as changed, another server of the same name inherits no pins, and a
 * corrupt pins file is reported and set aside without losing its valid pins.
 */
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ToolApprovalRequest } from '../../shared/domain/chat.js';
import type { ServerConfig } from '../../shared/domain/server-config.js';
import type { RequestChannel, RequestOf, ResponseOf } from '../../shared/ipc/contract.js';
import { launchKey } from '../../electron/host/config/launch-key.js';
import { fingerprintDefinition } from '../../electron/host/tool-trust/fingerprint.js';
import { functionCall, reply, text, type FakeGemini } from '../fixtures/fake-gemini.js';
import { fakeModelOverrides, startFakeModel } from '../helpers/fake-model.js';
import {
  CleanupStack,
  createTestHost,
  nodeServer,
  REPO_ROOT,
  tempDir,
  textOf,
  waitFor,
  waitForState,
  type TestHost,
} from '../helpers/host-harness.js';

const RUG = join(REPO_ROOT, 'tests/fixtures/rug-pull-server.mjs');
const KEY = 'fake-key-for-tool-pins';
const stack = new CleanupStack();
let fake: FakeGemini;
let h: TestHost;

before(async () => {
  fake = await startFakeModel(stack, KEY);
  h = await createTestHost(stack, {
    servers: { rug: nodeServer(RUG) },
    providerOverrides: fakeModelOverrides(fake, KEY),
    dataDir: true,
  });
  await waitForState(h.host, 'rug', 'connected');
});
after(() => stack.run());

async function call<C extends RequestChannel>(
  host: TestHost,
  channel: C,
  req: RequestOf<C>,
): Promise<ResponseOf<C>> {
  const r = await host.router.handle(channel, req);
  if (!r.ok) throw new Error(`${channel}: ${r.error.code} ${r.error.message}`);
  return r.value as ResponseOf<C>;
}

/** How many times each tool really ran on the server (the fixture counts). */
async function stats(host: TestHost = h): Promise<{ version: string; calls: Record<string, number> }> {
  return JSON.parse(textOf(await host.host.callTool('rug', 'stats', {}))) as {
    version: string;
    calls: Record<string, number>;
  };
}

function fetchPage(host: TestHost = h) {
  return host.host.catalog().tools.find((t) => t.serverId === 'rug' && t.tool.name === 'fetch-page');
}

/** Wait until fetch-page's pin status reads `pin`. */
function pinIs(pin: 'pinned' | 'changed', host: TestHost = h) {
  return waitFor(`fetch-page ${pin}`, () => {
    const t = fetchPage(host);
    return t?.trust?.pin === pin ? t : undefined;
  });
}

/** Start a chat turn calling fetch-page; resolves with its card, or with none if it ran silently. */
async function fetchTurn(): Promise<{ card?: ToolApprovalRequest; done: Promise<unknown>; convId: string }> {
  fake.enqueue(reply(functionCall('rug__fetch-page', { url: 'https://example.com' })), reply(text('ok')));
  const conv = await h.chat.create();
  const { done } = await h.chat.send(conv.id, 'fetch the page');
  const card = await Promise.race([
    waitFor('an approval card', () =>
      h.broker
        .list()
        .find((r): r is ToolApprovalRequest => r.kind === 'tool-approval' && r.conversationId === conv.id),
    ),
    done.then(() => undefined),
  ]);
  return { ...(card ? { card } : {}), done, convId: conv.id };
}

async function approvalOf(convId: string): Promise<string | undefined> {
  const stored = await h.chat.get(convId);
  return JSON.stringify(stored.messages).match(/"approval":"([\w-]+)"/)?.[1];
}

async function toolChanges(action?: string) {
  const records = await h.audit.query({ kind: 'tool-change', serverId: 'rug' });
  return action ? records.filter((r) => r.action === action) : records;
}

describe('a rug pull after "always allow"', () => {
  test('the changed tool is not run without review; the card shows both versions; accepting restores the approval', async () => {
    // Approved "always" while it reads as v1.
    const first = await fetchTurn();
    assert.ok(first.card, 'the first call asks');
    assert.equal(first.card.change, undefined, 'nothing changed yet');
    assert.ok(h.broker.respond(first.card.id, { kind: 'tool-approval', choice: 'always' }));
    await first.done;
    assert.equal((await stats()).calls['fetch-page'], 1);
    const pinned = await pinIs('pinned');
    const v1Print = pinned.trust?.fingerprint;
    assert.match(v1Print ?? '', /^[0-9a-f]{64}$/);

    // Silent while unchanged.
    const silent = await fetchTurn();
    assert.equal(silent.card, undefined);
    assert.equal(await approvalOf(silent.convId), 'allow-listed');
    assert.equal((await stats()).calls['fetch-page'], 2);

    // The server swaps in another description and schema, and says so.
    await h.host.callTool('rug', 'flip', {});
    const changed = await pinIs('changed');
    assert.ok(changed.trust?.changedAt, 'the change has a time');
    assert.notEqual(changed.trust?.fingerprint, v1Print);
    const [changeRecord] = await toolChanges('changed');
    assert.ok(changeRecord, 'the change is audited');
    assert.deepEqual(changeRecord.details, {
      tool: 'fetch-page',
      oldFingerprint: v1Print,
      newFingerprint: changed.trust?.fingerprint,
      readded: false,
    });

    // The next call asks, with both versions, and never reaches the server while it waits.
    const review = await fetchTurn();
    assert.ok(review.card, 'the always-allowed tool asks again after it changed');
    assert.match(review.card.reason, /changed .* since you approved it/);
    const change = review.card.change;
    assert.ok(change, 'the card carries the change');
    assert.equal(change.pinned.description, 'Fetch a web page and return its text.');
    assert.match(change.current.description ?? '', /id_rsa/);
    assert.deepEqual(Object.keys((change.pinned.inputSchema as { properties: object }).properties), ['url']);
    assert.deepEqual(Object.keys((change.current.inputSchema as { properties: object }).properties), [
      'url',
      'context',
    ]);
    assert.equal((await stats()).calls['fetch-page'], 2, 'the call did not run while waiting');
    assert.ok(h.broker.respond(review.card.id, { kind: 'tool-approval', choice: 'deny' }));
    await review.done;
    assert.equal((await stats()).calls['fetch-page'], 2, 'a denied call never reaches the server');
    assert.equal(fetchPage()?.trust?.pin, 'changed', 'denying accepts nothing');

    // The Tools view's review: list, then accept.
    const listed = await call(h, 'tools.changes', {});
    assert.deepEqual(
      listed.map((c) => [c.serverId, c.tool, c.readded]),
      [['rug', 'fetch-page', false]],
    );
    const accepted = await call(h, 'tools.acceptChange', {
      serverId: 'rug',
      tool: 'fetch-page',
      fingerprint: fingerprintDefinition(listed[0].current),
    });
    assert.deepEqual(accepted, { accepted: true });
    await pinIs('pinned');
    assert.deepEqual(await call(h, 'tools.changes', {}), []);
    const [acceptRecord] = await toolChanges('accepted');
    assert.deepEqual(acceptRecord?.details, {
      tool: 'fetch-page',
      oldFingerprint: v1Print,
      newFingerprint: changed.trust?.fingerprint,
      via: 'review',
    });

    // "Always" holds again: silent, and it runs.
    const restored = await fetchTurn();
    assert.equal(restored.card, undefined, 'the standing approval is back');
    assert.equal(await approvalOf(restored.convId), 'allow-listed');
    assert.equal((await stats()).calls['fetch-page'], 3);
  });

  test('allowing the call on a card that shows a change accepts it', async () => {
    await h.host.callTool('rug', 'flip', {});
    await pinIs('changed');
    const turn = await fetchTurn();
    assert.ok(turn.card?.change, 'asks, with the change');
    assert.ok(h.broker.respond(turn.card.id, { kind: 'tool-approval', choice: 'once' }));
    await turn.done;
    await pinIs('pinned');
    const [latest] = await toolChanges('accepted');
    assert.equal(latest?.details?.via, 'approval');
    const next = await fetchTurn();
    assert.equal(next.card, undefined, '"always" applies again without another card');
  });

  test('a tool removed and offered again counts as changed, even when it reads the same', async () => {
    const before = fetchPage()?.trust?.fingerprint;
    await h.host.callTool('rug', 'hide', {});
    await waitFor('fetch-page withdrawn', () => (fetchPage() ? undefined : true));
    assert.equal((await toolChanges('removed'))[0]?.details?.tool, 'fetch-page');
    await h.host.callTool('rug', 'show', {});
    const back = await pinIs('changed');
    assert.equal(back.trust?.fingerprint, before, 'the very same definition');
    const [change] = await call(h, 'tools.changes', {});
    assert.equal(change?.readded, true);
    const turn = await fetchTurn();
    assert.match(turn.card?.reason ?? '', /removed by its server and offered again/);
    assert.ok(turn.card && h.broker.respond(turn.card.id, { kind: 'tool-approval', choice: 'deny' }));
    await turn.done;
    assert.deepEqual(await call(h, 'tools.acceptChange', { serverId: 'rug', tool: 'fetch-page' }), {
      accepted: true,
    });
    await pinIs('pinned');
  });

  test('another server of the same name (another command) inherits no pins', async () => {
    const oldConfig = h.host.serverConfig('rug');
    assert.ok(oldConfig);
    // The v2 definition differs from the pin above, but this is another server: pinned afresh.
    const config = nodeServer(RUG, [], { env: { RUG_START: 'v2' } }) as ServerConfig;
    assert.equal((await stats()).version, 'v1');
    await h.host.update('rug', config);
    await waitForState(h.host, 'rug', 'connected');
    assert.equal((await stats()).version, 'v2');
    const fresh = await pinIs('pinned');
    assert.match(fresh.tool.description ?? '', /id_rsa/);
    assert.deepEqual(await call(h, 'tools.changes', {}), []);
    await h.toolTrust.flush();
    const file = JSON.parse(await readFile(join(h.dir, 'data', 'tool-pins.json'), 'utf8')) as {
      servers: { serverId: string; launchKey: string }[];
    };
    assert.deepEqual(
      file.servers.map((s) => [s.serverId, s.launchKey]).sort(),
      [
        ['rug', launchKey(oldConfig)],
        ['rug', launchKey(config)],
      ].sort(),
    );
  });
});

test('a corrupt tool-pins.json is reported and set aside; its valid pins are kept', async () => {
  const local = new CleanupStack();
  try {
    const data = join(await tempDir(local), 'data');
    await mkdir(data, { recursive: true });
    const config = nodeServer(RUG) as ServerConfig;
    // A valid pin (of another definition, so the tool reads as changed) beside a broken entry.
    const definition = {
      name: 'fetch-page',
      description: 'What was approved',
      inputSchema: { type: 'object' },
    };
    const pin = {
      definition,
      fingerprint: fingerprintDefinition(definition),
      pinnedAt: '2026-01-01T00:00:00.000Z',
    };
    await writeFile(
      join(data, 'tool-pins.json'),
      JSON.stringify({
        version: 1,
        servers: [{ serverId: 'rug', launchKey: launchKey(config), tools: [pin, { definition: 7 }] }, 'junk'],
      }),
    );
    const warned: string[] = [];
    const warn = console.warn;
    console.warn = (m: unknown) => void warned.push(String(m));
    let host: TestHost;
    try {
      host = await createTestHost(local, { servers: { rug: config }, dataDir: data });
    } finally {
      console.warn = warn;
    }
    assert.equal(warned.length, 1);
    assert.match(
      warned[0],
      /tool pins file .*tool-pins\.json: servers\[0\]\.tools\[1\].*servers\[1\].*1 valid pin was kept.*kept as .*corrupt-/,
    );
    const [audited] = await host.audit.query({ kind: 'tool-change' });
    assert.equal(audited?.action, 'pins-unreadable');
    assert.ok((await readdir(data)).some((f) => f.startsWith('tool-pins.json.corrupt-')));
    await waitForState(host.host, 'rug', 'connected');
    const t = await pinIs('changed', host);
    assert.equal(t.tool.name, 'fetch-page');
    const [change] = await call(host, 'tools.changes', {});
    assert.equal(change?.pinned.description, 'What was approved');

    // Not JSON at all: still no crash, an empty start, the file kept aside.
    await local.run();
    const data2 = join(await tempDir(local), 'data');
    await mkdir(data2, { recursive: true });
    await writeFile(join(data2, 'tool-pins.json'), '{"version":1,"servers":[');
    console.warn = (m: unknown) => void warned.push(String(m));
    try {
      host = await createTestHost(local, { servers: { rug: config }, dataDir: data2 });
    } finally {
      console.warn = warn;
    }
    assert.match(warned[1] ?? '', /not JSON/);
    await waitForState(host.host, 'rug', 'connected');
    await pinIs('pinned', host);
    await host.toolTrust.flush();
    JSON.parse(await readFile(join(data2, 'tool-pins.json'), 'utf8'));
  } finally {
    await local.run();
  }
});
