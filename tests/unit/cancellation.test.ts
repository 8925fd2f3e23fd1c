// The abort reason the host gives a stopped call: the SDK sends String(reason) to the server as
// notifications/cancelled's reason, so it must read as the words, not "HostFailure: …" (issue 24).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Cancellation, HostFailure, toHostError } from '../../electron/host/util/errors.js';

test('a cancellation reads as its reason and is still a cancelled HostFailure', () => {
  const c = new Cancellation('cancelled by the user');
  assert.equal(String(c), 'cancelled by the user');
  assert.ok(c instanceof HostFailure);
  assert.equal(c.code, 'cancelled');
  assert.equal(toHostError(c).code, 'cancelled');
  const controller = new AbortController();
  controller.abort(c);
  assert.equal(String(controller.signal.reason), 'cancelled by the user');
});
