import type { HostInfo } from '../../shared/ipc/contract.js';
import { FileConfigStore, type ConfigStore } from './config/config-store.js';
import type { SecretResolver } from './config/expand.js';
import { FileEraCache, MemoryEraCache, type EraCache } from './connection/era-cache.js';
import { resolveLoginPath } from './connection/login-path.js';
import type { ConnectionDeps, ServerRequestHandlers } from './connection/server-connection.js';
import { HostEvents } from './host-events.js';
import { McpHost } from './mcp-host.js';
import { HostRouter } from './router.js';
import { Redactor } from './util/redact.js';

export interface ComposeOptions {
  configPath: string;
  /** Use this store instead of the file at configPath. */
  store?: ConfigStore;
  /** A file for the era-verdict cache; absent keeps verdicts in memory only. */
  eraCachePath?: string;
  mode: HostInfo['mode'];
  /** Ask the login shell for PATH (GUI launches); the CLI inherits a good PATH already. */
  useLoginShellPath?: boolean;
  handlers?: ServerRequestHandlers;
  secrets?: SecretResolver;
  backoff?: ConnectionDeps['backoff'];
  env?: NodeJS.ProcessEnv;
}

/** Everything a host entry point needs, wired once. */
export interface HostServices {
  host: McpHost;
  events: HostEvents;
  router: HostRouter;
  redactor: Redactor;
  dispose(): Promise<void>;
}

/** The composition root of the host core, shared by Electron main, browser mode, the CLI and tests. */
export async function composeHost(opts: ComposeOptions): Promise<HostServices> {
  const events = new HostEvents();
  const redactor = new Redactor();
  const eraCache: EraCache = opts.eraCachePath ? await FileEraCache.open(opts.eraCachePath) : new MemoryEraCache();
  const env = opts.env ?? process.env;
  const host = new McpHost({
    store: opts.store ?? new FileConfigStore(opts.configPath),
    eraCache,
    events,
    handlers: opts.handlers,
    backoff: opts.backoff,
    launch: {
      env,
      secrets: opts.secrets,
      redactor,
      path: opts.useLoginShellPath ? () => resolveLoginPath() : async () => env.PATH ?? '',
    },
  });
  const info = (): HostInfo => ({ version: '0.1.0', mode: opts.mode, configPath: opts.configPath });
  const router = new HostRouter(host, events, info, redactor);
  return {
    host,
    events,
    router,
    redactor,
    async dispose() {
      await host.dispose();
      if (eraCache instanceof FileEraCache) await eraCache.flush();
    },
  };
}
