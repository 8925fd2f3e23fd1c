// Asserting a host refusal by its code, shared by the store tests.
import assert from 'node:assert/strict';
import { HostFailure } from '../../electron/host/util/errors.js';

/** Awaits `promise`, which must reject with a HostFailure of `code` (and a message matching `message`). */
export async function rejectsWith(promise: Promise<unknown>, code: string, message?: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof HostFailure, `expected a HostFailure, got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    if (message) assert.match(error.message, message);
    return true;
  });
}
