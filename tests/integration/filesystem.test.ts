/**
 * The reference server-filesystem over stdio, confined to a temp directory: reads inside
 * it work, reads outside it come back as tool errors (isError), not as host failures.
 */
import assert from 'node:assert/strict';
import { mkdir, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  CleanupStack,
  createTestHost,
  nodeServer,
  SERVERS,
  tempDir,
  textOf,
  waitForState,
  type TestHost,
} from '../helpers/host-harness.js';

const ID = 'fs';
const CONTENT = 'line one\nline two: ünïcödé\n';

describe('server-filesystem over stdio', { timeout: 120_000 }, () => {
  const stack = new CleanupStack();
  let t: TestHost;
  let root: string;
  let outside: string;

  before(async () => {
    // realpath: on macOS /tmp is a symlink and the server compares resolved paths.
    const base = await realpath(await tempDir(stack, 'mcp-desk-fs-'));
    root = join(base, 'allowed');
    await mkdir(join(root, 'sub'), { recursive: true });
    await writeFile(join(root, 'notes.txt'), CONTENT);
    await writeFile(join(root, 'sub', 'deep.txt'), 'deep');
    outside = join(base, 'secret.txt');
    await writeFile(outside, 'not for the server');
    t = await createTestHost(stack, { servers: { [ID]: nodeServer(SERVERS.filesystem, [root]) } });
    await waitForState(t.host, ID, 'connected');
  });
  after(() => stack.run());

  it('lists its tools', () => {
    const names = t.host
      .catalog()
      .tools.filter((x) => x.serverId === ID)
      .map((x) => x.tool.name);
    for (const n of ['read_text_file', 'list_directory', 'write_file', 'list_allowed_directories'])
      assert.ok(names.includes(n), `${n} in ${names.join(',')}`);
  });

  it('reads a file inside the allowed directory', async () => {
    const result = await t.host.callTool(ID, 'read_text_file', { path: join(root, 'notes.txt') });
    assert.notEqual(result.isError, true, textOf(result));
    assert.equal(textOf(result), CONTENT);
    // It declares an outputSchema, so the same content arrives structured too.
    assert.deepEqual(result.structuredContent, { content: CONTENT });
  });

  it('lists a directory', async () => {
    const result = await t.host.callTool(ID, 'list_directory', { path: root });
    assert.match(textOf(result), /\[FILE\] notes\.txt/);
    assert.match(textOf(result), /\[DIR\] sub/);
  });

  it('returns isError for a path outside the allowed directory', async () => {
    for (const path of [outside, join(root, '..', 'secret.txt')]) {
      const result = await t.host.callTool(ID, 'read_text_file', { path });
      assert.equal(result.isError, true, `reading ${path} must fail`);
      assert.match(textOf(result), /access denied|outside allowed/i);
      assert.doesNotMatch(textOf(result), /not for the server/);
    }
  });

  it('returns isError for a missing file and keeps working', async () => {
    const result = await t.host.callTool(ID, 'read_text_file', { path: join(root, 'missing.txt') });
    assert.equal(result.isError, true);
    const again = await t.host.callTool(ID, 'read_text_file', { path: join(root, 'sub', 'deep.txt') });
    assert.equal(textOf(again), 'deep');
  });
});
