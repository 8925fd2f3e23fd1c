import assert from 'node:assert/strict';
import { appendFile, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  auditDay,
  FileAuditLog,
  MemoryAuditLog,
  type AuditLog,
} from '../../electron/host/audit/audit-log.js';
import { REDACTED, Redactor } from '../../electron/host/util/redact.js';
import { tempDir } from '../helpers/temp-dir.js';

/** A clock the test moves by hand. */
function clock(start: number): { now: () => number; set: (t: number) => void } {
  let t = start;
  return { now: () => t, set: (v) => (t = v) };
}

const DAY1 = Date.parse('2026-03-01T23:59:58Z');
const DAY2 = Date.parse('2026-03-02T00:00:01Z');

function fill(log: AuditLog, c: { set: (t: number) => void }): void {
  c.set(DAY1);
  log.append({ kind: 'connection', serverId: 'a', action: 'connected' });
  log.append({ kind: 'tool-call', serverId: 'a', action: 'call-start', details: { tool: 'echo' } });
  c.set(DAY1 + 1000);
  log.append({ kind: 'tool-call', serverId: 'b', action: 'call-start', details: { tool: 'add' } });
  c.set(DAY2);
  log.append({ kind: 'approval', serverId: 'b', action: 'requested' });
}

for (const [name, make] of [
  ['FileAuditLog', async (now: () => number) => new FileAuditLog(await tempDir(), new Redactor(), { now })],
  ['MemoryAuditLog', async (now: () => number) => new MemoryAuditLog(new Redactor(), { now })],
] as const) {
  describe(`${name}: append and query`, () => {
    it('returns records newest first, filtered by server, kind and time, within the limit', async () => {
      const c = clock(DAY1);
      const log = await make(c.now);
      fill(log, c);
      const all = await log.query();
      assert.deepEqual(
        all.map((r) => r.action),
        ['requested', 'call-start', 'call-start', 'connected'],
      );
      assert.deepEqual(
        all.map((r) => r.seq),
        [4, 3, 2, 1],
      );
      assert.deepEqual(
        (await log.query({ serverId: 'a' })).map((r) => r.action),
        ['call-start', 'connected'],
      );
      assert.deepEqual(
        (await log.query({ kind: 'tool-call' })).map((r) => r.serverId),
        ['b', 'a'],
      );
      assert.deepEqual(
        (await log.query({ from: DAY1 + 500 })).map((r) => r.kind),
        ['approval', 'tool-call'],
      );
      assert.deepEqual(
        (await log.query({ to: DAY1 })).map((r) => r.kind),
        ['tool-call', 'connection'],
      );
      assert.deepEqual(
        (await log.query({ from: DAY1 + 1000, to: DAY1 + 1000 })).map((r) => r.serverId),
        ['b'],
      );
      assert.equal((await log.query({ limit: 2 })).length, 2);
      assert.deepEqual((await log.query({ limit: 1 }))[0]?.action, 'requested');
      const exported = await log.export({ serverId: 'b' });
      assert.deepEqual(
        exported
          .trimEnd()
          .split('\n')
          .map((l) => (JSON.parse(l) as { action: string }).action),
        ['call-start', 'requested'],
      );
      await log.dispose();
    });

    it('redacts secret-named fields and known secret values before keeping a record', async () => {
      const redactor = new Redactor();
      redactor.addSecret('sk-very-secret-value');
      const log =
        name === 'FileAuditLog' ? new FileAuditLog(await tempDir(), redactor) : new MemoryAuditLog(redactor);
      log.append({
        kind: 'tool-call',
        serverId: 's',
        action: 'call-start',
        details: {
          args: {
            apiKey: 'plain-key-123',
            note: 'uses sk-very-secret-value here',
            auth: 'Bearer abcdefghijk',
          },
        },
      });
      const [r] = await log.query();
      const text = JSON.stringify(r);
      assert.ok(
        !text.includes('plain-key-123') &&
          !text.includes('sk-very-secret-value') &&
          !text.includes('abcdefghijk'),
        text,
      );
      assert.ok(text.includes(REDACTED));
      await log.dispose();
    });
  });
}

describe('FileAuditLog on disk', () => {
  it('writes one JSON line per record into a file per UTC day', async () => {
    const dir = await tempDir();
    const c = clock(DAY1);
    const log = new FileAuditLog(dir, new Redactor(), { now: c.now });
    fill(log, c);
    await log.flush();
    assert.deepEqual((await readdir(dir)).sort(), [
      `audit-${auditDay(DAY1)}.jsonl`,
      `audit-${auditDay(DAY2)}.jsonl`,
    ]);
    assert.equal(auditDay(DAY1), '2026-03-01');
    const first = await readFile(join(dir, 'audit-2026-03-01.jsonl'), 'utf8');
    assert.ok(first.endsWith('\n'));
    assert.equal(first.trimEnd().split('\n').length, 3);
    for (const line of first.trimEnd().split('\n')) assert.doesNotThrow(() => JSON.parse(line));
    // A query bounded to the second day never needs the first day's file, and still finds its records.
    assert.deepEqual(
      (await log.query({ from: DAY2 - 1 })).map((r) => r.action),
      ['requested'],
    );
    await log.dispose();
  });

  it('skips a last line cut short by a crash, and the next record starts on a fresh line', async () => {
    const dir = await tempDir();
    const c = clock(DAY1);
    const first = new FileAuditLog(dir, new Redactor(), { now: c.now });
    first.append({ kind: 'connection', serverId: 'a', action: 'connected' });
    await first.dispose();
    const file = join(dir, 'audit-2026-03-01.jsonl');
    await appendFile(file, '{"seq":2,"at":17,"kind":"tool-c');
    const second = new FileAuditLog(dir, new Redactor(), { now: c.now });
    assert.deepEqual(
      (await second.query()).map((r) => r.action),
      ['connected'],
    );
    second.append({ kind: 'connection', serverId: 'a', action: 'disconnected' });
    assert.deepEqual(
      (await second.query()).map((r) => r.action),
      ['disconnected', 'connected'],
    );
    await second.dispose();
  });

  it('keeps call order under many concurrent appends, and never interleaves two lines', async () => {
    const dir = await tempDir();
    const log = new FileAuditLog(dir, new Redactor());
    const big = 'x'.repeat(20_000);
    const n = 300;
    await Promise.all(
      Array.from({ length: n }, async (_, i) => {
        log.append({ kind: 'tool-call', serverId: `s${i % 3}`, action: 'call-start', details: { i, big } });
      }),
    );
    await log.flush();
    const [name] = await readdir(dir);
    const lines = (await readFile(join(dir, name), 'utf8')).split('\n');
    assert.equal(lines.pop(), '');
    assert.equal(lines.length, n);
    lines.forEach((line, i) => {
      const r = JSON.parse(line) as { seq: number; details: { i: number; big: string } };
      assert.equal(r.details.i, i);
      assert.equal(r.seq, i + 1);
      assert.equal(r.details.big.length, 20_000);
    });
    assert.equal((await log.query({ limit: n + 10 })).length, n);
    await log.dispose();
  });

  it('shrinks an oversized record to the names of its details', async () => {
    const log = new FileAuditLog(await tempDir(), new Redactor());
    log.append({
      kind: 'tool-call',
      action: 'call-start',
      details: { tool: 't', args: { blob: 'y'.repeat(200_000) } },
    });
    const [r] = await log.query();
    assert.deepEqual(r?.details, { truncated: true, keys: ['tool', 'args'] });
    await log.dispose();
  });

  it('drops records appended after dispose and reads an empty or missing directory as empty', async () => {
    const dir = join(await tempDir(), 'not-yet');
    const log = new FileAuditLog(dir, new Redactor());
    assert.deepEqual(await log.query(), []);
    await log.dispose();
    log.append({ kind: 'auth', action: 'late' });
    assert.deepEqual(await log.query(), []);
  });
});
