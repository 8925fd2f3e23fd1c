/**
 * The rotating log file (electron/host/diagnostics/rotating-log.ts): rotation by size keeps N
 * files, a full disk or an unwritable folder never throws (and is reported once), and entries
 * written at the same time by several processes never interleave.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { after, describe, it } from 'node:test';
import { RotatingLog } from '../../electron/host/diagnostics/rotating-log.js';
import { CleanupStack } from '../helpers/cleanup-stack.js';
import { tempDir } from '../helpers/temp-dir.js';

const stack = new CleanupStack();
after(() => stack.run());
const run = promisify(execFile);

describe('the rotating log', () => {
  it('rotates by size and keeps N files, the newest entries in main.log', async () => {
    const dir = join(await tempDir(stack), 'logs');
    const log = new RotatingLog(dir, { maxBytes: 1000, keep: 3 });
    for (let i = 0; i < 100; i++)
      assert.equal(log.write(`entry ${String(i).padStart(3, '0')} ${'x'.repeat(80)}`), true);
    assert.deepEqual(readdirSync(dir).sort(), ['main.log', 'main.log.1', 'main.log.2']);
    for (const f of log.files()) assert.ok(readFileSync(f).length <= 1000, `${f} outgrew the limit`);
    const live = readFileSync(join(dir, 'main.log'), 'utf8');
    assert.match(live, /entry 099 /);
    const older = readFileSync(join(dir, 'main.log.2'), 'utf8');
    const first = Number(/entry (\d+)/.exec(older)?.[1]);
    assert.ok(first > 50, 'the oldest files were deleted, not kept');
    // Entries are whole and consecutive across the kept files.
    const all = [older, readFileSync(join(dir, 'main.log.1'), 'utf8'), live].join('');
    const numbers = [...all.matchAll(/entry (\d+)/g)].map((m) => Number(m[1]));
    assert.deepEqual(
      numbers,
      numbers.map((_, i) => first + i),
    );
  });

  it('keep = 1: the one file starts over', async () => {
    const dir = await tempDir(stack);
    const log = new RotatingLog(dir, { maxBytes: 100, keep: 1 });
    for (let i = 0; i < 20; i++) log.write(`line ${i} ${'y'.repeat(20)}`);
    assert.deepEqual(readdirSync(dir), ['main.log']);
    assert.match(readFileSync(join(dir, 'main.log'), 'utf8'), /line 19 /);
  });

  it('never throws on a full disk or an unwritable folder, and reports it once', async () => {
    const failures: string[] = [];
    // /dev/full answers every write with ENOSPC: a real full disk.
    if (existsSync('/dev/full')) {
      const full = new RotatingLog('/dev', { fileName: 'full', onFailure: (e) => failures.push(e.message) });
      for (let i = 0; i < 5; i++) assert.equal(full.write('lost'), false);
      assert.equal(failures.length, 1);
      assert.match(failures[0] ?? '', /ENOSPC/);
    }
    // A "folder" that is a file cannot be created or written (root ignores chmod, not this).
    const file = join(await tempDir(stack), 'not-a-folder');
    writeFileSync(file, 'x');
    const reported: string[] = [];
    const blocked = new RotatingLog(join(file, 'logs'), { onFailure: (e) => reported.push(e.message) });
    for (let i = 0; i < 5; i++) assert.equal(blocked.write('lost'), false);
    assert.equal(reported.length, 1);
    assert.match(reported[0] ?? '', /ENOTDIR|EEXIST/);
  });

  it('entries written at once by several processes never interleave', async () => {
    const dir = await tempDir(stack);
    const writers = 4;
    const perWriter = 300;
    const script = `
      const { RotatingLog } = await import(${JSON.stringify(resolve('electron/host/diagnostics/rotating-log.ts'))});
      const log = new RotatingLog(process.argv[1], { maxBytes: 64 * 1024 * 1024 });
      const id = process.argv[2];
      for (let i = 0; i < ${perWriter}; i++) log.write('<' + id + ':' + i + ':' + id.repeat(200) + '>\\n    <' + id + '>');
    `;
    await Promise.all(
      Array.from({ length: writers }, (_, w) =>
        run(process.execPath, [
          '--import',
          'tsx',
          '--input-type=module',
          '-e',
          script,
          dir,
          String.fromCharCode(97 + w),
        ]),
      ),
    );
    const lines = readFileSync(join(dir, 'main.log'), 'utf8').trimEnd().split('\n');
    assert.equal(lines.length, writers * perWriter * 2);
    for (let i = 0; i < lines.length; i += 2) {
      const m = /^<([a-d]):(\d+):([a-d]+)>$/.exec(lines[i] ?? '');
      assert.ok(m, `a torn entry: ${lines[i]?.slice(0, 80)}`);
      assert.equal(m[3], (m[1] ?? '').repeat(200));
      assert.equal(lines[i + 1], `    <${m[1]}>`, 'an entry continued by another writer');
    }
  });
});
