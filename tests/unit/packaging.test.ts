/**
 * The electron-builder config (build/electron-builder.yml): it is valid against electron-builder's
 * own schema, names the right app, icon and entitlements, and its `files` globs select exactly
 * the built bundles from the repo — no sources, tests or maps. electron-builder itself cannot
 * package here (it downloads Electron), so the file set is computed the way it applies `files`:
 * in order, a pattern includes what it matches, a `!pattern` excludes it again. The icons are
 * build outputs of scripts/make-icons.mjs (run here first), drawn by the tray's own code.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { minimatch } from 'minimatch';
import { trayBitmap } from '../../electron/main/tray-state.js';
import { readIco, readPng } from '../helpers/icon-files.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
// js-yaml arrives with electron-builder and ships no types; only `load` is used.
const yaml = require('js-yaml') as { load(text: string): unknown };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function loadConfig(): Record<string, unknown> {
  const config = yaml.load(readFileSync(path.join(root, 'build/electron-builder.yml'), 'utf8'));
  assert.ok(isRecord(config), 'the config is a mapping');
  return config;
}

function section(config: Record<string, unknown>, key: string): Record<string, unknown> {
  const value = config[key];
  assert.ok(isRecord(value), `${key} is a mapping`);
  return value;
}

const schemaPath = path.join(root, 'node_modules/app-builder-lib/scheme.json');

describe('electron-builder config', () => {
  it(
    "is valid against electron-builder's own schema",
    { skip: existsSync(schemaPath) ? false : 'app-builder-lib/scheme.json not installed' },
    () => {
      const schema: unknown = JSON.parse(readFileSync(schemaPath, 'utf8'));
      assert.ok(isRecord(schema));
      // The schema uses a few non-standard keywords and union types; strict mode would reject
      // the schema itself, not our config.
      const ajv = new Ajv({ strict: false, allErrors: true, allowUnionTypes: true });
      const validate = ajv.compile(schema);
      const valid = validate(loadConfig());
      assert.ok(valid, JSON.stringify(validate.errors, null, 2));
      // The validator really checks: a misspelt key and a wrong type are both refused.
      assert.equal(validate({ ...loadConfig(), appID: 'x' }), false);
      assert.equal(validate({ ...loadConfig(), asar: 'yes' }), false);
    },
  );

  it('names the app and its output, entry point and resources', () => {
    const config = loadConfig();
    assert.equal(config.appId, 'dev.mcpdesk.app');
    assert.equal(config.productName, 'MCP Desk');
    assert.equal(config.asar, true);
    assert.deepEqual(config.directories, { output: 'dist/', buildResources: 'build/' });
    assert.deepEqual(config.extraMetadata, { main: 'out/main/index.cjs' });
    const linux = section(config, 'linux');
    assert.deepEqual(linux.target, ['AppImage', 'deb']);
    assert.equal(linux.category, 'Development');
    assert.ok(typeof linux.maintainer === 'string' && linux.maintainer.length > 0);
    const mac = section(config, 'mac');
    assert.deepEqual(mac.target, ['dmg', 'zip'], 'the zip is what electron-updater installs on macOS');
    assert.equal(mac.category, 'public.app-category.developer-tools');
    assert.equal(mac.hardenedRuntime, true);
    assert.equal(mac.entitlements, 'build/entitlements.mac.plist');
    assert.deepEqual(section(config, 'win').target, ['nsis']);
  });

  it('registers the mcp-desk:// scheme for install links', () => {
    assert.deepEqual(loadConfig().protocols, [{ name: 'MCP Desk install link', schemes: ['mcp-desk'] }]);
  });

  it('opens .mcpb files (MCP Bundles) with the app', () => {
    const associations = loadConfig().fileAssociations;
    assert.ok(Array.isArray(associations), 'fileAssociations is a list');
    assert.deepEqual(associations, [
      {
        ext: 'mcpb',
        name: 'MCP Bundle',
        description: 'MCP Bundle (a packaged MCP server)',
        mimeType: 'application/x-mcpb',
        role: 'Viewer',
      },
    ]);
  });

  it('publishes to GitHub Releases, the repository coming from the environment', () => {
    assert.deepEqual(loadConfig().publish, {
      provider: 'github',
      owner: '${env.MCP_DESK_RELEASE_OWNER}',
      repo: '${env.MCP_DESK_RELEASE_REPO}',
      releaseType: 'draft',
    });
    // scripts/dist.mjs is what sets those two variables: the dist script must go through it.
    const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    assert.equal(manifest.scripts.dist, 'node scripts/dist.mjs');
    assert.match(readFileSync(path.join(root, 'scripts/dist.mjs'), 'utf8'), /MCP_DESK_RELEASE_OWNER: owner/);
  });

  it('grants the hardened runtime nothing but the JIT Electron needs', () => {
    const plist = readFileSync(path.join(root, 'build/entitlements.mac.plist'), 'utf8');
    const keys = [...plist.matchAll(/<key>([^<]+)<\/key>/g)].map((match) => match[1]);
    assert.deepEqual(keys, ['com.apple.security.cs.allow-jit']);
  });
});

/** The app icon at `size` as RGBA: the tray's calm icon (BGRA) with red and blue swapped. */
function appIconPixels(size: number): Buffer {
  const pixels = trayBitmap(size, false);
  for (let i = 0; i < pixels.length; i += 4) [pixels[i], pixels[i + 2]] = [pixels[i + 2], pixels[i]];
  return pixels;
}

describe('icons, drawn at build time from the tray icon', () => {
  before(() => {
    const made = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/make-icons.mjs'], {
      cwd: root,
      encoding: 'utf8',
    });
    assert.equal(made.status, 0, made.stderr);
  });

  it('every target names an icon file that exists in its own format', () => {
    const config = loadConfig();
    const icons = Object.fromEntries(
      ['linux', 'mac', 'win'].map((platform) => [platform, section(config, platform).icon]),
    );
    assert.deepEqual(icons, {
      linux: 'build/icons/icon.png',
      mac: 'build/icons/icon.png',
      win: 'build/icons/icon.ico',
    });
    for (const icon of Object.values(icons))
      assert.ok(existsSync(path.join(root, String(icon))), String(icon));
  });

  it('Linux and macOS get a 1024 px RGBA PNG whose every pixel is the tray drawing', () => {
    const png = readPng(readFileSync(path.join(root, 'build/icons/icon.png')));
    assert.deepEqual([png.width, png.height, png.colourType], [1024, 1024, 6]);
    assert.ok(png.rgba.equals(appIconPixels(1024)), 'the pixels of trayBitmap(1024, calm)');
    // Not a blank image: opaque blue in the middle, transparent in the rounded corner.
    const middle = (512 * 1024 + 512) * 4;
    assert.deepEqual([...png.rgba.subarray(middle, middle + 4)], [0x2f, 0x6f, 0xeb, 255]);
    assert.equal(png.rgba[3], 0);
  });

  it('Windows gets an ICO of PNG frames from 16 to 256 px, each drawn at its own size', () => {
    const entries = readIco(readFileSync(path.join(root, 'build/icons/icon.ico')));
    assert.deepEqual(
      entries.map((entry) => entry.width),
      [16, 24, 32, 48, 64, 128, 256],
    );
    for (const entry of entries) {
      const png = readPng(entry.data);
      assert.deepEqual(
        [png.width, png.height, entry.height, entry.bitsPerPixel],
        [entry.width, entry.width, entry.width, 32],
      );
      assert.ok(png.rgba.equals(appIconPixels(entry.width)), `${entry.width} px frame`);
    }
  });

  it('are build outputs: git ignores build/icons/', () => {
    const ignored = readFileSync(path.join(root, '.gitignore'), 'utf8').split('\n');
    assert.ok(ignored.includes('build/icons/'));
  });
});

/** Every file under the repo, relative and with `/`, skipping what is never a packaging input. */
function listRepo(dir = root, prefix = ''): string[] {
  const skipped = new Set(['node_modules', '.git', 'dist']);
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (prefix === '' && skipped.has(entry.name)) continue;
    const relative = prefix + entry.name;
    if (entry.isDirectory()) files.push(...listRepo(path.join(dir, entry.name), `${relative}/`));
    else if (entry.isFile()) files.push(relative);
  }
  return files;
}

/** electron-builder's reading of `files`: ordered, last matching pattern wins. */
function selectFiles(files: string[], patterns: string[]): string[] {
  return files.filter((file) => {
    let included = false;
    for (const pattern of patterns) {
      const negated = pattern.startsWith('!');
      if (minimatch(file, negated ? pattern.slice(1) : pattern, { dot: true })) included = !negated;
    }
    return included;
  });
}

describe('packaged file set', () => {
  const built = existsSync(path.join(root, 'out/main/index.cjs'));
  if (!built) console.log('packaging: file-set test skipped: out/ is not built (run node scripts/build.mjs)');

  it(
    'contains the bundles and nothing of the sources, tests or maps',
    { skip: built ? false : 'out/ is not built' },
    () => {
      const patterns = loadConfig().files;
      assert.ok(Array.isArray(patterns) && patterns.every((p): p is string => typeof p === 'string'));
      const packaged = selectFiles(listRepo(), patterns);
      for (const required of [
        'out/main/index.cjs',
        'out/preload/index.cjs',
        'out/renderer/index.html',
        'package.json',
      ]) {
        assert.ok(packaged.includes(required), `${required} is packaged`);
      }
      const forbidden = packaged.filter(
        (file) =>
          file.startsWith('tests/') ||
          file.includes('fixtures/') ||
          /\.test\.[cm]?[jt]sx?$/.test(file) ||
          file.endsWith('.tsx') ||
          file.startsWith('electron/') ||
          file.startsWith('renderer/') ||
          file.startsWith('shared/') ||
          file.startsWith('scripts/') ||
          file.startsWith('out/headless/') ||
          file.endsWith('.ts') ||
          file.endsWith('.tsx') ||
          file.endsWith('.map'),
      );
      assert.deepEqual(forbidden, []);
      assert.ok(
        packaged.every((file) => file === 'package.json' || file.startsWith('out/')),
        packaged.join('\n'),
      );
    },
  );
});
