/**
 * The electron-builder config (build/electron-builder.yml): it is valid against electron-builder's
 * own schema, names the right app, icon and entitlements, and its `files` globs select exactly
 * the built bundles from the repo — no sources, tests or maps. electron-builder itself cannot
 * package here (it downloads Electron), so the file set is computed the way it applies `files`:
 * in order, a pattern includes what it matches, a `!pattern` excludes it again.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { minimatch } from 'minimatch';

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
    assert.deepEqual(mac.target, ['dmg']);
    assert.equal(mac.category, 'public.app-category.developer-tools');
    assert.equal(mac.hardenedRuntime, true);
    assert.equal(mac.entitlements, 'build/entitlements.mac.plist');
    assert.deepEqual(section(config, 'win').target, ['nsis']);
    for (const platform of ['linux', 'mac', 'win']) {
      const icon = section(config, platform).icon;
      assert.equal(icon, 'build/icon.png', `${platform} icon`);
    }
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

  it('ships a 512x512 RGBA PNG icon', () => {
    const png = readFileSync(path.join(root, 'build/icon.png'));
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    assert.equal(png.subarray(12, 16).toString('ascii'), 'IHDR');
    assert.equal(png.readUInt32BE(16), 512);
    assert.equal(png.readUInt32BE(20), 512);
    assert.equal(png[25], 6, 'colour type RGBA');
  });

  it('grants the hardened runtime nothing but the JIT Electron needs', () => {
    const plist = readFileSync(path.join(root, 'build/entitlements.mac.plist'), 'utf8');
    const keys = [...plist.matchAll(/<key>([^<]+)<\/key>/g)].map((match) => match[1]);
    assert.deepEqual(keys, ['com.apple.security.cs.allow-jit']);
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
