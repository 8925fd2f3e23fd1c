/**
 * Issue 14 item 1 / must-show 1: Goose (YAML) and Codex CLI (TOML) import their documented
 * fixtures to the expected entries: Goose's keyring-held env_keys become secrets to fill, its own
 * built-in extensions are not listed; Codex's env-sourced tokens and headers become `${env:…}`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { codex } from '../../electron/host/importers/codex.js';
import { goose } from '../../electron/host/importers/goose.js';
import { fileError, fileOf, fixture, parseFixture, server } from '../helpers/import-fixtures.js';

describe('Goose importer', () => {
  const file = fileOf(goose, 'user');

  it('reads stdio, streamable_http and sse extensions; leaves Goose’s own parts out', () => {
    const servers = parseFixture(goose, file, 'goose', 'config.yaml');
    assert.deepEqual(
      servers.map((s) => s.name),
      ['github', 'fetch', 'remote', 'mcp-sse', 'scratch'],
    );
    assert.deepEqual(server(servers, 'github'), {
      name: 'github',
      entry: {
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-github'],
        env: {
          GITHUB_API_URL: 'https://api.github.com',
          GITHUB_PERSONAL_ACCESS_TOKEN: '${secret:GITHUB_PERSONAL_ACCESS_TOKEN}',
        },
        timeout: 300_000,
      },
      notCarried: [],
      inputs: [
        {
          secretName: 'GITHUB_PERSONAL_ACCESS_TOKEN',
          from: 'env.GITHUB_PERSONAL_ACCESS_TOKEN',
          description: 'Goose keeps this value in its keyring',
        },
      ],
    });
    assert.deepEqual(server(servers, 'fetch').entry, {
      command: 'uvx',
      args: ['mcp-server-fetch'],
      disabled: true,
      timeout: 30_000,
      includeTools: ['fetch'],
    });
    assert.deepEqual(server(servers, 'remote').entry, {
      type: 'http',
      url: 'https://mcp.example.com/mcp',
      headers: { Authorization: 'Bearer goose-fixture-token' },
      timeout: 600_000,
    });
    assert.deepEqual(server(servers, 'mcp-sse').entry, { type: 'sse', url: 'http://localhost:8080/sse' });
    for (const name of ['remote', 'mcp-sse']) assert.deepEqual(server(servers, name).notCarried, []);
  });

  it('says an inline Python extension cannot be brought over', () => {
    const scratch = server(goose.parse(fixture('goose', 'config.yaml'), file), 'scratch');
    assert.equal(
      scratch.unsupported,
      'It is inline Python code run by Goose, not a server command: save the code as a script to add it.',
    );
  });

  it('refuses bad YAML (naming the place, not the text) and a wrong shape; an empty file has none', () => {
    assert.equal(
      fileError(goose, file, fixture('goose', 'bad-yaml.yaml')),
      'not valid YAML: All mapping items must start at the same column at line 4, column 1',
    );
    assert.equal(
      fileError(goose, file, fixture('goose', 'wrong-shape.yaml')),
      '"extensions" is not a map of extensions',
    );
    assert.equal(fileError(goose, file, '- a\n- b\n'), 'the file is not a YAML map of settings');
    assert.deepEqual(goose.parse('', file), []);
    assert.deepEqual(goose.parse('GOOSE_MODEL: gpt-4o\n', file), []);
    const leaky = fileError(goose, file, 'extensions:\n  a:\n    envs: {K: sk-secret-9\n  b: [\n');
    assert.doesNotMatch(leaky, /sk-secret/);
  });
});

describe('Codex CLI importer', () => {
  const file = fileOf(codex, 'user');

  it('reads stdio and Streamable HTTP tables with env-sourced tokens, timeouts and tool lists', () => {
    const servers = parseFixture(codex, file, 'codex', 'config.toml');
    assert.deepEqual(
      servers.map((s) => [s.name, s.entry]),
      [
        ['context7', { command: 'npx', args: ['-y', '@upstash/context7-mcp'] }],
        [
          'github',
          {
            command: 'npx',
            args: ['-y', '@modelcontextprotocol/server-github'],
            env: {
              GITHUB_HOST: 'github.com',
              LOG_LEVEL: 'debug',
              GITHUB_PERSONAL_ACCESS_TOKEN: '${env:GITHUB_PERSONAL_ACCESS_TOKEN}',
            },
            cwd: '/home/ann/work',
            disabled: true,
            timeout: 90_000,
            includeTools: ['search_repositories', 'get_file_contents'],
          },
        ],
        [
          'figma',
          {
            type: 'http',
            url: 'https://mcp.figma.com/mcp',
            headers: {
              'X-Figma-Region': 'us-east-1',
              Authorization: 'Bearer ${env:FIGMA_OAUTH_TOKEN}',
              'X-Team': '${env:FIGMA_TEAM}',
            },
            excludeTools: ['delete_file'],
          },
        ],
        ['slow', { command: 'python', args: ['slow.py'] }],
      ],
    );
    assert.deepEqual(server(servers, 'github').notCarried, [
      '"startup_timeout_sec" is not carried over: MCP Desk has one per-request timeout, set from "tool_timeout_sec".',
    ]);
    assert.deepEqual(server(servers, 'figma').notCarried, [
      '"required" is not carried over: MCP Desk starts without a server that fails, and shows why.',
    ]);
    assert.deepEqual(server(servers, 'slow').notCarried, [
      '"tool_timeout_sec" (7200 seconds) is outside what MCP Desk accepts (0.1 s to 1 hour), so the default timeout is used.',
    ]);
  });

  it('refuses bad TOML (naming the place) and a wrong shape; a config without servers has none', () => {
    assert.equal(
      fileError(codex, file, fixture('codex', 'bad-toml.toml')),
      'not valid TOML: invalid value at line 4, column 1',
    );
    assert.equal(
      fileError(codex, file, fixture('codex', 'wrong-shape.toml')),
      '"mcp_servers" is not a table of servers',
    );
    assert.deepEqual(codex.parse('model = "o3"\n', file), []);
  });
});
