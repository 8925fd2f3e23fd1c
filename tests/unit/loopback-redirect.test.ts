import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LoopbackRedirect } from '../../electron/host/auth/loopback-redirect.js';
import { SignInBudget } from '../../electron/host/auth/sign-in-budget.js';

async function started(
  state = 'st-1',
  timeoutMs?: number,
): Promise<{ listener: LoopbackRedirect; uri: string }> {
  const listener = new LoopbackRedirect({ expectedState: () => state, ...(timeoutMs ? { timeoutMs } : {}) });
  return { listener, uri: await listener.start() };
}

describe('LoopbackRedirect', () => {
  it('listens on 127.0.0.1 and hands over the query when state matches', async () => {
    const { listener, uri } = await started();
    assert.match(uri, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const res = await fetch(`${uri}?code=abc123&state=st-1&iss=https%3A%2F%2Fas.example`);
    assert.equal(res.status, 200);
    const outcome = await listener.wait();
    assert.ok(outcome.ok);
    assert.equal(outcome.params.get('code'), 'abc123');
    assert.equal(outcome.params.get('iss'), 'https://as.example');
  });

  it('refuses a wrong state and passes no code on; the page reflects nothing', async () => {
    const { listener, uri } = await started();
    const res = await fetch(`${uri}?code=<b>abc</b>&state=forged`);
    assert.equal(res.status, 400);
    const body = await res.text();
    assert.ok(!body.includes('abc') && !body.includes('forged'));
    const outcome = await listener.wait();
    assert.deepEqual(outcome.ok ? 'ok' : outcome.code, 'state_mismatch');
  });

  it("reports the AS's error code, never its description", async () => {
    const { listener, uri } = await started();
    await fetch(
      `${uri}?error=access_denied&error_description=${encodeURIComponent('Call +1 555 to fix your account')}&state=st-1`,
    );
    const outcome = await listener.wait();
    assert.ok(!outcome.ok);
    assert.equal(outcome.code, 'access_denied');
    assert.ok(!outcome.reason.includes('555'));
    const odd = await started();
    await fetch(`${odd.uri}?error=${encodeURIComponent('<script>')}&state=st-1`);
    const o2 = await odd.listener.wait();
    assert.ok(!o2.ok && o2.code === 'unknown_error');
  });

  it('times out, can be cancelled, answers 404 elsewhere and closes after one answer', async () => {
    const slow = await started('s', 50);
    const timedOut = await slow.listener.wait();
    assert.ok(!timedOut.ok && timedOut.code === 'timeout');
    const { listener, uri } = await started();
    assert.equal((await fetch(uri.replace('/callback', '/other'))).status, 404);
    listener.cancel();
    const outcome = await listener.wait();
    assert.ok(!outcome.ok && outcome.code === 'cancelled');
    await new Promise((r) => setTimeout(r, 20));
    await assert.rejects(fetch(`${uri}?code=x&state=st-1`));
  });
});

describe('SignInBudget', () => {
  it('allows `max` sign-ins per window, per server, and resets', () => {
    let now = 0;
    const b = new SignInBudget(2, 1000, () => now);
    assert.equal(b.take('a'), true);
    assert.equal(b.take('a'), true);
    assert.equal(b.take('a'), false);
    assert.equal(b.take('b'), true);
    now = 1001;
    assert.equal(b.take('a'), true);
    b.reset('a');
    assert.equal(b.take('a'), true);
  });
});
