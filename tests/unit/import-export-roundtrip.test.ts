/**
 * Issue 14 must-show 5: export to each supported host format, import the result back with that
 * host's own importer, validate it, and get the same entries. Where a format truly cannot carry
 * a field, the test asserts exactly that difference (and that the export's notes say so).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseEntry } from '../../electron/host/config/config-document.js';
import { exportServers, type ExportServer } from '../../electron/host/importers/export.js';
import { importerFor } from '../../electron/host/importers/index.js';
import type { ParsedServer } from '../../electron/host/importers/importer.js';
import type { ExportFormat } from '../../shared/domain/imports.js';
import type { ServerConfig } from '../../shared/domain/server-config.js';
import { linux } from '../helpers/import-fixtures.js';

/** What every format carries: stdio with env and a secret, HTTP with headers, SSE. */
const BASE: ExportServer[] = [
  {
    name: 'files',
    config: {
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/ann/docs'],
      env: { GITHUB_TOKEN: '${secret:GITHUB_TOKEN}', LOG_LEVEL: 'debug', DATA_DIR: '${env:HOME}/data' },
    },
  },
  {
    name: 'web',
    config: {
      type: 'http',
      url: 'https://mcp.example.com/mcp',
      headers: { Authorization: 'Bearer ${secret:WEB_TOKEN}', 'X-Team': 'blue' },
    },
  },
  {
    name: 'events',
    config: { type: 'sse', url: 'https://events.example.com/sse', headers: { 'X-Key': '${env:EVENTS_KEY}' } },
  },
];

/** Our own settings on top, which only some formats have a place for. */
const EXTRAS: ExportServer[] = [
  {
    name: 'tuned',
    config: {
      command: 'node',
      args: ['server.js'],
      cwd: '/home/ann/srv',
      timeout: 30_000,
      trust: 'trusted',
      includeTools: ['read'],
      excludeTools: ['write'],
      disabled: true,
      sandbox: true,
    },
  },
  {
    name: 'signed-in',
    config: {
      type: 'http',
      url: 'https://auth.example.com/mcp',
      trust: 'untrusted',
      oauth: { clientId: 'desk', clientSecret: '${secret:CLIENT_SECRET}', scope: 'read write' },
    },
  },
];

/** The file a pasted snippet of each format would be read from. */
const PASTED_INTO: Record<ExportFormat, string> = {
  'claude-desktop': 'claude_desktop_config.json',
  'claude-code': '/home/ann/work/app/.mcp.json',
  vscode: 'Code/User/mcp.json',
  cursor: '/home/ann/.cursor/mcp.json',
  'gemini-cli': '/home/ann/.gemini/settings.json',
};

function fileFor(format: ExportFormat) {
  const importer = importerFor(format);
  assert.ok(importer);
  const file = importer.files(linux).find((f) => f.path.endsWith(PASTED_INTO[format]));
  assert.ok(file, `the ${format} file`);
  return { importer, file };
}

/** Export, import back, validate: the entries by name, and the parsed servers. */
function roundTrip(format: ExportFormat, servers: readonly ExportServer[]) {
  const snippet = exportServers(format, servers);
  const { importer, file } = fileFor(format);
  const parsed: ParsedServer[] = importer.parse(snippet.text, file);
  const entries: Record<string, ServerConfig> = {};
  for (const s of parsed) {
    const checked = parseEntry(s.name, s.entry);
    assert.ok(checked.ok, `${format} "${s.name}": ${checked.ok ? '' : checked.error}`);
    entries[s.name] = checked.config;
  }
  return { snippet, parsed, entries };
}

function byName(servers: readonly ExportServer[]): Record<string, ServerConfig> {
  return structuredClone(Object.fromEntries(servers.map((s) => [s.name, s.config])));
}

describe('export then import back', () => {
  it('Claude Code: the same entries; the add-json commands carry the same JSON', () => {
    const { entries, snippet, parsed } = roundTrip('claude-code', BASE);
    assert.deepEqual(entries, byName(BASE));
    assert.ok(parsed.every((s) => s.notCarried.length === 0));
    assert.deepEqual(
      snippet.commands?.[1],
      `claude mcp add-json 'web' '{"type":"http","url":"https://mcp.example.com/mcp","headers":{"Authorization":"Bearer \${secret:WEB_TOKEN}","X-Team":"blue"}}'`,
    );
    const files = JSON.parse(/'(\{.*\})'$/.exec(snippet.commands?.[0] ?? '')?.[1] ?? '{}') as unknown;
    assert.deepEqual(
      files,
      (JSON.parse(snippet.text) as { mcpServers: Record<string, unknown> }).mcpServers.files,
    );
  });

  it('VS Code: the same entries; secrets travel as inputs that come back as secrets to fill', () => {
    const { entries, parsed, snippet } = roundTrip('vscode', BASE);
    assert.deepEqual(entries, byName(BASE));
    assert.match(snippet.text, /"GITHUB_TOKEN": "\$\{input:GITHUB_TOKEN\}"/);
    assert.deepEqual(
      parsed.flatMap((s) => s.inputs),
      [
        {
          secretName: 'GITHUB_TOKEN',
          from: 'env.GITHUB_TOKEN',
          description: "GITHUB_TOKEN (kept in MCP Desk's keychain)",
        },
        {
          secretName: 'WEB_TOKEN',
          from: 'headers.Authorization',
          description: "WEB_TOKEN (kept in MCP Desk's keychain)",
        },
      ],
    );
  });

  it('gemini-cli: the same entries (httpUrl for HTTP, url for SSE, $VAR for env references)', () => {
    const { entries, snippet } = roundTrip('gemini-cli', BASE);
    assert.deepEqual(entries, byName(BASE));
    assert.match(snippet.text, /"httpUrl": "https:\/\/mcp\.example\.com\/mcp"/);
    assert.match(snippet.text, /"DATA_DIR": "\$\{HOME\}\/data"/);
  });

  it('Cursor: the same entries except the remote transport, which Cursor picks itself', () => {
    const { entries } = roundTrip('cursor', BASE);
    const expected = byName(BASE);
    // Cursor's file has no type: it tries Streamable HTTP, then SSE, as we do without one.
    for (const name of ['web', 'events']) delete (expected[name] as { type?: string }).type;
    assert.deepEqual(entries, expected);
  });

  it('Claude Desktop: the local server only; remote ones are left out with a note', () => {
    const { entries, snippet } = roundTrip('claude-desktop', BASE);
    assert.deepEqual(entries, { files: BASE[0]?.config });
    assert.equal(snippet.notes.filter((n) => n.includes('Settings › Connectors')).length, 2);
  });
});

describe('export then import back, with our own settings', () => {
  it('gemini-cli keeps cwd, timeout, trust, tool lists, switched-off and OAuth; only the sandbox is lost', () => {
    const { entries, snippet } = roundTrip('gemini-cli', EXTRAS);
    const tuned = { ...EXTRAS[0]?.config } as Record<string, unknown>;
    delete tuned.sandbox;
    assert.deepEqual(entries, { tuned, 'signed-in': EXTRAS[1]?.config });
    assert.deepEqual((JSON.parse(snippet.text) as { mcp?: unknown }).mcp, { excluded: ['tuned'] });
    assert.ok(
      snippet.notes.includes(
        '"tuned": gemini-cli has no place for running in the sandbox, so it is left out.',
      ),
    );
  });

  it('VS Code keeps cwd, the sandbox and the OAuth client ID; drops the rest, and says so', () => {
    const { entries, snippet } = roundTrip('vscode', EXTRAS);
    assert.deepEqual(entries, {
      tuned: { command: 'node', args: ['server.js'], cwd: '/home/ann/srv', sandbox: true },
      'signed-in': { type: 'http', url: 'https://auth.example.com/mcp', oauth: { clientId: 'desk' } },
    });
    assert.deepEqual(snippet.notes, [
      '"tuned": VS Code has no place for switching it off, its list of tools to offer, its list of tools to hide, its timeout, its trust setting, so they are left out.',
      '"signed-in": VS Code\'s oauth takes a client ID only; clientSecret, scope are left out.',
      '"signed-in": VS Code has no place for its trust setting, so it is left out.',
    ]);
  });

  it('Claude Code, Cursor and Claude Desktop keep the launch fields only', () => {
    for (const format of ['claude-code', 'cursor', 'claude-desktop'] as const) {
      const { entries } = roundTrip(format, EXTRAS);
      const remote: Record<string, unknown> = {
        'claude-code': { 'signed-in': { type: 'http', url: 'https://auth.example.com/mcp' } },
        cursor: { 'signed-in': { url: 'https://auth.example.com/mcp' } },
        'claude-desktop': {},
      }[format];
      const tuned = { command: 'node', args: ['server.js'] };
      assert.deepEqual(entries, { tuned, ...remote }, format);
    }
  });
});
