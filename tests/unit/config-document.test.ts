import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseDocument, serialiseDocument } from '../../electron/host/config/config-document.js';
import { maskConfig, unmaskConfig } from '../../electron/host/config/config-mask.js';
import { toolFilter } from '../../electron/host/catalog/tool-filter.js';
import { MASKED_VALUE } from '../../shared/domain/server-state.js';

test('claude_desktop_config.json: good entries parse, each bad one fails alone with server and field named', () => {
  const doc = parseDocument(
    JSON.stringify({
      globalShortcut: 'Ctrl+Space',
      mcpServers: {
        fs: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] },
        remote: { url: 'https://example.com/mcp', headers: { 'X-Team': 'a' } },
        empty: { command: '' },
        neither: { foo: 1 },
        badurl: { url: 'ftp://example.com' },
        badtimeout: { command: 'x', timeout: 'soon' },
        extra: { command: 'x', bogus: true },
      },
    }),
  );
  const byName = Object.fromEntries(doc.entries.map((e) => [e.name, e]));
  assert.equal(byName.fs?.ok, true);
  assert.equal(byName.remote?.ok, true);
  const errorOf = (n: string) => {
    const e = byName[n];
    assert.ok(e && !e.ok, `${n} should be invalid`);
    return e.error;
  };
  assert.match(errorOf('empty'), /server "empty": command: command must not be empty/);
  assert.match(errorOf('neither'), /server "neither": entry needs either "command" \(stdio\) or "url"/);
  assert.match(errorOf('badurl'), /server "badurl": url: url must start with http/);
  assert.match(errorOf('badtimeout'), /server "badtimeout": timeout:/);
  assert.match(errorOf('extra'), /server "extra": .*bogus/);
});

test('saving writes invalid entries back untouched and keeps unrelated top-level keys', () => {
  const text = JSON.stringify({
    globalShortcut: 'Ctrl+Space',
    mcpServers: { broken: { command: 42, note: 'keep me' }, ok: { command: 'node' } },
  });
  const out = JSON.parse(serialiseDocument(parseDocument(text))) as Record<string, unknown>;
  assert.equal(out.globalShortcut, 'Ctrl+Space');
  assert.deepEqual((out.mcpServers as Record<string, unknown>).broken, { command: 42, note: 'keep me' });
});

test('VS Code mcp.json ("servers", type stdio / streamable-http) is understood', () => {
  const doc = parseDocument(
    JSON.stringify({
      servers: {
        a: { type: 'stdio', command: 'node' },
        b: { type: 'streamable-http', url: 'http://127.0.0.1:1/mcp' },
      },
    }),
  );
  assert.equal(doc.key, 'servers');
  assert.ok(doc.entries.every((e) => e.ok));
});

test('not JSON, or not an object: one clear error', () => {
  assert.throws(() => parseDocument('{"mcpServers": '), /not valid JSON/);
  assert.throws(() => parseDocument('[]'), /must be a JSON object/);
  assert.throws(() => parseDocument('{"mcpServers": []}'), /must be an object/);
});

test('secrets are masked for the renderer and a mask sent back keeps the stored value', () => {
  const stored = {
    command: 'node',
    env: { API_KEY: 'sk-live-123456', MODE: 'fast', TOKEN_REF: '${secret:tok}' },
  };
  const masked = maskConfig(stored);
  assert.ok('env' in masked);
  assert.deepEqual(masked.env, { API_KEY: MASKED_VALUE, MODE: 'fast', TOKEN_REF: '${secret:tok}' });
  const edited = { ...masked, env: { ...masked.env, MODE: 'slow' } };
  assert.deepEqual(unmaskConfig(edited, stored), {
    command: 'node',
    env: { API_KEY: 'sk-live-123456', MODE: 'slow', TOKEN_REF: '${secret:tok}' },
  });
  const remote = maskConfig({
    url: 'https://x.test/mcp',
    headers: { Authorization: 'Bearer abcdefgh', Accept: 'x' },
  });
  assert.ok('headers' in remote);
  assert.deepEqual(remote.headers, { Authorization: MASKED_VALUE, Accept: 'x' });
});

test('includeTools / excludeTools accept names and * globs', () => {
  const f = toolFilter({ command: 'x', includeTools: ['read_*', 'echo'], excludeTools: ['read_secret'] });
  assert.deepEqual(['read_file', 'read_secret', 'echo', 'write_file'].filter(f), ['read_file', 'echo']);
  assert.equal(toolFilter({ command: 'x' })('anything'), true);
});
