// The small pure parts of MCP Bundles: runtime version ranges, the user_config value checks,
// names made safe for servers, folders and the keychain, and which command-line arguments are
// bundles the desktop app was asked to open.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BundleConfigField } from '../../shared/domain/bundles.js';
import { satisfiesRange } from '../../electron/host/bundles/version-range.js';
import { checkValues } from '../../electron/host/bundles/bundle-values.js';
import { safeSegment, secretNameFor, serverNameFor } from '../../electron/host/bundles/bundle-manifest.js';
import { HostFailure } from '../../electron/host/util/errors.js';
import { BundleOpener, bundlePathsIn } from '../../electron/main/bundle-opener.js';

describe('version ranges', () => {
  const cases: [string, string, boolean | undefined][] = [
    ['20.19.0', '>=18', true],
    ['16.20.0', '>=18.0.0', false],
    ['20.19.0', '^20.1.0', true],
    ['22.1.0', '^20.1.0', false],
    ['0.3.5', '^0.3.1', true],
    ['0.4.0', '^0.3.1', false],
    ['3.11.9', '~3.11', true],
    ['3.12.0', '~3.11', false],
    ['20.19.0', '>=18 <21', true],
    ['22.0.0', '>=18 <21', false],
    ['20.1.0', '18.x || 20.x', true],
    ['19.1.0', '18.x || 20.x', false],
    ['20.1.0', '*', true],
    ['20.1.0', 'latest', undefined],
  ];
  for (const [version, range, expected] of cases)
    it(`${version} in "${range}" is ${String(expected)}`, () =>
      assert.equal(satisfiesRange(version, range), expected));
});

const field = (key: string, over: Partial<BundleConfigField> = {}): BundleConfigField => ({
  key,
  type: 'string',
  title: key[0]?.toUpperCase() + key.slice(1),
  description: '',
  required: false,
  multiple: false,
  sensitive: false,
  ...over,
});

describe('user_config values', () => {
  const fields = [
    field('name', { required: true }),
    field('token', { required: true, sensitive: true }),
    field('count', { type: 'number', min: 1, max: 3, default: 2 }),
    field('on', { type: 'boolean', default: false }),
    field('dirs', { type: 'directory', multiple: true }),
  ];

  it('types --set text, applies defaults and splits off the sensitive value', () => {
    const v = checkValues(fields, { name: 'n', token: 'tok', count: '3', on: 'true', dirs: '/a' }, new Set());
    assert.deepEqual(v, {
      plain: { name: 'n', count: 3, on: true, dirs: ['/a'] },
      secrets: { token: 'tok' },
      kept: [],
    });
    assert.deepEqual(checkValues(fields, { name: 'n', token: 't' }, new Set()).plain, {
      name: 'n',
      count: 2,
      on: false,
    });
  });

  it('keeps a stored sensitive value unless a new one is given', () => {
    assert.deepEqual(checkValues(fields, { name: 'n' }, new Set(['token'])).kept, ['token']);
    assert.deepEqual(checkValues(fields, { name: 'n', token: 'new' }, new Set(['token'])).secrets, {
      token: 'new',
    });
  });

  it('names every problem by field, without quoting a value', () => {
    try {
      checkValues(fields, { count: 9, on: 'maybe', nope: 'x', token: '' }, new Set());
      assert.fail('accepted bad values');
    } catch (error) {
      assert.ok(error instanceof HostFailure);
      assert.equal(error.code, 'bundle_values_invalid');
      assert.deepEqual(error.details?.fields, {
        nope: '"nope" is not a setting of this bundle',
        name: 'Name (name) is required',
        token: 'Token (token) is required',
        count: 'Count (count) must be at most 3',
        on: 'On (on) must be true or false',
      });
    }
  });
});

describe('names', () => {
  it('keeps valid server names and repairs others', () => {
    assert.equal(serverNameFor('weather-tools'), 'weather-tools');
    assert.equal(serverNameFor('@acme/weather'), 'acme-weather');
    assert.equal(serverNameFor('***'), 'bundle');
  });
  it('makes path segments that cannot leave their folder', () => {
    assert.equal(safeSegment('1.2.3'), '1.2.3');
    assert.equal(safeSegment('../../etc'), 'v.._.._etc');
    assert.equal(safeSegment('..'), 'v..');
    assert.ok(!safeSegment('a/b\\c').includes('/'));
  });
  it('gives each sensitive field a keychain name', () => {
    assert.equal(secretNameFor('@acme/x', 'api key'), 'mcpb._acme_x.api_key');
  });
});

describe('bundles opened from the file manager', () => {
  it('finds .mcpb paths on a command line, skipping the executable and options', () => {
    assert.deepEqual(
      bundlePathsIn(['/opt/MCP Desk/mcp-desk', '--no-sandbox', '/home/a/x.mcpb', 'y.MCPB', 'z.txt']),
      ['/home/a/x.mcpb', 'y.MCPB'],
    );
  });
  it('holds paths until the window can show them, then delivers every one in order', () => {
    const opener = new BundleOpener();
    const got: string[] = [];
    opener.open('a.mcpb');
    opener.open('b.mcpb');
    assert.equal(got.length, 0);
    opener.attach((p) => got.push(p));
    opener.open('c.mcpb');
    assert.deepEqual(got, ['a.mcpb', 'b.mcpb', 'c.mcpb']);
  });
});
