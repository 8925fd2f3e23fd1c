/**
 * electron-updater's real check, download and sha512 verification against a local feed
 * (tests/helpers/update-feed.ts), seen through our adapter (ElectronUpdaterSource): an update is
 * found with its notes, downloaded byte-exact, and a file whose bytes do not match the
 * published sha512 is refused with a clear error and not kept.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { UpdateDownloadedEvent } from 'electron-updater';
import { ElectronUpdaterSource } from '../../electron/main/updates/electron-updater-source.js';
import type { UpdateSourceEvents } from '../../electron/main/updates/updater-port.js';
import { localUpdater, startUpdateFeed } from '../helpers/update-feed.js';
import { tempDir } from '../helpers/temp-dir.js';
import { waitFor } from '../helpers/wait.js';

let root = '';
before(async () => {
  root = await tempDir(undefined, 'mcp-desk-updater-');
});

/** Every event the source reported, in order. */
function record(source: ElectronUpdaterSource): { event: keyof UpdateSourceEvents; value: unknown }[] {
  const seen: { event: keyof UpdateSourceEvents; value: unknown }[] = [];
  source.on('available', (u) => seen.push({ event: 'available', value: u }));
  source.on('not-available', () => seen.push({ event: 'not-available', value: null }));
  source.on('downloaded', (u) => seen.push({ event: 'downloaded', value: u }));
  source.on('error', (m) => seen.push({ event: 'error', value: m }));
  return seen;
}

describe('electron-updater against a local feed', { timeout: 60_000 }, () => {
  it('finds a newer version, downloads it and verifies its sha512', async () => {
    const feed = await startUpdateFeed('0.2.0');
    try {
      const updater = localUpdater(feed.url, join(root, 'good'), '0.1.0');
      let downloaded: UpdateDownloadedEvent | undefined;
      updater.on('update-downloaded', (e) => (downloaded = e));
      const source = new ElectronUpdaterSource(updater);
      const seen = record(source);

      await source.checkForUpdates();
      assert.deepEqual(seen, [
        {
          event: 'available',
          value: { version: '0.2.0', releaseNotes: 'What changed\n\n• Faster tool calls\n• Fixes & polish' },
        },
      ]);
      await source.downloadUpdate();
      assert.equal(seen.at(-1)?.event, 'downloaded', JSON.stringify(seen));
      assert.equal(feed.downloads(), 1);

      const file = downloaded?.downloadedFile;
      assert.ok(file && existsSync(file), 'the update file is kept for the install');
      const bytes = readFileSync(file);
      assert.equal(bytes.length, feed.size);
      assert.equal(createHash('sha512').update(bytes).digest('base64'), feed.sha512);

      // Asking again finds the verified file in the cache: nothing is fetched twice.
      await source.checkForUpdates();
      await source.downloadUpdate();
      assert.equal(feed.downloads(), 1);
    } finally {
      await feed.close();
    }
  });

  it('refuses a file whose bytes do not match the published sha512, and keeps nothing', async () => {
    const feed = await startUpdateFeed('0.2.0');
    feed.corrupt();
    try {
      const dir = join(root, 'corrupt');
      const source = new ElectronUpdaterSource(localUpdater(feed.url, dir, '0.1.0'));
      const seen = record(source);
      await source.checkForUpdates();
      await source.downloadUpdate();
      const error = await waitFor('the error event', () => seen.find((s) => s.event === 'error'));
      assert.equal(feed.downloads(), 1, JSON.stringify(seen));
      assert.match(
        String(error.value),
        new RegExp(`^sha512 checksum mismatch, expected ${feed.sha512.replace(/[+/]/g, '\\$&')}, got \\S+$`),
      );
      assert.ok(!seen.some((s) => s.event === 'downloaded'), 'never reported as ready');
      const pending = join(dir, 'cache', 'mcp-desk-updater', 'pending');
      const left = existsSync(pending) ? readdirSync(pending).filter((f) => f.endsWith('.AppImage')) : [];
      assert.deepEqual(left, [], 'the refused file is deleted');
    } finally {
      await feed.close();
    }
  });

  it('reports nothing newer when the running version is the latest', async () => {
    const feed = await startUpdateFeed('0.2.0');
    try {
      const source = new ElectronUpdaterSource(localUpdater(feed.url, join(root, 'same'), '0.2.0'));
      const seen = record(source);
      await source.checkForUpdates();
      assert.deepEqual(seen, [{ event: 'not-available', value: null }]);
      assert.equal(feed.downloads(), 0);
    } finally {
      await feed.close();
    }
  });
});
