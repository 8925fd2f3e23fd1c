import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { installSdkProbePatch } from '../../electron/host/connection/probe-sibling.js';

// installSdkProbePatch wraps an internal of the SDK (StdioClientTransport.prototype._dispose,
// which reaps the era probe's sibling process). If an SDK upgrade renames or drops it, the
// patch silently stops reaping grandchildren: these tests make that upgrade fail loudly.

interface ProbeInternals {
  _dispose?: unknown;
  _serverParams?: unknown;
}

const proto = StdioClientTransport.prototype as unknown as ProbeInternals;

test('the SDK still has the method the probe patch wraps (StdioClientTransport.prototype._dispose)', () => {
  assert.ok(
    Object.prototype.hasOwnProperty.call(proto, '_dispose'),
    'StdioClientTransport.prototype no longer owns _dispose: the SDK changed shape; revisit installSdkProbePatch',
  );
  assert.equal(
    typeof proto._dispose,
    'function',
    'StdioClientTransport.prototype._dispose is not a function: the SDK changed shape; revisit installSdkProbePatch',
  );
});

test('the SDK still keeps what its sibling probe clones a transport from (_serverParams, pid)', () => {
  const transport = new StdioClientTransport({ command: process.execPath, args: ['-e', ''] });
  const params = (transport as unknown as ProbeInternals)._serverParams as { command?: unknown } | undefined;
  assert.equal(params?.command, process.execPath, 'StdioClientTransport no longer retains _serverParams');
  assert.ok('pid' in transport, 'StdioClientTransport no longer exposes pid: the patch cannot find the tree');
});

test('installing the probe patch replaces _dispose once and is idempotent', () => {
  const before = proto._dispose;
  const first = installSdkProbePatch();
  assert.ok(first === 'installed' || first === 'already-installed', `probe patch not installed: ${first}`);
  const patched = proto._dispose;
  assert.equal(typeof patched, 'function');
  if (first === 'installed') assert.notEqual(patched, before, 'the patch did not replace _dispose');
  assert.ok(Object.prototype.hasOwnProperty.call(proto, '_dispose'), 'the patched _dispose must stay own');
  assert.equal(installSdkProbePatch(), 'already-installed');
  assert.equal(proto._dispose, patched, 'a second install must not wrap the wrapper');
});
