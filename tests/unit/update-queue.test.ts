import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UpdateQueue } from '../../electron/host/subscriptions/update-queue.js';
import type { ResourceUpdated } from '../../shared/ipc/contract.js';

describe('UpdateQueue', () => {
  it('coalesces per resource, caps what waits, and counts what it drops', () => {
    const out: ResourceUpdated[] = [];
    const q = new UpdateQueue((u) => out.push(u), 2, 60_000);
    q.push({ serverId: 's', uri: 'a', at: 1 });
    q.push({ serverId: 's', uri: 'a', at: 2 });
    q.push({ serverId: 's', uri: 'b', at: 3 });
    q.push({ serverId: 's', uri: 'c', at: 4 });
    assert.equal(q.size, 2);
    assert.equal(q.dropped, 1);
    q.flush();
    assert.deepEqual(out, [
      { serverId: 's', uri: 'a', at: 2 },
      { serverId: 's', uri: 'b', at: 3 },
    ]);
    q.dispose();
  });

  it('forgets what waits for a server that went away', () => {
    const out: ResourceUpdated[] = [];
    const q = new UpdateQueue((u) => out.push(u), 10, 60_000);
    q.push({ serverId: 'gone', uri: 'a', at: 1 });
    q.push({ serverId: 'kept', uri: 'a', at: 1 });
    q.forget('gone');
    q.flush();
    assert.deepEqual(
      out.map((u) => u.serverId),
      ['kept'],
    );
    q.dispose();
  });
});
