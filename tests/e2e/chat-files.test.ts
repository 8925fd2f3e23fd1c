// A chat's files and instructions (issue 24 §2), end to end: local files and images attached by
// the picker, a drop and a paste, checked (type, size) and sent as Gemini inline parts, shown as
// chips in the composer and the message; and a system prompt and temperature per conversation
// over defaults set in Settings. Real browser mode, real Chromium, server-everything, the
// wire-exact fake Gemini (its recorded requests are what is asserted).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { reply, text, type RecordedRequest } from '../fixtures/fake-gemini.js';
import { pageOrSkip } from '../helpers/chromium.js';
import { shotSet } from '../helpers/chat-e2e-checks.js';
import { chatSkipReason as skipReason, EVERYTHING_STDIO } from '../helpers/e2e-app.js';
import { openConnected, useE2eSession } from '../helpers/e2e-session.js';
import { answer, newChat, send } from '../helpers/chat-column-steps.js';

const API_KEY = `e2e-${randomBytes(12).toString('hex')}`;
const STEP = 30_000;
const e2e = useE2eSession({
  name: 'chat-files',
  skipReason,
  gemini: { apiKey: API_KEY, script: [] },
  config: { mcpServers: { everything: EVERYTHING_STDIO } },
  viewport: { width: 1300, height: 860 },
  ownContext: true,
  ready: async (session) => {
    await openConnected(session.page, session.mode.url, ['everything']);
    await session.storeKey(session.page);
  },
});
const { shot, withEvidence } = e2e;

// A 1x1 PNG (signature, IHDR, IDAT, IEND): real image bytes the host's check accepts.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

function lastRequest(): RecordedRequest {
  const r = e2e.gemini!.generateRequests().at(-1);
  assert.ok(r?.body, 'the model was asked');
  return r;
}

/** The inline parts of the request's last user turn: their MIME types and decoded bytes. */
function inlineParts(r: RecordedRequest): { mimeType: string; bytes: Buffer }[] {
  const user = (r.body?.contents ?? []).filter((c) => c.role === 'user').at(-1);
  return (user?.parts ?? []).flatMap((part) => {
    const inline = (part as { inlineData?: { mimeType: string; data: string } }).inlineData;
    return inline ? [{ mimeType: inline.mimeType, bytes: Buffer.from(inline.data, 'base64') }] : [];
  });
}

test(
  'local files and images attach by picker, drop and paste, and reach Gemini as inline parts',
  { timeout: 120_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, e2e.page);
    if (!p) return;
    await withEvidence(p, 'files', async () => {
      await newChat(p);
      // The picker.
      await p.getByTestId('attach-file-input').setInputFiles([
        { name: 'dot.png', mimeType: 'image/png', buffer: PNG },
        { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('the notes say: seven') },
      ]);
      // A drop on the composer.
      await p.getByTestId('composer').evaluate((el) => {
        const dt = new DataTransfer();
        dt.items.add(new File(['%PDF-1.4\n% a tiny pdf\n'], 'paper.pdf', { type: 'application/pdf' }));
        el.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
        el.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      });
      // A paste into the message box.
      await p.getByTestId('chat-input').evaluate((el) => {
        const dt = new DataTransfer();
        dt.items.add(new File(['a,b\n1,2\n'], 'table.csv', { type: 'text/csv' }));
        el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
      });
      // One that cannot go: the chip says why, and Send waits until it is removed.
      await p
        .getByTestId('attach-file-input')
        .setInputFiles([
          { name: 'tool.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') },
        ]);
      const chips = p.getByTestId('file-chip');
      await chips.nth(4).waitFor({ timeout: STEP });
      await p.locator('[data-testid="file-chip"][data-state="ready"]').nth(3).waitFor({ timeout: STEP });
      const bad = chips.filter({ hasText: 'tool.exe' });
      assert.equal(await bad.getAttribute('data-state'), 'error');
      assert.match(
        (await bad.getByTestId('file-chip-error').textContent()) ?? '',
        /only images .* PDF and text/,
      );
      await p.getByTestId('chat-input').fill('what is in these?');
      assert.equal(
        await p.getByTestId('chat-send').isDisabled(),
        true,
        'a refused file holds the message back',
      );
      await shotSet(p, shot, '04-file-chips');
      await bad.getByTestId('file-remove').click();

      e2e.gemini!.enqueue(reply(text('Four files read.')));
      await p.getByTestId('chat-input').press('Enter');
      await answer(p, 'Four files read.').waitFor({ timeout: STEP });
      const sent = inlineParts(lastRequest());
      assert.deepEqual(
        sent.map((s) => s.mimeType),
        ['image/png', 'text/plain', 'application/pdf', 'text/plain'],
        'each file as its own inline part, text files as text/plain',
      );
      assert.ok(sent[0].bytes.equals(PNG), 'the image bytes arrive unchanged');
      assert.equal(sent[1].bytes.toString(), 'the notes say: seven');
      assert.equal(sent[3].bytes.toString(), 'a,b\n1,2\n');
      const message = p.getByTestId('message-user').locator('..');
      assert.equal(await message.getByTestId('message-file').count(), 4, 'the message shows its files');
      assert.equal(await chips.count(), 0, 'the composer is empty again');

      // Too large for one file: refused before upload, with the limit named.
      // From a file on disk: Playwright streams a path to a browser it is connected to (npm test's
      // shared Chromium), where a 6 MB buffer would travel in one protocol message.
      const hugeDir = await mkdtemp(join(tmpdir(), 'chat-files-'));
      const hugePath = join(hugeDir, 'huge.txt');
      await writeFile(hugePath, Buffer.alloc(6 * 1024 * 1024, 0x61));
      // Removed when the page has read it (the refusal shows), not before: a local browser reads lazily.
      await p.getByTestId('attach-file-input').setInputFiles(hugePath);
      const huge = chips.filter({ hasText: 'huge.txt' });
      await huge.waitFor();
      assert.match((await huge.getByTestId('file-chip-error').textContent()) ?? '', /over the 5\.0 MB/);
      await huge.getByTestId('file-remove').click();
      await rm(hugeDir, { recursive: true, force: true });
    });
  },
);

test(
  'a system prompt and temperature per conversation, over defaults from Settings',
  { timeout: 120_000 },
  async (t) => {
    const p = pageOrSkip(t, skipReason, e2e.page);
    if (!p) return;
    await withEvidence(p, 'model-settings', async () => {
      await p.getByTestId('nav-settings').click();
      await p.getByTestId('defaults-system-prompt').fill('Answer like a pirate.');
      await p.getByTestId('defaults-temperature').fill('0.3');
      await p.getByTestId('defaults-save').click();
      await p.getByTestId('defaults-note').filter({ hasText: 'Saved.' }).waitFor({ timeout: STEP });
      await p.getByTestId('nav-chat').click();

      await newChat(p);
      e2e.gemini!.enqueue(reply(text('Arr.')));
      await send(p, 'hello with defaults');
      await answer(p, 'Arr.').waitFor({ timeout: STEP });
      let body = lastRequest().body!;
      const systemOf = (b: typeof body) =>
        (b.systemInstruction?.parts ?? []).map((x) => ('text' in x ? x.text : '')).join('');
      assert.match(systemOf(body), /Answer like a pirate\./);
      assert.equal(body.generationConfig?.temperature, 0.3);
      await p.getByTestId('chat-send').waitFor({ timeout: STEP });

      // This chat's own: another prompt and temperature.
      await p.getByTestId('settings-open').click();
      await p.getByTestId('conversation-system-prompt').fill('Answer in haiku.');
      await p.getByTestId('conversation-temperature').fill('1.4');
      await p.getByTestId('conversation-save').click();
      await p
        .getByTestId('conversation-model-state')
        .filter({ hasText: 'its own' })
        .waitFor({ timeout: STEP });
      await shotSet(p, shot, '05-conversation-model');
      await p.getByTestId('settings-close').click();
      e2e.gemini!.enqueue(reply(text('Five seven five.')));
      await send(p, 'hello with my own');
      await answer(p, 'Five seven five.').waitFor({ timeout: STEP });
      body = lastRequest().body!;
      assert.match(systemOf(body), /Answer in haiku\./);
      assert.doesNotMatch(systemOf(body), /pirate/);
      assert.equal(body.generationConfig?.temperature, 1.4);

      // Another chat still follows the defaults.
      await newChat(p);
      e2e.gemini!.enqueue(reply(text('Arr again.')));
      await send(p, 'hello elsewhere');
      await answer(p, 'Arr again.').waitFor({ timeout: STEP });
      body = lastRequest().body!;
      assert.match(systemOf(body), /pirate/);
      assert.equal(body.generationConfig?.temperature, 0.3);

      // A temperature out of range is refused in the form.
      await p.getByTestId('nav-settings').click();
      await p.getByTestId('defaults-temperature').fill('3');
      assert.equal(await p.getByTestId('defaults-save').isDisabled(), true);
      await p.getByTestId('defaults-temperature').fill('');
      await p.getByTestId('defaults-system-prompt').fill('');
      await p.getByTestId('defaults-save').click();
      await p.getByTestId('defaults-note').filter({ hasText: 'Saved.' }).waitFor({ timeout: STEP });
      await p.getByTestId('nav-chat').click();
    });
  },
);
