/**
 * The reconnect backoff: exponential and capped, a crash loop backs off without giving up,
 * failed connects in a row give up, a stable period wipes the crash count, causes are kept.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RestartPolicy, type RestartDecision } from '../../electron/host/connection/restart-policy.js';
import type { HostError } from '../../shared/domain/server-state.js';

const closed: HostError = { code: 'connection_closed', message: 'the server closed the connection' };
const refused: HostError = { code: 'enoent', message: 'command not found' };

/** A policy on a hand-driven clock with no jitter (random 0.5 → factor 1). */
function policy(stableMs = 10_000) {
  const clock = { now: 0 };
  const p = new RestartPolicy(
    { baseMs: 100, maxMs: 1000, maxAttempts: 3, stableMs },
    () => clock.now,
    () => 0.5,
  );
  return { p, clock };
}

function delayOf(d: RestartDecision): number {
  assert.ok(d.retry, `expected a retry, got ${JSON.stringify(d)}`);
  return Math.round(d.delayMs);
}

describe('restart policy', () => {
  it('backs a crash loop off exponentially to the cap, and never gives up on it', () => {
    const { p, clock } = policy();
    const delays: number[] = [];
    for (let i = 0; i < 8; i++) {
      p.connected();
      clock.now += 500;
      delays.push(delayOf(p.afterCrash(closed)));
    }
    assert.deepEqual(delays, [100, 200, 400, 800, 1000, 1000, 1000, 1000]);
    assert.equal(p.state().crashes, 8);
  });

  it('starts over at the base delay once the server stayed up for the stable period', () => {
    const { p, clock } = policy(10_000);
    p.connected();
    delayOf(p.afterCrash(closed));
    p.connected();
    assert.equal(delayOf(p.afterCrash(closed)), 200);
    p.connected();
    clock.now += 10_000;
    assert.equal(delayOf(p.afterCrash(closed)), 100);
    assert.equal(p.state().crashes, 1);
  });

  it('gives up after maxAttempts failed connects in a row, naming the count', () => {
    const { p } = policy();
    p.connected();
    assert.equal(delayOf(p.afterCrash(closed)), 100);
    assert.equal(delayOf(p.afterFailedAttempt(refused)), 200);
    assert.equal(delayOf(p.afterFailedAttempt(refused)), 400);
    assert.deepEqual(p.afterFailedAttempt(refused), { retry: false, attempts: 3 });
  });

  it('a good connect clears the failures; a reset (a person restarts it) clears everything', () => {
    const { p } = policy();
    p.connected();
    p.afterCrash(closed);
    p.afterFailedAttempt(refused);
    p.connected();
    assert.equal(p.state().failures, 0);
    assert.equal(p.state().crashes, 1);
    p.reset();
    assert.deepEqual({ ...p.state(), recent: [] }, { crashes: 0, failures: 0, recent: [] });
  });

  it('records each decision with its cause and delay, keeping only the latest', () => {
    const { p, clock } = policy();
    for (let i = 0; i < 30; i++) {
      clock.now = i;
      p.connected();
      p.afterCrash(closed);
    }
    const recent = p.state().recent;
    assert.equal(recent.length, 20);
    assert.equal(recent[recent.length - 1].at, 29);
    assert.equal(recent[0].code, 'connection_closed');
    assert.equal(recent[recent.length - 1].delayMs, 1000);
  });

  it('keeps the jitter within ±20%', () => {
    for (const r of [0, 0.999]) {
      const p = new RestartPolicy(
        { baseMs: 1000, maxMs: 10_000, maxAttempts: 3 },
        () => 0,
        () => r,
      );
      p.connected();
      const d = delayOf(p.afterCrash(closed));
      assert.ok(d >= 800 && d <= 1200, String(d));
    }
  });
});
