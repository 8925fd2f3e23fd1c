/**
 * The host enforces roots where it touches files itself: a file:// resource read (and so a
 * chat attachment) outside the shared folders is refused before the server is asked. The
 * fixture server reads whatever it is given, so any refusal here is the host's.
 */
import assert from 'node:assert/strict';
import { mkdir, realpath, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import {
  CleanupStack,
  createTestHost,
  nodeServer,
  rejection,
  SERVERS,
  tempDir,
  textOf,
  waitForState,
  type TestHost,
} from '../helpers/host-harness.js';

describe('roots enforcement on host-side reads', { timeout: 120_000 }, () => {
  const stack = new CleanupStack();
  let t: TestHost;
  let shared: string;
  let outside: string;

  before(async () => {
    const dir = await realpath(await tempDir(stack));
    shared = join(dir, 'shared');
    outside = join(dir, 'outside');
    await mkdir(shared);
    await mkdir(outside);
    await writeFile(join(shared, 'in.txt'), 'inside');
    await writeFile(join(outside, 'secret.txt'), 'secret');
    await symlink(join(outside, 'secret.txt'), join(shared, 'escape.txt'));
    t = await createTestHost(stack, {
      servers: { files: nodeServer(SERVERS.fileResources) },
      roots: [shared],
    });
    await waitForState(t.host, 'files', 'connected');
  });
  after(() => stack.run());

  const reads = async (): Promise<string[]> =>
    JSON.parse(textOf(await t.host.callTool('files', 'reads', {}))) as string[];

  it('reads a file inside the roots', async () => {
    const result = await t.host.readResource('files', pathToFileURL(join(shared, 'in.txt')).href);
    assert.equal(result.contents[0]?.text, 'inside');
  });

  it('refuses a file outside the roots before the server sees it', async () => {
    const uri = pathToFileURL(join(outside, 'secret.txt')).href;
    const error = await rejection(t.host.readResource('files', uri));
    assert.equal(error.code, 'outside_roots');
    assert.ok(!(await reads()).includes(uri), 'the server was asked anyway');
  });

  it('refuses a .. escape and a symlink out of the roots', async () => {
    const dotdot = `${pathToFileURL(shared).href}/%2e%2e/outside/secret.txt`;
    const link = pathToFileURL(join(shared, 'escape.txt')).href;
    assert.equal((await rejection(t.host.readResource('files', dotdot))).code, 'outside_roots');
    assert.equal((await rejection(t.host.readResource('files', link))).code, 'outside_roots');
    const seen = await reads();
    assert.ok(!seen.includes(dotdot) && !seen.includes(link), JSON.stringify(seen));
  });

  it('a chat attachment outside the roots is refused too', async () => {
    const conv = await t.chat.create();
    const uri = pathToFileURL(join(outside, 'secret.txt')).href;
    const error = await rejection(t.chat.send(conv.id, 'summarise', [{ serverId: 'files', uri }]));
    assert.equal(error.code, 'outside_roots');
  });

  it('attaching a file through a symlink inside the roots that points out is refused', async () => {
    const conv = await t.chat.create();
    const link = pathToFileURL(join(shared, 'escape.txt')).href;
    const error = await rejection(t.chat.send(conv.id, 'summarise', [{ serverId: 'files', uri: link }]));
    assert.equal(error.code, 'outside_roots');
    assert.match(error.message, /outside the shared folders/);
    assert.ok(!(await reads()).includes(link), 'the server never read the link');
  });

  it('with no roots configured, reads work as before', async () => {
    await t.roots.set([]);
    const result = await t.host.readResource('files', pathToFileURL(join(outside, 'secret.txt')).href);
    assert.equal(result.contents[0]?.text, 'secret');
  });
});
