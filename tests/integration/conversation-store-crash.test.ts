// A crash in the middle of saving loses nothing that was saved before it: a real Node process
// runs the file store in a save loop and is SIGKILLed the moment a save's temp file appears, four
// times over; every file must then parse and hold every save that had completed. (Moved from
// tests/unit/conversation-store.test.ts: it starts and kills processes, which is not a unit test.)
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { watch } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Conversation } from '../../shared/domain/chat.js';
import { FileConversationStore } from '../../electron/host/stores/file-conversation-store.js';
import { tempDir } from '../helpers/temp-dir.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('FileConversationStore under a crash', () => {
  it(
    'a crash in the middle of saving loses nothing that was saved before it',
    { timeout: 120_000 },
    async (t) => {
      const scriptDir = await tempDir();
      const script = join(scriptDir, 'save-loop.mts');
      const storeUrl = pathToFileURL(join(ROOT, 'electron/host/stores/file-conversation-store.ts')).href;
      // A large first message makes each write take long enough for the kill to land inside it.
      await writeFile(
        script,
        `import { FileConversationStore } from ${JSON.stringify(storeUrl)};
const store = new FileConversationStore(process.argv[2], { onWarning: () => {} });
const convs = [await store.create('a'), await store.create('b'), await store.create('c')];
const blob = 'y'.repeat(2_000_000);
for (const c of convs) c.messages.push({ id: 'blob', role: 'user', createdAt: 0, parts: [{ type: 'text', text: blob }] });
for (let i = 0; ; i++) {
  for (const c of convs) c.messages.push({ id: 'm' + i, role: 'user', createdAt: i, parts: [{ type: 'text', text: String(i) }] });
  await Promise.all(convs.map((c) => store.save(c)));
  process.stdout.write(i + '\\n');
}
`,
      );
      let killedMidWrite = 0;
      const children: ChildProcess[] = [];
      // A failed assertion must not leave a save loop running (it would also keep the runner alive).
      t.after(() =>
        children.forEach((c) => c.exitCode === null && c.signalCode === null && c.kill('SIGKILL')),
      );
      for (let round = 0; round < 4; round++) {
        const dir = await tempDir();
        const child = spawn(process.execPath, ['--import', 'tsx', script, dir], {
          cwd: ROOT,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        children.push(child);
        let stderr = '';
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        const lastCompleted = await new Promise<number>((resolvePromise, reject) => {
          let buffer = '';
          let last = -1;
          let armed = false;
          child.stdout.on('data', (d: Buffer) => {
            buffer += d.toString();
            const lines = buffer.split('\n');
            buffer = lines.pop() ?? '';
            for (const line of lines) last = Number(line);
            if (last >= 5 && !armed) {
              armed = true;
              // Kill the moment a save's temp file appears: the process dies mid-write.
              const watcher = watch(dir, (_event, name) => {
                if (name?.endsWith('.tmp')) {
                  child.kill('SIGKILL');
                  watcher.close();
                }
              });
              // A writer that never makes a temp file (not atomic) still gets killed, mid-something.
              const fallback = setTimeout(() => child.kill('SIGKILL'), 2000);
              child.once('exit', () => {
                watcher.close();
                clearTimeout(fallback);
              });
            }
          });
          child.on('exit', (code, signal) => {
            if (signal === 'SIGKILL') resolvePromise(last);
            else reject(new Error(`save loop exited by itself (${code}): ${stderr}`));
          });
        });

        if ((await readdir(dir)).some((f) => f.endsWith('.tmp'))) killedMidWrite++;
        const files = (await readdir(dir)).filter((f) => f.endsWith('.json'));
        assert.equal(files.length, 3, `files: ${(await readdir(dir)).join(', ')}`);
        for (const f of files) {
          const conversation = JSON.parse(await readFile(join(dir, f), 'utf8')) as Conversation; // every file parses
          const ids = conversation.messages.map((m) => m.id);
          assert.ok(
            ids.length >= lastCompleted + 2,
            `${f}: ${ids.length - 1} messages, but save ${lastCompleted} had completed`,
          );
          assert.deepEqual(ids, ['blob', ...ids.slice(1).map((_, i) => `m${i}`)]);
        }
        const store = new FileConversationStore(dir, {
          onWarning: (m) => assert.fail(`unexpected warning: ${m}`),
        });
        assert.equal((await store.list()).length, 3);
      }
      // Leftover temp files prove the kills really interrupted writes (else the test proves little).
      assert.ok(killedMidWrite >= 1, 'no round was killed mid-write');
    },
  );
});
