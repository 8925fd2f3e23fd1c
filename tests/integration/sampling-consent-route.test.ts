import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { CleanupStack, createTestHost } from '../helpers/host-harness.js';

const stack = new CleanupStack();
after(() => stack.run());

test('sampling consent is read and changed through the contract, validated like every channel', async () => {
  const h = await createTestHost(stack, { servers: {} });
  const get = await h.router.handle('sampling.consent.get', { serverId: 'srv' });
  assert.deepEqual(get, { ok: true, value: { consent: 'ask', skipReplyReview: false } });
  const set = await h.router.handle('sampling.consent.set', {
    serverId: 'srv',
    consent: 'never',
    skipReplyReview: true,
  });
  assert.deepEqual(set, { ok: true, value: { consent: 'never', skipReplyReview: true } });
  assert.deepEqual(h.samplingConsent.get('srv'), { consent: 'never', skipReplyReview: true });
  const bad = await h.router.handle('sampling.consent.set', { serverId: 'srv', consent: 'sometimes' });
  assert.equal(bad.ok, false);
  if (!bad.ok) assert.equal(bad.error.code, 'invalid_request');
});
