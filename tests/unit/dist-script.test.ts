/**
 * `npm run dist` (scripts/dist.mjs) where Electron's release zip cannot be had: one line naming
 * the problem, exit code 1, no stack trace, and nothing built. The download really is tried,
 * against a local mirror (ELECTRON_MIRROR) that answers 404, with an empty download cache, so
 * the test behaves the same on machines that could reach github.com or have the zip cached.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../helpers/temp-dir.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

interface DistRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs scripts/dist.mjs with `env` on top of a copy of this environment without mirror settings. */
function runDist(env: Record<string, string>): Promise<DistRun> {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/electron_(mirror|custom)|electron_config_cache/i.test(name),
    ),
  );
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'scripts', 'dist.mjs')], {
      cwd: root,
      env: { ...base, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm run dist without a downloadable Electron', () => {
  let mirror: Server;
  const requested: string[] = [];

  before(async () => {
    mirror = createServer((request, response) => {
      requested.push(request.url ?? '');
      response.writeHead(404).end('not here');
    });
    await new Promise<void>((resolve) => mirror.listen(0, '127.0.0.1', resolve));
  });

  after(() => new Promise<void>((resolve) => mirror.close(() => resolve())));

  it('asks for the zip, then fails with exit 1 and one clear line, no stack trace', async () => {
    const { port } = mirror.address() as AddressInfo;
    const run = await runDist({
      ELECTRON_MIRROR: `http://127.0.0.1:${port}/`,
      electron_config_cache: await tempDir(undefined, 'mcp-desk-dist-cache-'),
      MCP_DESK_DIST_DOWNLOAD_TIMEOUT_MS: '30000',
    });
    assert.equal(run.code, 1);
    const lines = `${run.stdout}${run.stderr}`.split('\n').filter((line) => line.trim().length > 0);
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(
      run.stderr.trim(),
      /^dist: cannot download the Electron binary \(Electron \d+\.\d+\.\d+ for [a-z0-9]+-[a-z0-9]+\): .*404.*network access/,
    );
    assert.doesNotMatch(lines[0], /\bat \S+ \(|\bat (file|node):/, 'no stack frame');
    // The real download was attempted, for this platform's zip, and nothing after it ran.
    assert.ok(
      requested.some((url) => url.endsWith(`-${process.platform}-${process.arch}.zip`)),
      requested.join('\n'),
    );
    assert.doesNotMatch(run.stdout, /make-icons|electron-builder/);
  });
});
