/**
 * Folders added by path (a drop on the desktop window or the tray, the folder picker) through
 * the router, as the renderer and the tray call it: only existing folders are shared, each
 * refusal names its reason, and server-filesystem follows the change. The OS folder picker
 * cannot exist here (it is an Electron dialog), so the DesktopShell below is a stand-in that
 * answers as the picker would; everything behind it is real.
 */
import assert from 'node:assert/strict';
import { mkdir, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { RouteResult } from '../../electron/host/router.js';
import type { RootsAddResult } from '../../shared/ipc/contract.js';
import {
  CleanupStack,
  createTestHost,
  nodeServer,
  SERVERS,
  tempDir,
  textOf,
  waitFor,
  waitForState,
  type TestHost,
} from '../helpers/host-harness.js';

function value<T>(r: RouteResult): T {
  assert.ok(r.ok, `expected success, got ${JSON.stringify(r)}`);
  return r.value as T;
}

describe('roots.add, roots.pick and app.showConversation', { timeout: 120_000 }, () => {
  const stack = new CleanupStack();
  let t: TestHost;
  let base: string;
  const picked: string[][] = [];
  const shown: string[] = [];
  let pickAnswer: string[] = [];

  before(async () => {
    base = await realpath(await tempDir(stack, 'mcp-desk-add-'));
    await mkdir(join(base, 'a'));
    await mkdir(join(base, 'b'));
    await writeFile(join(base, 'file.txt'), 'not a folder');
    t = await createTestHost(stack, {
      // server-filesystem takes the client's roots as its allowed directories.
      servers: { fs: nodeServer(SERVERS.filesystem, [join(base, 'a')]) },
      shell: {
        pickFolders: async () => {
          picked.push(pickAnswer);
          return pickAnswer;
        },
        showConversation: (id) => shown.push(id),
      },
    });
    await waitForState(t.host, 'fs', 'connected');
  });
  after(() => stack.run());

  const allowed = async () => textOf(await t.host.callTool('fs', 'list_allowed_directories', {}));

  it('shares an existing folder, refuses a file, a missing path and a relative one, each with its reason', async () => {
    const result = value<RootsAddResult>(
      await t.router.handle('roots.add', {
        paths: [join(base, 'a'), join(base, 'file.txt'), join(base, 'missing'), 'relative/dir'],
      }),
    );
    assert.deepEqual(result.added, [join(base, 'a')]);
    assert.deepEqual(
      result.refused.map((r) => [r.path, r.reason]),
      [
        [join(base, 'file.txt'), 'not a folder (only folders can be shared)'],
        [join(base, 'missing'), 'no such folder'],
        ['relative/dir', 'not an absolute path'],
      ],
    );
    assert.deepEqual(result.roots, [{ uri: pathToFileURL(join(base, 'a')).href }]);
    await waitFor('server-filesystem to adopt root a', async () =>
      (await allowed()).includes(join(base, 'a')) ? true : undefined,
    );
  });

  it('does not duplicate a folder already shared, and fails clearly when nothing could be shared', async () => {
    const again = value<RootsAddResult>(await t.router.handle('roots.add', { paths: [join(base, 'a')] }));
    assert.deepEqual(again.added, []);
    assert.equal(again.roots.length, 1);
    const refused = await t.router.handle('roots.add', { paths: [join(base, 'file.txt')] });
    assert.equal(refused.ok, false);
    assert.equal(!refused.ok && refused.error.code, 'not_a_folder');
    assert.match(!refused.ok ? refused.error.message : '', /file\.txt: not a folder/);
    assert.equal(t.roots.list().length, 1, 'nothing changed');
  });

  it('roots.pick adds what the picker returned; a cancelled pick changes nothing', async () => {
    pickAnswer = [join(base, 'b')];
    const result = value<RootsAddResult>(await t.router.handle('roots.pick', {}));
    assert.deepEqual(result.added, [join(base, 'b')]);
    await waitFor('server-filesystem to adopt root b', async () =>
      (await allowed()).includes(join(base, 'b')) ? true : undefined,
    );
    pickAnswer = [];
    const cancelled = value<RootsAddResult>(await t.router.handle('roots.pick', {}));
    assert.deepEqual(cancelled, { roots: result.roots, added: [], refused: [] });
    assert.equal(picked.length, 2);
  });

  it('host.info says the folder picker exists', async () => {
    const info = value<{ features: { folderPicker: boolean } }>(await t.router.handle('host.info', {}));
    assert.equal(info.features.folderPicker, true);
  });

  it('app.showConversation tells every window and the shell, and refuses an unknown conversation', async () => {
    const conv = await t.chat.create('quick');
    const events: string[] = [];
    const off = t.events.on('app.showConversation', (e) => events.push(e.conversationId));
    try {
      value(await t.router.handle('app.showConversation', { conversationId: conv.id }));
      assert.deepEqual(events, [conv.id]);
      assert.deepEqual(shown, [conv.id]);
      const unknown = await t.router.handle('app.showConversation', { conversationId: 'nope' });
      assert.equal(unknown.ok, false);
      assert.deepEqual(events, [conv.id], 'no window was switched to nothing');
    } finally {
      off();
    }
  });
});

describe('without a desktop shell (browser mode, CLI)', { timeout: 60_000 }, () => {
  const stack = new CleanupStack();
  after(() => stack.run());

  it('roots.pick says there is no picker, and host.info says so too', async () => {
    const t = await createTestHost(stack, { init: false });
    const r = await t.router.handle('roots.pick', {});
    assert.equal(r.ok, false);
    assert.equal(!r.ok && r.error.code, 'unavailable');
    assert.match(!r.ok ? r.error.message : '', /type the folder path/);
    const info = value<{ features: { folderPicker: boolean } }>(await t.router.handle('host.info', {}));
    assert.equal(info.features.folderPicker, false);
  });
});
