import type { Transport } from '@modelcontextprotocol/client';
import { TaskHandleTap } from './task-handle-tap.js';
import { LIMITS } from '../util/limits.js';
import { ListGuard } from './list-guard.js';
import type { ServerOutput } from './server-output.js';
import { RateWindow } from '../util/rate-window.js';
import { installFramer, isRateCapped } from './stdio-framer.js';
import { tapTransport } from './trace-tap.js';

/**
 * Everything that stands between a server's bytes and the SDK, attached before any byte
 * moves: the bounded stdout framer (stdio) or the notification rate cap (remote), the trace,
 * the tools/list guard and the task-handle tap (a tools/call answered with a task). Each says
 * in the server's log what the server did wrong.
 */
export function guardTransport(transport: Transport, output: ServerOutput): void {
  const flood = (n: number) =>
    output.note(
      `dropped ${n.toLocaleString('en-US')} notifications from this server unread (over ${LIMITS.notificationsPerSecond} per second)`,
    );
  const framed = installFramer(transport, {
    garbage: (bytes, sample) =>
      output.note(`stdout: skipped ${bytes} bytes that are not JSON-RPC: ${JSON.stringify(sample)}`),
    oversize: (bytes, id) =>
      output.note(
        `stdout: dropped a ${bytes.toLocaleString('en-US')}-byte message${id === undefined ? '' : ` (the response to request ${String(id)})`}: over the limit for one message`,
      ),
    flood,
  });
  // A remote server's notifications (Streamable HTTP, SSE) get the stdio framer's cap here, as
  // they reach the client: dropped before the trace, the log and the SDK's handlers see them.
  const notifications = framed ? undefined : new RateWindow(LIMITS.notificationsPerSecond, flood);
  const guard = new ListGuard((text) => output.note(text));
  const tasks = new TaskHandleTap();
  tapTransport(
    transport,
    (dir, msg) => {
      output.record(dir, msg);
      if (dir === 'out') {
        guard.outgoing(msg);
        tasks.outgoing(msg);
      }
    },
    (msg) => {
      guard.incoming(msg);
      tasks.incoming(msg);
    },
    notifications && ((msg) => isRateCapped(msg) && !notifications.take()),
  );
}
