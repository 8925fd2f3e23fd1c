import { join } from 'node:path';
import type { HostInfo } from '../../shared/ipc/contract.js';
import { AppSettingsService } from './app-settings/app-settings-service.js';
import { AuthService } from './auth/auth-service.js';
import { keychainTokenVault } from './auth/token-vault.js';
import { FileAuditLog, MemoryAuditLog, type AuditLog } from './audit/audit-log.js';
import { FileConfigStore } from './config/config-store.js';
import { ServerSecrets, serverSecretResolver } from './stores/server-secrets.js';
import { installSdkProbePatch, reapLingeringProbes } from './connection/probe-sibling.js';
import { FileEraCache, MemoryEraCache, type EraCache } from './connection/era-cache.js';
import { resolveLoginPath } from './connection/login-path.js';
import type { ServerRequestHandlers } from './connection/server-connection.js';
import { ChatService } from './chat/chat-service.js';
import { DiskChatFileStore, MemoryChatFileStore } from './chat/chat-files.js';
import { ProviderFactory } from './chat/provider-factory.js';
import { ElicitationService } from './elicitation/elicitation-service.js';
import { RateLimiter } from './sampling/rate-limiter.js';
import { SamplingService } from './sampling/sampling-service.js';
import { HostEvents } from './host-events.js';
import { ImportService } from './imports/import-service.js';
import { PendingBroker } from './pending/pending-broker.js';
import { PermissionsService } from './policies/permissions-service.js';
import { PolicyStore } from './policies/policy-store.js';
import { RootsStore } from './roots/roots-store.js';
import { MemoryConversationStore } from './stores/conversation-store.js';
import { FileConversationStore } from './stores/file-conversation-store.js';
import { ConfSettingsBackend } from './stores/conf-settings-backend.js';
import { KeychainSecretStore } from './stores/secret-store.js';
import { SettingsStore } from './stores/settings-store.js';
import { McpHost } from './mcp-host.js';
import { MetricsRecorder } from './metrics/metrics-recorder.js';
import { HostRouter } from './router.js';
import { composeToolGate, followToolSwitches } from './compose-tool-gate.js';
import { composeInstalls } from './registry/compose-installs.js';
import { composeDryRuns, DryRunHooks } from './dry-run/compose-dry-run.js';
import { composeAppServices } from './apps/compose-apps.js';
import { composeLiveServices } from './subscriptions/compose-live.js';
import { answerTaskInput } from './tasks/task-input.js';
import { TaskService } from './tasks/task-service.js';
import { openToolTrust } from './tool-trust/compose-tool-trust.js';
import { DisposeStack } from './util/disposable.js';
import { Redactor } from './util/redact.js';
import { learnAppSecrets } from './diagnostics/diagnostics-report.js';
import { DiagnosticsService } from './diagnostics/diagnostics-service.js';
import { HostLog } from './diagnostics/host-log.js';

export type { ComposeOptions, HostServices } from './compose-types.js';
import type { ComposeOptions, HostServices } from './compose-types.js';

/** The composition root of the host core, shared by Electron main, browser mode, the CLI and tests. */
export async function composeHost(opts: ComposeOptions): Promise<HostServices> {
  // Before any connection exists: the era probe's sibling processes must be reaped as trees.
  installSdkProbePatch();
  // Every service is registered as it is created and disposed in reverse: nothing is torn
  // down while something created after it (and so possibly using it) is still alive.
  const stack = new DisposeStack();
  // Last of all: probe siblings still listening for a late answer go with the host.
  stack.defer(reapLingeringProbes);
  try {
    return await compose(opts, stack);
  } catch (error) {
    await stack.dispose().catch(() => undefined);
    throw error;
  }
}

async function compose(opts: ComposeOptions, stack: DisposeStack): Promise<HostServices> {
  const events = new HostEvents();
  const redactor = opts.log?.redactor ?? new Redactor();
  const eraCache: EraCache = stack.use(
    opts.eraCachePath ? await FileEraCache.open(opts.eraCachePath) : new MemoryEraCache(),
  );
  const env = opts.env ?? process.env;
  // MCP_DESK_KEYCHAIN_SERVICE files secrets under another keychain service (tests, side-by-side installs).
  const secrets =
    opts.secretStore ??
    new KeychainSecretStore(env.MCP_DESK_KEYCHAIN_SERVICE ? { service: env.MCP_DESK_KEYCHAIN_SERVICE } : {});
  const settingsBackend = opts.settingsBackend ?? ((dir: string) => new ConfSettingsBackend(dir));
  const settings = stack.use(
    opts.dataDir ? await SettingsStore.openWith(settingsBackend(opts.dataDir)) : SettingsStore.inMemory(),
  );
  // Disposed after everything created below: the shutdown (disconnects, cancelled requests) is itself recorded.
  const auditDir = opts.dataDir ? join(opts.dataDir, 'audit') : opts.auditDir;
  const audit: AuditLog = stack.use(
    auditDir ? new FileAuditLog(auditDir, redactor) : new MemoryAuditLog(redactor),
  );
  const roots = stack.use(
    opts.dataDir ? await RootsStore.open(join(opts.dataDir, 'roots.json')) : RootsStore.inMemory(),
  );
  if (opts.roots) await roots.set(opts.roots.map((uri) => ({ uri })));
  // Disposed (flushed) after the host: calls cancelled at shutdown are counted too.
  const metricsPath = opts.metricsPath ?? (opts.dataDir ? join(opts.dataDir, 'metrics.json') : undefined);
  const metrics = stack.use(await MetricsRecorder.open(metricsPath ? { path: metricsPath } : {}));
  const conversations = opts.dataDir
    ? new FileConversationStore(join(opts.dataDir, 'conversations'))
    : new MemoryConversationStore();
  // Elicitation goes to a person through the pending queue unless the entry brings its own
  // answerer (the conformance client). The services are created below, next to the broker;
  // connections only call these after init, long after composeHost has returned.
  const handlers: ServerRequestHandlers = {
    ...opts.handlers,
    // Attributed the moment a request arrives: the tool call in flight that caused it (see CallOrigins).
    elicit:
      opts.handlers?.elicit ??
      ((serverId, params, signal) => elicitation.handle(serverId, params, signal, host.attribute(serverId))),
    sample:
      opts.handlers?.sample ??
      ((serverId, params, signal) => {
        const cause = host.attribute(serverId);
        // What a server asks the model during a conversation's call is content others control.
        flows.noteSampling(serverId, cause?.origin, params.messages);
        return sampling.handle(serverId, params, signal, cause);
      }),
    listRoots: opts.handlers?.listRoots ?? (() => roots.list()),
    resourceUpdated: (serverId, uri) => subscriptions.updated(serverId, uri),
  };
  // Tool calls servers run as tasks; a 2026-07-28 task's input requests are answered like pushed ones.
  const tasks = stack.use(
    await TaskService.open({
      events,
      ...(opts.dataDir ? { path: join(opts.dataDir, 'tasks.json') } : {}),
      answer: (serverId, method, params, signal) =>
        answerTaskInput(handlers, serverId, method, params, signal),
    }),
  );
  // Pinned tool definitions: every successful tools/list is compared with them from the first connect on.
  const toolTrust = stack.use(
    await openToolTrust({ toolPinsPath: opts.toolPinsPath, dataDir: opts.dataDir, audit, host: () => host }),
  );
  // `${secret:NAME}` in server configs (headers, env, an OAuth client secret) resolves from the same keychain as API keys, under a prefix of its own.
  const launchSecrets = opts.secrets ?? serverSecretResolver(secrets);
  // The host asks auth for providers and sign-in status only once servers connect or are
  // listed, after both exist; auth reaches the host through its narrow port.
  const host: McpHost = stack.use(
    new McpHost({
      store: opts.store ?? new FileConfigStore(opts.configPath),
      eraCache,
      events,
      handlers,
      backoff: opts.backoff,
      ...(opts.stdioProbeMs !== undefined ? { stdioProbeMs: opts.stdioProbeMs } : {}),
      ...(opts.timeoutMs !== undefined ? { timeoutOverride: opts.timeoutMs } : {}),
      audit,
      metrics,
      tasks,
      ...(opts.sandbox ? { sandbox: opts.sandbox } : {}),
      // An entry's own provider (the conformance client) wins over the person-facing sign-in.
      authProviderFor: opts.authProviderFor ?? ((serverId, url) => auth.providerFor(serverId, url)),
      authStatus: (serverId, config, state) => auth.statusOf(serverId, config, state),
      pendingCounts: () => broker.counts(),
      onToolsListed: (id, config, tools) => toolTrust.observe(id, config, tools),
      launch: {
        env,
        secrets: launchSecrets,
        redactor,
        path: opts.useLoginShellPath ? () => resolveLoginPath() : async () => env.PATH ?? '',
      },
    }),
  );
  const auth: AuthService = stack.use(
    new AuthService({
      servers: host,
      events,
      vault: opts.tokenVault ?? keychainTokenVault(env),
      // Without a browser opener (CLI, tests) a sign-in cannot start; say so instead of hanging.
      openExternal:
        opts.openExternal ??
        (async () => {
          throw new Error('there is no browser to sign in with here');
        }),
      settings: { env, secrets: launchSecrets, redactor },
      audit,
      ...(opts.signIn?.budget ? { budget: opts.signIn.budget } : {}),
      ...(opts.signIn?.timeoutMs !== undefined ? { timeoutMs: opts.signIn.timeoutMs } : {}),
    }),
  );
  const info = (): HostInfo => ({
    version: '0.1.0',
    mode: opts.mode,
    configPath: opts.configPath,
    features: { folderPicker: opts.shell !== undefined },
  });
  followToolSwitches(host, settings, events, stack);
  const broker = stack.use(new PendingBroker(events, undefined, { audit }));
  const elicitation = stack.use(
    new ElicitationService({
      broker,
      openExternal: opts.openExternal ?? (async () => undefined),
    }),
  );
  // A server that stops, disconnects or is removed can no longer use an answer: settle everything it waits on.
  stack.defer(
    events.on('servers.changed', (list) =>
      broker.cancelServersExcept(new Set(list.filter((s) => s.state.kind === 'connected').map((s) => s.id))),
    ),
  );
  const providers = new ProviderFactory(secrets, opts.providerOverrides);
  const policies = await PolicyStore.open(settings.trustRecords, opts.dataDir, opts.flowLabelsPath);
  stack.defer(() => policies.flush());
  const samplingConsent = policies.sampling;
  const limit = opts.sampling?.rateLimit;
  const sampling = stack.use(
    new SamplingService({
      broker,
      settings,
      providers,
      consent: samplingConsent,
      ...(limit ? { limiter: new RateLimiter(limit.capacity, limit.perMs) } : {}),
      ...(opts.sampling?.timeoutMs !== undefined ? { timeoutMs: opts.sampling.timeoutMs } : {}),
    }),
  );
  const { selection, flows, policy } = composeToolGate({
    host,
    providers,
    policies,
    toolTrust,
    settings,
    events,
    audit,
    stack,
    toolVectorsPath: opts.toolVectorsPath,
    dataDir: opts.dataDir,
  });
  const chat: ChatService = stack.use(
    new ChatService({
      host,
      events,
      broker,
      conversations,
      settings,
      providers,
      policy,
      selection,
      flows,
      roots: () => roots.list(),
      metrics,
      // Created below; a run reads it only once a message is sent, long after composeHost returned.
      viewContext: (conversationId): string[] => appRequests.contextFor(conversationId),
      files: opts.dataDir
        ? new DiskChatFileStore(join(opts.dataDir, 'chat-files'))
        : new MemoryChatFileStore(),
    }),
  );
  // Registered after the initial set above, so only real changes reach servers and the log.
  stack.defer(
    roots.onChange((list) => {
      audit.append({
        kind: 'roots',
        action: 'changed',
        details: { roots: list.map((r) => r.uri), count: list.length },
      });
      // Every open window (and the bridge) shows the same list, whoever changed it.
      events.emit('roots.changed', list);
      void host.notifyRootsChanged();
    }),
  );
  const permissions = stack.use(
    new PermissionsService({ store: policies, policy, servers: host, events, audit, pins: toolTrust }),
  );
  const serverSecrets = new ServerSecrets(secrets, host, redactor, audit);
  // A dry run of an arriving server pins what it saw when that server is saved (dry-run/).
  const dryRunHooks = new DryRunHooks();
  // Scans keep literal secrets until applied: dropped with the host.
  const imports = stack.use(
    new ImportService({
      ...opts.imports,
      host,
      secrets: serverSecrets,
      redactor,
      audit,
      beforeSave: dryRunHooks.import,
      beforePastedSave: dryRunHooks.paste,
    }),
  );
  const appSettings = new AppSettingsService({
    settings,
    events,
    quickAsk: opts.quickAsk,
    updateChecks: opts.updateChecks,
    paths: {
      dataDir: opts.dataDir ?? null,
      configPath: opts.configPath,
      settingsPath: settings.path ?? null,
    },
    geminiBaseUrlOverride: providers.geminiBaseUrlOverride,
  });
  const { appViews, appRequests } = composeAppServices(
    { host, chat, events, audit, policies, policy, flows, broker, roots, openExternal: opts.openExternal },
    stack,
  );
  const { subscriptions, logLevels } = await composeLiveServices(
    { host, events, redactor, dataDir: opts.dataDir },
    stack,
  );
  // Bundles, registry entries and install links (an mcpb package continues in the bundle flow).
  const { bundles, registry, deepLinks } = await composeInstalls(
    {
      events,
      env,
      dataDir: opts.dataDir,
      bundlesDir: opts.bundlesDir,
      bundle: {
        servers: host,
        removeServer: async (id) => {
          await host.remove(id);
          await permissions.forgetServer(id);
          await logLevels.forget(id);
        },
        secrets,
        redactor,
        audit,
        compat: { path: opts.useLoginShellPath ? () => resolveLoginPath() : async () => env.PATH ?? '' },
        beforeSave: dryRunHooks.bundle,
      },
      registry: {
        servers: host,
        secrets: serverSecrets,
        // MCP_DESK_REGISTRY_URL wins over the setting (tests, and CLI runs that keep no settings).
        registryUrl: () => env.MCP_DESK_REGISTRY_URL || settings.getApp().registryUrl,
        beforeSave: dryRunHooks.registry,
      },
    },
    stack,
  );
  const dryRuns = composeDryRuns({
    hooks: dryRunHooks,
    launch: {
      env,
      redactor,
      path: opts.useLoginShellPath ? () => resolveLoginPath() : async () => env.PATH ?? '',
    },
    ...(opts.sandbox ? { sandbox: opts.sandbox } : {}),
    ...(bundles ? { bundles } : {}),
    registry,
    imports,
    installedTools: () => host.catalog().tools,
    pin: (id, config, tools) => toolTrust.observe(id, config, tools),
    audit,
  });
  // An error quoting the keychain's API keys must not reach the log file either.
  if (opts.log?.dir) await learnAppSecrets(secrets, redactor);
  const diagnostics = stack.use(
    new DiagnosticsService({
      log: opts.log ?? new HostLog(redactor, info().version),
      info,
      servers: () => host.list(),
      dataDir: opts.dataDir,
    }),
  );
  // What the router serves and what the caller gets are mostly the same services: named once.
  const shared = {
    host,
    events,
    redactor,
    chat,
    settings,
    secrets,
    broker,
    audit,
    samplingConsent,
    permissions,
    roots,
    auth,
    metrics,
    appViews,
    subscriptions,
    logLevels,
    appRequests,
    tasks,
    registry,
    deepLinks,
    bundles,
    imports,
    dryRuns,
    toolTrust,
    flows,
    diagnostics,
    selection,
  };
  const router = new HostRouter({
    ...shared,
    info,
    serverSecrets,
    providers,
    shell: opts.shell,
    appSettings,
  });
  return {
    ...shared,
    router,
    sampling,
    policies,
    dispose: () => stack.dispose(),
  };
}
