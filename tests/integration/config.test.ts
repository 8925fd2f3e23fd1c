/**
 * The config file as people write it: bad entries sit next to good ones without taking
 * them down and survive saves byte-for-byte in meaning; `${env:NAME}` references expand
 * into args and env, and a missing variable is a clear, named error.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, describe, it } from 'node:test';
import type { ServerConfig } from '../../shared/domain/server-config.js';
import {
  CleanupStack,
  createTestHost,
  failedError,
  nodeServer,
  rejection,
  SERVERS,
  summaryOf,
  textOf,
  waitForState,
} from '../helpers/host-harness.js';

type ConfigFile = { mcpServers: Record<string, unknown> } & Record<string, unknown>;

describe('config entries', { timeout: 120_000 }, () => {
  const stack = new CleanupStack();
  after(() => stack.run());

  const bad: Record<string, { raw: unknown; field: RegExp }> = {
    'empty-command': { raw: { command: '', args: ['x'] }, field: /command/ },
    'bad-url': { raw: { url: 'not a url', headers: { 'X-Keep': 'me' } }, field: /url/ },
    neither: { raw: { foo: 1, nested: { keep: [1, 2, 3] } }, field: /"command".*"url"|command|url/ },
    'wrong-type': { raw: { command: 'node', args: 'not-an-array' }, field: /args/ },
  };

  it('starts the good entry, fails each bad one naming server and field, and keeps them on save', async () => {
    const servers: Record<string, unknown> = { good: nodeServer(SERVERS.crash) };
    for (const [name, b] of Object.entries(bad)) servers[name] = b.raw;
    const rest = { globalShortcut: 'CmdOrCtrl+Shift+M', theme: { dark: true } };
    const t = await createTestHost(stack, { servers, rest });

    await waitForState(t.host, 'good', 'connected');
    for (const [name, b] of Object.entries(bad)) {
      const s = summaryOf(t.host, name);
      const error = failedError(s);
      assert.equal(error.code, 'config_invalid');
      assert.ok(error.message.includes(`"${name}"`), `names the server: ${error.message}`);
      assert.match(error.message, b.field, `names the field: ${error.message}`);
      assert.equal(s.config, null);
      assert.deepEqual(s.invalidEntry, b.raw, 'the raw entry is there to fix in place');
      assert.ok(t.host.log(name).some((l) => l.text.includes('not started')));
      assert.equal((await rejection(t.host.setEnabled(name, true))).code, 'config_invalid');
      assert.equal((await rejection(t.host.restart(name))).code, 'config_invalid');
      assert.equal((await rejection(t.host.callTool(name, 'echo', {}))).code, 'config_invalid');
    }

    // An unrelated change rewrites the file; the bad entries and other keys must survive it.
    await t.host.add('added', nodeServer(SERVERS.crash) as ServerConfig);
    await t.host.setEnabled('good', false);
    const saved = JSON.parse(await readFile(t.configPath, 'utf8')) as ConfigFile;
    for (const [name, b] of Object.entries(bad))
      assert.deepEqual(saved.mcpServers[name], b.raw, `${name} round-trips untouched`);
    assert.deepEqual(saved.globalShortcut, rest.globalShortcut);
    assert.deepEqual(saved.theme, rest.theme);
    assert.ok(saved.mcpServers.added, 'the new entry is saved');
    assert.deepEqual(saved.mcpServers.good, { ...(servers.good as object), disabled: true });
    await waitForState(t.host, 'added', 'connected');
  });

  it('refuses a duplicate name on add', async () => {
    const t = await createTestHost(stack, { servers: { one: nodeServer(SERVERS.crash) } });
    assert.equal(
      (await rejection(t.host.add('one', nodeServer(SERVERS.crash) as ServerConfig))).code,
      'server_exists',
    );
  });

  it('imports an mcpServers document, skipping existing and invalid names', async () => {
    const t = await createTestHost(stack, { servers: { one: nodeServer(SERVERS.crash) } });
    const doc = {
      mcpServers: { one: nodeServer(SERVERS.crash), two: nodeServer(SERVERS.crash), broken: { command: '' } },
    };
    const result = await t.host.import(JSON.stringify(doc));
    assert.deepEqual(result.added, ['two']);
    assert.deepEqual(result.skipped.map((s) => s.name).sort(), ['broken', 'one']);
    await waitForState(t.host, 'two', 'connected');
    assert.equal((await rejection(t.host.import('{not json'))).code, 'import_invalid');
  });
});

describe('${env:NAME} references', { timeout: 120_000 }, () => {
  const stack = new CleanupStack();
  after(() => stack.run());

  it('expands references in args and env, and names a missing variable', async () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DESK_IT_EVERYTHING: SERVERS.everything,
      DESK_IT_GREETING: 'hello-from-env',
    };
    delete env.DESK_IT_SURELY_UNSET;
    const t = await createTestHost(stack, {
      env,
      servers: {
        expanded: {
          command: process.execPath,
          args: ['${env:DESK_IT_EVERYTHING}', 'stdio'],
          env: { GREETING: 'pre-${env:DESK_IT_GREETING}-post' },
        },
        missing: {
          command: process.execPath,
          args: [SERVERS.crash],
          env: { SOME_VALUE: '${env:DESK_IT_SURELY_UNSET}' },
        },
      },
    });
    await waitForState(t.host, 'expanded', 'connected');
    const printed = JSON.parse(textOf(await t.host.callTool('expanded', 'get-env', {}))) as Record<
      string,
      string
    >;
    assert.equal(printed.GREETING, 'pre-hello-from-env-post');
    // The config itself keeps the reference, not the value.
    const shown = summaryOf(t.host, 'expanded').config as { env?: Record<string, string> } | null;
    assert.deepEqual(shown?.env, { GREETING: 'pre-${env:DESK_IT_GREETING}-post' });
    // The host's unrelated environment does not leak into a server.
    assert.equal(printed.DESK_IT_EVERYTHING, undefined);

    const error = failedError(await waitForState(t.host, 'missing', 'failed'));
    assert.equal(error.code, 'config_invalid');
    assert.match(error.message, /"missing"/);
    assert.match(error.message, /env\.SOME_VALUE/);
    assert.match(error.message, /DESK_IT_SURELY_UNSET/);
  });
});
