/**
 * What Import accepts (issue 12 item 4): Claude Desktop's mcpServers, VS Code's servers (and its
 * settings.json mcp.servers), a bare map of servers, one named server; anything else is refused
 * with the shapes expected, and "0 added" always says why.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseImport } from '../../electron/host/config/import-document.js';
import { HostFailure } from '../../electron/host/util/errors.js';
import { nothingAddedReason, pastedShape, wrapSingle } from '../../renderer/views/servers/import-shape.js';

const fs = { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] };
const names = (text: string) => parseImport(text).map((e) => [e.name, e.ok]);

function refusal(text: string): HostFailure {
  try {
    parseImport(text);
  } catch (error) {
    assert.ok(error instanceof HostFailure);
    assert.equal(error.code, 'import_invalid');
    return error;
  }
  assert.fail(`accepted ${text}`);
}

describe('import shapes', () => {
  it('reads mcpServers, servers, mcp.servers and a bare map alike', () => {
    assert.deepEqual(names(JSON.stringify({ mcpServers: { fs } })), [['fs', true]]);
    assert.deepEqual(names(JSON.stringify({ servers: { fs: { type: 'stdio', ...fs } } })), [['fs', true]]);
    assert.deepEqual(names(JSON.stringify({ mcp: { servers: { fs } } })), [['fs', true]]);
    assert.deepEqual(names(JSON.stringify({ fs, web: { url: 'https://example.com/mcp' } })), [
      ['fs', true],
      ['web', true],
    ]);
  });

  it('refuses what holds no servers, naming the shapes it expects', () => {
    assert.match(refusal('{"theme": "dark"}').message, /No servers found — expected \{"mcpServers"/);
    assert.match(refusal('[1, 2]').message, /Not a JSON object/);
    assert.match(refusal('{not json').message, /not valid JSON/);
    assert.match(refusal('{"mcpServers": {}}').message, /empty/);
    const one = refusal(JSON.stringify(fs));
    assert.match(one.message, /one server without a name/);
    assert.ok(one.details?.hint);
  });

  it('asks the panel for a name for one server, and wraps it', () => {
    const text = JSON.stringify(fs);
    assert.deepEqual(pastedShape(text), { kind: 'single', suggestedName: 'filesystem' });
    assert.deepEqual(pastedShape(JSON.stringify({ url: 'https://tools.example.com/mcp' })), {
      kind: 'single',
      suggestedName: 'tools',
    });
    assert.deepEqual(names(wrapSingle(text, 'files')), [['files', true]]);
    assert.equal(pastedShape(JSON.stringify({ mcpServers: { fs } })).kind, 'document');
    assert.equal(pastedShape('  ').kind, 'empty');
  });

  it('says why nothing was added', () => {
    const exists = { name: 'a', reason: 'a server with this name already exists' };
    assert.equal(
      nothingAddedReason({
        added: [],
        skipped: [exists, { ...exists, name: 'b' }, { ...exists, name: 'c' }],
      }),
      'Nothing added: all 3 already exist.',
    );
    assert.match(
      nothingAddedReason({ added: [], skipped: [exists, { name: 'x', reason: 'server "x": bad' }] }) ?? '',
      /1 already exist and 1 are not valid/,
    );
    assert.equal(nothingAddedReason({ added: ['a'], skipped: [] }), undefined);
  });
});
