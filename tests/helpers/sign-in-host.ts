/**
 * The host the OAuth and DPoP sign-in tests start (and restart): its config and data in one
 * folder, so a second host finds what the first stored, and every event it sends noted for
 * the leak checks.
 */
import { join } from 'node:path';
import { composeHost, type ComposeOptions, type HostServices } from '../../electron/host/compose.js';
import { FileConfigStore } from '../../electron/host/config/config-store.js';
import { TEST_BACKOFF, type CleanupStack } from './host-harness.js';

/** What a sign-in test chooses: its environment, the browser trip, the token vault, the sign-in limits. */
export type SignInHostOptions = Pick<ComposeOptions, 'env' | 'openExternal' | 'signIn' | 'tokenVault'>;

/**
 * An initialised host on `<dir>/mcp-servers.json` with its data in `<dir>/data`; each event
 * lands in `events` as `name payload`. Disposed at cleanup.
 */
export async function composeSignInHost(
  stack: CleanupStack,
  dir: string,
  events: string[],
  options: SignInHostOptions,
): Promise<HostServices> {
  const services = await composeHost({
    configPath: join(dir, 'mcp-servers.json'),
    store: new FileConfigStore(join(dir, 'mcp-servers.json')),
    mode: 'cli',
    backoff: TEST_BACKOFF,
    dataDir: join(dir, 'data'),
    ...options,
  });
  const off = services.events.onAny((name, payload) => events.push(`${name} ${JSON.stringify(payload)}`));
  stack.defer(async () => {
    off();
    await services.dispose();
  });
  await services.host.init();
  return services;
}

/** What a person or the renderer sees of server `id`: the events noted, its trace and log, the audit log, the server list. */
export async function visibleOutputs(t: HostServices, id: string, events: string[]): Promise<string[]> {
  return [
    ...events,
    JSON.stringify(t.host.trace(id)),
    JSON.stringify(t.host.log(id)),
    JSON.stringify(await t.audit.query({})),
    JSON.stringify(await t.router.handle('servers.list', {})),
  ];
}
