// The one error protocol (DESIGN.md §6 rule 8): the host's converter, the shared narrowing and
// the renderer's converter agree; the code union is closed; details (field errors, hints) travel
// as data and the hint is written by the host.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { HostFailure, toHostError } from '../../electron/host/util/errors.js';
import { withFailureHint } from '../../electron/host/util/failure-hints.js';
import { asHostError, hostCallError } from '../../renderer/host/errors.js';
import { fieldErrorsFromHost } from '../../renderer/views/servers/server-form-model.js';
import {
  HOST_ERROR_CODES,
  HostCallError,
  isHostErrorCode,
  parseHostError,
  type HostError,
} from '../../shared/ipc/host-error.js';

/** What crosses the wire: JSON both ways, as the bridge sends it. */
function overTheWire(error: HostError): unknown {
  return JSON.parse(JSON.stringify(error)) as unknown;
}

describe('the code union', () => {
  it('lists each code once, and only those are codes', () => {
    assert.equal(new Set(HOST_ERROR_CODES).size, HOST_ERROR_CODES.length);
    assert.ok(isHostErrorCode('invalid_request'));
    assert.ok(!isHostErrorCode('INVALID_REQUEST'));
    assert.ok(!isHostErrorCode('toString'));
  });

  it('turns a code this build does not know into unknown, keeping the message', () => {
    const e = parseHostError({ code: 'brand_new_code', message: 'something new broke' });
    assert.deepEqual(e, { code: 'unknown', message: 'something new broke' });
    assert.equal(asHostError({ code: 'nope', message: 'm' }).code, 'unknown');
    assert.equal(hostCallError({ code: 42, message: 'm' }).code, 'unknown');
  });

  it('reads anything that is not an error object as unknown', () => {
    assert.deepEqual(parseHostError('boom'), { code: 'unknown', message: 'boom' });
    assert.equal(parseHostError(null).code, 'unknown');
    assert.equal(parseHostError({ code: 'timeout' }).code, 'unknown');
  });

  it('maps every SDK error code to one of ours', () => {
    const timeout = toHostError(new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out'));
    assert.equal(timeout.code, 'timeout');
    for (const code of Object.values(SdkErrorCode)) {
      const e = toHostError(new SdkError(code, 'x'));
      assert.ok(isHostErrorCode(e.code) && e.code !== 'error', `${code} -> ${e.code}`);
    }
  });
});

describe('details survive the trip', () => {
  it('keeps field errors through the host, the wire and the renderer', () => {
    const host = toHostError(
      new HostFailure('invalid_request', 'servers.add: config.command: must not be empty', {
        fields: { 'config.command': 'must not be empty', name: 'name is required' },
      }),
    );
    const seen = asHostError(hostCallError(overTheWire(host)));
    assert.deepEqual(seen, host);
    assert.deepEqual(seen.details?.fields, {
      'config.command': 'must not be empty',
      name: 'name is required',
    });
  });

  it('drops detail keys it does not know and values of the wrong type', () => {
    const e = parseHostError({
      code: 'protocol_error',
      message: 'm',
      details: { rpcCode: -32601, hint: 7, fields: { a: 'ok', b: 3 }, secret: 'x' },
    });
    assert.deepEqual(e.details, { rpcCode: -32601, fields: { a: 'ok' } });
  });

  it('puts field errors on the server form fields and keeps the rest for the error box', () => {
    const { fields, rest } = fieldErrorsFromHost({
      code: 'invalid_request',
      message: 'servers.add: ...',
      details: {
        fields: { 'config.command': 'must not be empty', 'config.bogus': 'unknown key', name: 'bad' },
      },
    });
    assert.deepEqual(fields, { command: 'must not be empty', name: 'bad' });
    assert.deepEqual(rest, ['config.bogus: unknown key']);
    const other = fieldErrorsFromHost({
      code: 'server_exists',
      message: 'a server named "a" already exists',
    });
    assert.deepEqual(other, { fields: {}, rest: ['a server named "a" already exists'] });
  });

  it('keeps a HostCallError whole in the renderer converter', () => {
    const error = new HostCallError({
      code: 'outside_roots',
      message: 'refused',
      details: { uri: 'file:///x' },
    });
    assert.deepEqual(asHostError(error), {
      code: 'outside_roots',
      message: 'refused',
      details: { uri: 'file:///x' },
    });
    assert.deepEqual(asHostError(new TypeError('bad')), { code: 'error', message: 'bad' });
  });
});

describe('failure hints come from the host', () => {
  it('names the errno and attaches the next step to a failed server as data', () => {
    const enoent = Object.assign(new Error('spawn nosuchcmd ENOENT'), { code: 'ENOENT' });
    const error = toHostError(enoent);
    assert.equal(error.code, 'enoent');
    assert.equal(error.message, 'Command not found: nosuchcmd — is it installed and on PATH?');
    assert.equal(error.details?.technical, 'spawn nosuchcmd ENOENT');
    const state = withFailureHint({ kind: 'failed', error }, 'stdio');
    assert.ok(state.kind === 'failed');
    assert.match(state.error.details?.hint ?? '', /check the command or PATH — an absolute path/);
    // The renderer shows what the host wrote; it does not work a hint out itself.
    assert.equal(asHostError(overTheWire(state.error)).details?.hint, state.error.details?.hint);
  });

  it('hints a refused connection while reconnecting, and leaves other states alone', () => {
    const refused = { code: 'econnrefused', message: 'connection refused (fetch failed)' } as const;
    const state = withFailureHint(
      { kind: 'reconnecting', attempt: 1, retryAt: 0, lastError: refused },
      'http',
    );
    assert.ok(state.kind === 'reconnecting');
    assert.match(state.lastError.details?.hint ?? '', /nothing is listening there/);
    const plain = { kind: 'connecting', attempt: 1 } as const;
    assert.equal(withFailureHint(plain, 'http'), plain);
    const noHint = withFailureHint({ kind: 'failed', error: { code: 'error', message: 'odd' } }, 'stdio');
    assert.ok(noHint.kind === 'failed' && noHint.error.details === undefined);
  });
});
