import { join } from 'node:path';
import type { HostInfo } from '../../shared/ipc/contract.js';
import { FileConfigStore, type ConfigStore } from './config/config-store.js';
import type { SecretResolver } from './config/expand.js';
import { FileEraCache, MemoryEraCache, type EraCache } from './connection/era-cache.js';
import { resolveLoginPath } from './connection/login-path.js';
import type { ConnectionDeps, ServerRequestHandlers } from './connection/server-connection.js';
import { ChatService } from './chat/chat-service.js';
import { ProviderFactory, type ProviderOverrides } from './chat/provider-factory.js';
import { ToolPolicy } from './chat/tool-policy.js';
import { HostEvents } from './host-events.js';
import { PendingBroker } from './pending/pending-broker.js';
import { FileConversationStore, MemoryConversationStore } from './stores/conversation-store.js';
import { KeychainSecretStore, type SecretStore } from './stores/secret-store.js';
import { SettingsStore } from './stores/settings-store.js';
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
  /** Where conversations and settings live; absent keeps them in memory (CLI one-shots, tests). */
  dataDir?: string;
  /** The keychain by default. */
  secretStore?: SecretStore;
  providerOverrides?: ProviderOverrides;
}

/** Everything a host entry point needs, wired once. */
export interface HostServices {
  host: McpHost;
  events: HostEvents;
  router: HostRouter;
  redactor: Redactor;
  chat: ChatService;
  settings: SettingsStore;
  secrets: SecretStore;
  broker: PendingBroker;
  dispose(): Promise<void>;
}

/** The composition root of the host core, shared by Electron main, browser mode, the CLI and tests. */
export async function composeHost(opts: ComposeOptions): Promise<HostServices> {
  const events = new HostEvents();
  const redactor = new Redactor();
  const eraCache: EraCache = opts.eraCachePath ? await FileEraCache.open(opts.eraCachePath) : new MemoryEraCache();
  const env = opts.env ?? process.env;
  // MCP_DESK_KEYCHAIN_SERVICE files secrets under another keychain service (tests, side-by-side installs).
  const secrets = opts.secretStore ?? new KeychainSecretStore(env.MCP_DESK_KEYCHAIN_SERVICE ? { service: env.MCP_DESK_KEYCHAIN_SERVICE } : {});
  const settings = opts.dataDir ? await SettingsStore.open(join(opts.dataDir, 'settings.json')) : SettingsStore.inMemory();
  const conversations = opts.dataDir ? new FileConversationStore(join(opts.dataDir, 'conversations')) : new MemoryConversationStore();
  const host = new McpHost({
    store: opts.store ?? new FileConfigStore(opts.configPath),
    eraCache,
    events,
    handlers: opts.handlers,
    backoff: opts.backoff,
    launch: {
      env,
      // `${secret:NAME}` in server configs resolves from the same keychain as API keys.
      secrets: opts.secrets ?? { get: (name) => secrets.get(name) },
      redactor,
      path: opts.useLoginShellPath ? () => resolveLoginPath() : async () => env.PATH ?? '',
    },
  });
  const info = (): HostInfo => ({ version: '0.1.0', mode: opts.mode, configPath: opts.configPath });
  const toolOn = () => {
    const c = settings.get();
    const servers = new Set(c.disabledServers);
    const tools = new Set(c.disabledTools);
    host.setToolEnabledPredicate((serverId, tool) => !servers.has(serverId) && !tools.has(`${serverId}/${tool}`));
  };
  toolOn();
  events.on('settings.changed', toolOn);
  const broker = new PendingBroker(events);
  const providers = new ProviderFactory(secrets, opts.providerOverrides);
  const policy = new ToolPolicy(settings, (id) => host.serverConfig(id));
  const chat = new ChatService({ host, events, broker, conversations, settings, providers, policy });
  const router = new HostRouter(host, events, info, redactor, { service: chat, settings, secrets, broker, providers });
  return {
    host,
    events,
    router,
    redactor,
    chat,
    settings,
    secrets,
    broker,
    async dispose() {
      await chat.dispose();
      broker.dispose();
      await host.dispose();
      await settings.flush();
      if (eraCache instanceof FileEraCache) await eraCache.flush();
    },
  };
}
