/**
 * Issue 14 item 1 / must-show 1: the `mcpServers` family (Claude Desktop, Claude Code, Cursor,
 * Windsurf, LM Studio) imports each host's documented fixture to the expected entries, says what
 * it cannot carry over, and refuses broken or wrong-shape files with the reason.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseEntry } from '../../electron/host/config/config-document.js';
import { claudeCode } from '../../electron/host/importers/claude-code.js';
import { claudeDesktop } from '../../electron/host/importers/claude-desktop.js';
import { cursor } from '../../electron/host/importers/cursor.js';
import { lmStudio } from '../../electron/host/importers/lm-studio.js';
import { windsurf } from '../../electron/host/importers/windsurf.js';
import { fileError, fileOf, fixture, parseFixture, PROJECT, server } from '../helpers/import-fixtures.js';

describe('Claude Desktop importer', () => {
  const file = fileOf(claudeDesktop, 'user');

  it('reads mcpServers as they are, naming a key we have no field for', () => {
    const servers = parseFixture(claudeDesktop, file, 'claude-desktop', 'claude_desktop_config.json');
    assert.deepEqual(
      servers.map((s) => s.name),
      ['filesystem', 'github', 'time', 'broken-entry'],
    );
    assert.deepEqual(server(servers, 'github'), {
      name: 'github',
      entry: {
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-github'],
        env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_fixtureToken0123456789' },
      },
      notCarried: [],
      inputs: [],
    });
    assert.deepEqual(server(servers, 'time'), {
      name: 'time',
      entry: {
        command: 'uvx',
        args: ['mcp-server-time', '--local-timezone', 'Europe/Paris'],
        disabled: true,
      },
      notCarried: ['"autoApprove" is not carried over: MCP Desk has no such setting.'],
      inputs: [],
    });
  });

  it('passes an entry without a command on for the caller to report as invalid', () => {
    const broken = server(
      parseFixture(claudeDesktop, file, 'claude-desktop', 'claude_desktop_config.json'),
      'broken-entry',
    );
    const checked = parseEntry(broken.name, broken.entry);
    assert.equal(checked.ok, false);
    assert.match(checked.ok ? '' : checked.error, /needs either "command"/);
  });

  it('refuses bad JSON and a wrong shape with the reason, never quoting the file', () => {
    const bad = fileError(claudeDesktop, file, fixture('claude-desktop', 'bad-json.json'));
    assert.equal(bad, 'not valid JSON: property name expected at line 3, column 39');
    assert.equal(
      fileError(claudeDesktop, file, fixture('claude-desktop', 'wrong-shape.json')),
      '"mcpServers" is missing or is not an object of servers',
    );
    assert.equal(fileError(claudeDesktop, file, ''), 'the file is empty');
    const leaky = fileError(claudeDesktop, file, '{"mcpServers": {"a": {"env": {"K": "sk-secret-123"}} oops');
    assert.doesNotMatch(leaky, /sk-secret/);
  });
});

describe('Claude Code importer', () => {
  it('reads user-scope servers and each project of ~/.claude.json as a group', () => {
    const servers = parseFixture(claudeCode, fileOf(claudeCode, 'user'), 'claude-code', 'claude.json');
    assert.deepEqual(servers, [
      {
        name: 'sentry',
        entry: {
          type: 'http',
          url: 'https://mcp.sentry.dev/mcp',
          headers: { Authorization: 'Bearer ${env:SENTRY_TOKEN}' },
        },
        notCarried: [],
        inputs: [],
      },
      {
        name: 'airtable',
        entry: {
          command: 'npx',
          args: ['-y', 'airtable-mcp-server'],
          env: { AIRTABLE_API_KEY: '${env:AIRTABLE_API_KEY}' },
        },
        notCarried: [
          "env.AIRTABLE_API_KEY uses ${AIRTABLE_API_KEY:-…}: the default value is not carried over, so AIRTABLE_API_KEY must be set in MCP Desk's environment.",
        ],
        inputs: [],
      },
      {
        name: 'db',
        group: '/home/ann/work/app',
        entry: { command: 'npx', args: ['-y', '@bytebase/dbhub', '--dsn', '${env:DATABASE_URL}'], env: {} },
        notCarried: [],
        inputs: [],
      },
    ]);
    // The default's value (it may be a token) is never repeated.
    assert.doesNotMatch(JSON.stringify(servers), /patFixtureDefault/);
  });

  it("reads a project's .mcp.json: sse, headersHelper and oauth, an unknown transport", () => {
    const servers = claudeCode.parse(
      fixture('claude-code', 'project', '.mcp.json'),
      fileOf(claudeCode, 'project'),
    );
    assert.deepEqual(servers[0], {
      name: 'shared-api',
      entry: { type: 'sse', url: 'https://api.example.com/sse', headers: { 'X-API-Key': '${env:API_KEY}' } },
      notCarried: [
        "headers.X-API-Key uses ${API_KEY:-…}: the default value is not carried over, so API_KEY must be set in MCP Desk's environment.",
      ],
      inputs: [],
    });
    assert.deepEqual(servers[1]?.entry, {
      type: 'http',
      url: 'https://mcp.linear.app/mcp',
      oauth: { clientId: 'desk-linear' },
    });
    assert.deepEqual(servers[1]?.notCarried, [
      '"headersHelper" is not carried over: it runs a command to make headers; MCP Desk sends fixed headers (put a token in the keychain as ${secret:NAME}).',
      'oauth.callbackPort is not carried over: MCP Desk picks its own sign-in callback.',
    ]);
    assert.deepEqual(servers[2], {
      name: 'ws-thing',
      entry: { url: 'wss://example.com/mcp' },
      notCarried: ['"type" "ws" is a transport MCP Desk does not support.'],
      inputs: [],
    });
    assert.equal(parseEntry('ws-thing', servers[2]?.entry).ok, false);
    for (const s of servers.slice(0, 2)) assert.ok(parseEntry(s.name, s.entry).ok, s.name);
  });

  it('refuses a file whose projects are not an object', () => {
    assert.equal(
      fileError(claudeCode, fileOf(claudeCode, 'user'), fixture('claude-code', 'wrong-shape.json')),
      '"projects" is not an object of project folders',
    );
  });
});

describe('Cursor importer', () => {
  it('keeps ${env:…}, fills ${userHome}, resolves envFile, and names ${workspaceFolder} in a user file', () => {
    const servers = parseFixture(cursor, fileOf(cursor, 'user'), 'cursor', 'mcp.json');
    assert.deepEqual(servers, [
      {
        name: 'notion',
        entry: {
          command: 'npx',
          args: ['-y', '@notionhq/notion-mcp-server'],
          env: { NOTION_TOKEN: '${env:NOTION_TOKEN}' },
        },
        notCarried: [],
        inputs: [],
        envFile: '/home/ann/.config/notion.env',
      },
      {
        name: 'scripts',
        entry: { command: 'python', args: ['/home/ann/mcp/scripts_server.py', '${workspaceFolder}'] },
        notCarried: [
          'args[1] uses ${workspaceFolder}, which MCP Desk does not expand here: replace it with the value after import.',
        ],
        inputs: [],
      },
      {
        name: 'figma',
        entry: { url: 'https://mcp.figma.com/mcp', headers: { Authorization: 'Bearer figd_fixtureToken' } },
        notCarried: [],
        inputs: [],
      },
    ]);
  });

  it("fills ${workspaceFolder} and a relative envFile from the project's folder", () => {
    const servers = parseFixture(
      cursor,
      fileOf(cursor, 'project'),
      'cursor',
      'project',
      '.cursor',
      'mcp.json',
    );
    assert.deepEqual(servers, [
      {
        name: 'repo-tools',
        entry: { command: 'node', args: [`${PROJECT}/scripts/mcp.js`] },
        notCarried: [],
        inputs: [],
        envFile: `${PROJECT}/.env.local`,
      },
    ]);
  });

  it("refuses VS Code's shape in Cursor's file", () => {
    assert.equal(
      fileError(cursor, fileOf(cursor, 'user'), fixture('cursor', 'wrong-shape.json')),
      '"mcpServers" is missing or is not an object of servers',
    );
  });
});

describe('Windsurf importer', () => {
  it('reads serverUrl, disabled and disabledTools', () => {
    const servers = parseFixture(windsurf, fileOf(windsurf, 'user'), 'windsurf', 'mcp_config.json');
    assert.deepEqual(
      servers.map((s) => [s.name, s.entry, s.notCarried]),
      [
        [
          'github',
          {
            command: 'npx',
            args: ['-y', '@modelcontextprotocol/server-github'],
            env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${env:GITHUB_TOKEN}' },
            excludeTools: ['delete_repository'],
          },
          [],
        ],
        [
          'talaria',
          {
            url: 'https://api.example.com/mcp',
            headers: { Authorization: 'Bearer ${env:TALARIA_MCP_TOKEN}' },
          },
          [],
        ],
        ['paused', { command: 'uvx', args: ['mcp-server-fetch'], disabled: true }, []],
      ],
    );
  });

  it('refuses a file that is not an object', () => {
    assert.equal(
      fileError(windsurf, fileOf(windsurf, 'user'), fixture('windsurf', 'wrong-shape.json')),
      'the file is not a JSON object',
    );
  });
});

describe('LM Studio importer', () => {
  it("reads Cursor's notation", () => {
    const servers = parseFixture(lmStudio, fileOf(lmStudio, 'user'), 'lm-studio', 'mcp.json');
    assert.deepEqual(
      servers.map((s) => [s.name, s.entry]),
      [
        [
          'hf-mcp-server',
          { url: 'https://huggingface.co/mcp', headers: { Authorization: 'Bearer hf_fixtureToken0123' } },
        ],
        [
          'filesystem',
          { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/ann/Documents'] },
        ],
      ],
    );
  });

  it('passes a non-object entry on to be reported invalid, and refuses a non-object map', () => {
    const [only] = lmStudio.parse(fixture('lm-studio', 'wrong-shape.json'), fileOf(lmStudio, 'user'));
    assert.equal(only?.entry, 'https://huggingface.co/mcp');
    const checked = parseEntry('hf-mcp-server', only?.entry);
    assert.equal(checked.ok ? '' : checked.error, 'server "hf-mcp-server": entry must be an object');
    assert.equal(
      fileError(lmStudio, fileOf(lmStudio, 'user'), '{"mcpServers": "hf"}'),
      '"mcpServers" is missing or is not an object of servers',
    );
  });
});
