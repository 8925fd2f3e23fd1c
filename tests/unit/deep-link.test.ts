// `mcp-desk://install?…` links (issue 14 item 6): the two forms parse, everything else is
// refused before anything is fetched, and a link's literal secrets go to the keychain.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isDeepLink, parseDeepLink } from '../../electron/host/registry/deep-link.js';
import { linkEntryProblem, planLinkEntry } from '../../electron/host/registry/link-entry.js';
import { resolvePlan } from '../../electron/host/registry/resolve-install.js';
import { HostFailure } from '../../electron/host/util/errors.js';

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const link = (query: string) => `mcp-desk://install?${query}`;

function refused(url: string, pattern: RegExp): void {
  assert.throws(
    () => parseDeepLink(url),
    (e: unknown) => e instanceof HostFailure && e.code === 'link_invalid' && pattern.test(e.message),
    url.slice(0, 120),
  );
}

describe('the two forms', () => {
  it('name + base64url config: one entry, checked by the config schema', () => {
    const config = { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] };
    assert.deepEqual(parseDeepLink(link(`name=everything&config=${b64url(config)}`)), {
      kind: 'entry',
      name: 'everything',
      config,
    });
    // Cursor's links use standard base64, whose "+" a query string reads as a space.
    const std = Buffer.from(JSON.stringify({ url: 'https://x.example/mcp?a=>>>' })).toString('base64');
    assert.ok(std.includes('+'), 'the sample needs a "+"');
    const parsed = parseDeepLink(link(`name=x&config=${std}`));
    assert.equal(parsed.kind, 'entry');
  });

  it('registry name, with or without a version', () => {
    assert.deepEqual(parseDeepLink(link('registry=io.github.upstash/context7')), {
      kind: 'registry',
      name: 'io.github.upstash/context7',
    });
    assert.deepEqual(parseDeepLink(link('registry=io.github.upstash%2Fcontext7&version=1.0.0')), {
      kind: 'registry',
      name: 'io.github.upstash/context7',
      version: '1.0.0',
    });
    assert.ok(isDeepLink('MCP-DESK://install?x') && !isDeepLink('https://mcp-desk'));
  });
});

describe('hostile links', () => {
  const config = b64url({ command: 'node' });
  it('refuses the wrong scheme, host or path, and extra parts', () => {
    refused('https://install?name=a&config=e30', /must start with mcp-desk:\/\//);
    refused('cursor://anysphere.cursor-deeplink/mcp/install?name=a', /must start with mcp-desk/);
    refused('mcp-desk://uninstall?name=a', /only mcp-desk:\/\/install/);
    refused('mcp-desk://install/more?name=a', /only mcp-desk:\/\/install/);
    refused('mcp-desk://user:pw@install?name=a', /only mcp-desk:\/\/install|parts/);
    refused(`mcp-desk://install?name=a&config=${config}#frag`, /parts an install link never has/);
    refused('not a url at all', /not a URL/);
  });

  it('refuses unknown, repeated and mixed parameters', () => {
    refused(link(`name=a&config=${config}&autoInstall=1`), /unknown parameter "autoInstall"/);
    refused(link(`name=a&name=b&config=${config}`), /"name" is given twice/);
    refused(link(`registry=a.b/c&name=x`), /cannot be combined/);
    refused(link(`name=a&config=${config}&version=1`), /"version" goes only with "registry"/);
    refused(link('name=a'), /needs either name and config, or registry/);
    refused(link('registry=no-slash'), /registry server name/);
    refused(link('registry=a.b/c&version=1.0%20;rm'), /not a version/);
  });

  it('refuses huge links, bad base64, non-JSON, non-objects and invalid entries', () => {
    refused(link(`name=a&config=${'A'.repeat(20_000)}`), /longer than/);
    refused(link(`name=a&config=${'A'.repeat(12_000)}`), /larger than/);
    refused(link('name=a&config=%%%'), /not a URL|not base64/);
    refused(link('name=a&config=ab$cd'), /not base64/);
    refused(
      link(`name=a&config=${Buffer.from([0xff, 0xfe, 0x00]).toString('base64url')}`),
      /does not decode/,
    );
    refused(link(`name=a&config=${Buffer.from('{nope').toString('base64url')}`), /not JSON/);
    refused(link(`name=a&config=${b64url(['node'])}`), /one server entry/);
    refused(link(`name=a&config=${b64url({ command: 'node', shell: true })}`), /server "a"/);
    refused(link(`name=${encodeURIComponent('../etc')}&config=${config}`), /name may use/);
  });

  it('keeps shell metacharacters as single arguments (no shell ever runs them)', () => {
    const args = ['; rm -rf ~', '$(id)', '`id`', '| cat', '&& echo'];
    const parsed = parseDeepLink(link(`name=a&config=${b64url({ command: 'node', args })}`));
    assert.ok(parsed.kind === 'entry' && 'command' in parsed.config);
    assert.deepEqual(parsed.config.args, args);
  });

  it("a remote entry may not read this machine's environment", () => {
    assert.match(
      linkEntryProblem({ url: 'https://evil.example/mcp', headers: { A: '${env:GEMINI_API_KEY}' } }) ?? '',
      /may not use \$\{env:/,
    );
    assert.equal(linkEntryProblem({ command: 'node', env: { A: '${env:HOME}' } }), undefined);
  });
});

describe('secrets in a link', () => {
  it('moves literal secrets to the keychain and renames referenced secrets to this server', () => {
    const { plan, warnings } = planLinkEntry({
      url: 'https://mcp.example.com/mcp',
      headers: {
        Authorization: 'Bearer sk-live-abcdefghijklmnop',
        'X-Other': '${secret:openai.key}',
        'X-Plain': 'hello',
      },
    });
    assert.equal(warnings.length, 1);
    assert.match(warnings[0] ?? '', /headers\.Authorization/);
    assert.ok(!JSON.stringify(plan.view).includes('sk-live'), 'the literal never reaches the view');
    const missing = resolvePlan(plan, {}, 'remote');
    assert.deepEqual(missing.view.missing, ['openai.key']);
    const r = resolvePlan(plan, { 'secret.openai.key': 'typed-value' }, 'remote');
    assert.deepEqual(r.config, {
      url: 'https://mcp.example.com/mcp',
      headers: {
        Authorization: 'Bearer ${secret:remote.Authorization}',
        'X-Other': '${secret:remote.openai.key}',
        'X-Plain': 'hello',
      },
    });
    assert.deepEqual(r.secrets, [
      { name: 'remote.Authorization', value: 'sk-live-abcdefghijklmnop' },
      { name: 'remote.openai.key', value: 'typed-value' },
    ]);
    assert.ok(!JSON.stringify(r.view).includes('sk-live'));
  });
});
