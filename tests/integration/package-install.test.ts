/**
 * The npm package (issue 27): `npm pack` gives a tarball of what runs (out/ without source maps,
 * bin/, README, LICENSE) within the size budgets; installed with production dependencies only
 * into an empty prefix, its `mcp-desk` answers --help, lists server-everything's tools, lists
 * the other MCP apps (import --list) and serves the UI that Chromium opens with its token, all
 * with no Electron and from a folder outside the repository. `mcp-desk app` says how to get
 * Electron. The pack skips the build (`--ignore-scripts`): npm test has just built out/, and
 * rebuilding would race the tests reading it. Installs prefer npm's cache (`npm ci` filled it).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { startBrowserMode } from '../helpers/browser-mode.js';
import { chromiumSkipReason, launchChromium } from '../helpers/chromium.js';
import { CleanupStack, nodeServer, REPO_ROOT, SERVERS, tempDir } from '../helpers/host-harness.js';

const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const MB = 1024 * 1024;

interface PackResult {
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string }[];
}

describe('the npm package', { timeout: 600_000 }, () => {
  const stack = new CleanupStack();
  let dir: string;
  let pack: PackResult;
  let bin: string;
  let env: NodeJS.ProcessEnv;
  let config: string;
  let installSeconds: number;

  before(async () => {
    dir = await tempDir(stack);
    const { stdout } = await run(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
      cwd: REPO_ROOT,
      maxBuffer: 16 * MB,
    });
    pack = (JSON.parse(stdout) as PackResult[])[0];
    const prefix = join(dir, 'prefix');
    await mkdir(prefix);
    const started = Date.now();
    await run(
      npm,
      [
        'install',
        '-g',
        '--prefix',
        prefix,
        '--omit=dev',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        join(dir, pack.filename),
      ],
      { cwd: dir, maxBuffer: 16 * MB },
    );
    installSeconds = (Date.now() - started) / 1000;
    bin = join(prefix, process.platform === 'win32' ? 'mcp-desk.cmd' : 'bin/mcp-desk');
    const home = join(dir, 'home');
    // One other app with one server, for import --list to find.
    await mkdir(join(home, '.config', 'Claude'), { recursive: true });
    await writeFile(
      join(home, '.config', 'Claude', 'claude_desktop_config.json'),
      JSON.stringify({
        mcpServers: { 'notes-from-claude': { command: 'npx', args: ['-y', 'some-server'] } },
      }),
    );
    // A throwaway HOME: import --list reads no real app's config, nothing is written to the person's.
    env = {
      ...process.env,
      HOME: home,
      USERPROFILE: home,
      MCP_DESK_DATA_DIR: join(dir, 'data'),
      NODE_OPTIONS: '',
    };
    config = join(dir, 'servers.json');
    await writeFile(
      config,
      JSON.stringify({ mcpServers: { everything: nodeServer(SERVERS.everything, ['stdio']) } }),
    );
  });
  after(() => stack.run());

  const mcpDesk = (...args: string[]) =>
    run(process.execPath, [bin, ...args], { cwd: dir, env, maxBuffer: 16 * MB, timeout: 120_000 });

  it('packs what runs and nothing else, within the size budgets', () => {
    const paths = pack.files.map((f) => f.path);
    for (const needed of [
      'package.json',
      'README.md',
      'LICENSE',
      'bin/mcp-desk.mjs',
      'out/headless/cli.mjs',
      'out/main/index.cjs',
      'out/preload/index.cjs',
      'out/renderer/index.html',
    ])
      assert.ok(paths.includes(needed), `${needed} is in the tarball`);
    assert.ok(
      paths.some((p) => p.startsWith('out/sandbox/')),
      'the sandbox page is in the tarball',
    );
    const stray = paths.filter(
      (p) =>
        /\.(ts|tsx|map)$/.test(p) ||
        /^(tests|scripts|electron|renderer|shared|tools|\.ci|\.github|docs)\//.test(p),
    );
    assert.deepEqual(stray, [], 'no sources, tests, scripts, maps or CI files');
    assert.ok(pack.size <= 3 * MB, `tarball ${(pack.size / MB).toFixed(2)} MB ≤ 3 MB`);
    assert.ok(pack.unpackedSize <= 12 * MB, `unpacked ${(pack.unpackedSize / MB).toFixed(2)} MB ≤ 12 MB`);
    console.log(
      `package: ${paths.length} files, tarball ${(pack.size / MB).toFixed(2)} MB, unpacked ${(pack.unpackedSize / MB).toFixed(2)} MB, install ${installSeconds.toFixed(1)} s`,
    );
  });

  it('installed with production dependencies only: --help, tools, import --list, app', async () => {
    const help = await mcpDesk('--help');
    assert.match(help.stdout, /^Usage: mcp-desk/m);
    const tools = await mcpDesk('--config', config, 'tools', '--json');
    const names = (JSON.parse(tools.stdout) as { name: string }[]).map((t) => t.name);
    assert.ok(names.includes('echo'), `server-everything's echo is listed: ${names.join(', ')}`);
    const imports = await mcpDesk('import', '--list');
    assert.match(imports.stdout, /notes-from-claude/);
    const app = await mcpDesk('app').then(
      () => assert.fail('app without Electron must fail'),
      (error: { code: number; stderr: string }) => error,
    );
    assert.equal(app.code, 1);
    const lines = app.stderr.trim().split('\n');
    assert.equal(lines.length, 1, app.stderr);
    assert.match(lines[0], /needs Electron.*mcp-desk browser/);
  });

  it('installed: browser mode serves the UI, which opens with its token', async (t) => {
    if (chromiumSkipReason) return t.skip(chromiumSkipReason);
    const mode = await startBrowserMode({
      installed: { cli: bin, cwd: dir },
      config: { mcpServers: { everything: nodeServer(SERVERS.everything, ['stdio']) } },
      env: { HOME: env.HOME, NODE_OPTIONS: '' },
    });
    stack.defer(() => mode.stop());
    const browser = await launchChromium();
    stack.defer(() => browser.close());
    const page = await browser.newPage();
    await page.goto(mode.url);
    await page.getByTestId('nav-servers').click();
    await page
      .locator('[data-testid="server-state-everything"][data-state="connected"]')
      .waitFor({ timeout: 60_000 });
  });
});
