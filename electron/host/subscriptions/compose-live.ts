import { join } from 'node:path';
import type { HostEvents } from '../host-events.js';
import type { McpHost } from '../mcp-host.js';
import type { DisposeStack } from '../util/disposable.js';
import type { Redactor } from '../util/redact.js';
import { LogLevelStore } from './log-level-store.js';
import { LogLevels } from './log-levels.js';
import { ResourceSubscriptions } from './resource-subscriptions.js';

/**
 * Create live resources and log levels on the composition root's stack, after the host and so
 * disposed before it: the sessions they ride on outlive them.
 */
export async function composeLiveServices(
  d: { host: McpHost; events: HostEvents; redactor: Redactor; dataDir: string | undefined },
  stack: DisposeStack,
): Promise<{ subscriptions: ResourceSubscriptions; logLevels: LogLevels }> {
  const { host, events } = d;
  const hostPort = { session: (id: string) => host.session(id), state: (id: string) => host.serverState(id) };
  const subscriptions = stack.use(new ResourceSubscriptions({ ...hostPort, events, redactor: d.redactor }));
  const store = d.dataDir
    ? await LogLevelStore.open(join(d.dataDir, 'log-levels.json'))
    : LogLevelStore.inMemory();
  const logLevels = stack.use(new LogLevels({ ...hostPort, events, store }));
  return { subscriptions, logLevels };
}
