import type { HostError } from '../../shared/domain/server-state.js';
import {
  isRequestChannel,
  requestChannels,
  type HostInfo,
  type RequestChannel,
  type ResponseOf,
} from '../../shared/ipc/contract.js';
import type { AppSettingsService } from './app-settings/app-settings-service.js';
import type { AppRequests } from './apps/app-requests.js';
import type { AppViews } from './apps/app-views.js';
import type { AuditLog } from './audit/audit-log.js';
import type { AuthService } from './auth/auth-service.js';
import type { PermissionsService } from './policies/permissions-service.js';
import type { SamplingConsentStore } from './policies/sampling-consent-store.js';
import type { ChatService } from './chat/chat-service.js';
import { type ProviderFactory } from './chat/provider-factory.js';
import type { ServerSecrets } from './stores/server-secrets.js';
import type { SecretStore } from './stores/secret-store.js';
import type { SettingsStore } from './stores/settings-store.js';
import type { HostEvents } from './host-events.js';
import type { ImportService } from './imports/import-service.js';
import type { McpHost } from './mcp-host.js';
import type { MetricsRecorder } from './metrics/metrics-recorder.js';
import type { PendingBroker } from './pending/pending-broker.js';
import { addFolders, assertSomethingAdded } from './roots/add-folders.js';
import type { RootsStore } from './roots/roots-store.js';
import type { DesktopShell } from './shell/desktop-shell.js';
import type { LogLevels } from './subscriptions/log-levels.js';
import type { ResourceSubscriptions } from './subscriptions/resource-subscriptions.js';
import type { TaskService } from './tasks/task-service.js';
import type { RegistryService } from './registry/registry-service.js';
import type { DeepLinkInbox } from './registry/deep-link-inbox.js';
import type { BundleService } from './bundles/bundle-service.js';
import { bundleHandlers, removeBundleServer } from './bundles/bundle-routes.js';
import type { ToolTrustService } from './tool-trust/tool-trust-service.js';
import type { DryRunService } from './dry-run/dry-run-service.js';
import { toolPinHandlers } from './tool-trust/tool-pin-routes.js';
import { toolSelectionHandlers } from './tool-selection/tool-selection-routes.js';
import type { ToolSelection } from './tool-selection/tool-selection.js';
import type { FlowGuard } from './policies/flow-guard.js';
import { flowHandlers } from './policies/flow-routes.js';
import type { DiagnosticsService } from './diagnostics/diagnostics-service.js';
import { diagnosticsHandlers } from './diagnostics/diagnostics-routes.js';
import { chatHandlers } from './chat/chat-routes.js';
import { appHandlers } from './apps/app-routes.js';
import { importHandlers } from './imports/import-routes.js';
import type { HandlersOf } from './route-handlers.js';
import { describeIssues, HostFailure, toHostError } from './util/errors.js';
import type { Redactor } from './util/redact.js';

type Handlers = HandlersOf<RequestChannel>;

/** The outcome of one routed call, ready to serialise. */
export type RouteResult = { ok: true; value: unknown } | { ok: false; error: HostError };

/** Everything the router binds channels to, each named for what it serves. */
export interface HostRouterDeps {
  /** Servers, catalog and calls. */
  host: McpHost;
  events: HostEvents;
  info: () => HostInfo;
  redactor: Redactor;
  /** Conversations and runs. */
  chat: ChatService;
  settings: SettingsStore;
  /** API keys (write-only from the UI). */
  secrets: SecretStore;
  /** `${secret:NAME}` values of server configs. */
  serverSecrets: ServerSecrets;
  broker: PendingBroker;
  providers: ProviderFactory;
  audit: AuditLog;
  samplingConsent: SamplingConsentStore;
  /** Standing permissions (the Permissions view, Servers › Info). */
  permissions: PermissionsService;
  roots: RootsStore;
  /** The desktop app's window system; undefined in browser mode and the CLI. */
  shell: DesktopShell | undefined;
  auth: AuthService;
  /** Per-server and per-model counters. */
  metrics: MetricsRecorder;
  /** Appearance and the quick-ask shortcut. */
  appSettings: AppSettingsService;
  /** MCP Apps views. */
  appViews: AppViews;
  /** Live resources (resources.subscribe / unsubscribe). */
  subscriptions: ResourceSubscriptions;
  /** Per-server log levels. */
  logLevels: LogLevels;
  /** What open views ask of the host (tool calls, reads, messages, links, grants). */
  appRequests: AppRequests;
  /** Tool calls running as server-side tasks. */
  tasks: TaskService;
  /** Registry entries and install links. */
  registry: RegistryService;
  /** Install links waiting for a window. */
  deepLinks: DeepLinkInbox;
  /** MCP Bundles (.mcpb); undefined without a data folder. */
  bundles?: BundleService;
  /** Servers brought over from other MCP hosts (and pasted JSON). */
  imports: ImportService;
  /** Dry runs of arriving servers (bundle, registry, install link, import previews). */
  dryRuns: DryRunService;
  /** Pinned tool definitions: changes and their review. */
  toolTrust: ToolTrustService;
  /** Flow labels (overrides) and conversations' taint ("I trust this content"). */
  flows: FlowGuard;
  /** Copy diagnostics and renderer error reports. */
  diagnostics: DiagnosticsService;
  /** Tool selection: the ranking behind the chat's offer (tools.search). */
  selection: ToolSelection;
}

/**
 * Binds every contract channel to the host. Shared by the Electron IPC gate and the
 * WebSocket bridge, so both validate exactly the same way: unknown channels and payloads
 * that fail their zod schema are refused before any host code runs.
 */
export class HostRouter {
  private readonly handlers: Handlers;
  private readonly redactor: Redactor;

  constructor(deps: HostRouterDeps) {
    const {
      host,
      events,
      info,
      chat,
      settings,
      secrets,
      serverSecrets,
      broker,
      providers,
      audit,
      samplingConsent,
      permissions,
      roots,
      shell,
      auth,
      metrics,
      appSettings,
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
    } = deps;
    this.redactor = deps.redactor;
    this.handlers = {
      'host.info': () => info(),
      'servers.list': () => host.list(),
      'servers.add': (r) => host.add(r.name, r.config),
      'servers.update': (r) => host.update(r.id, r.config),
      'servers.remove': async (r) => {
        // A bundle's server goes with its files and secrets (bundle-routes.ts).
        if (await removeBundleServer(bundles, r.id)) return null;
        await host.remove(r.id);
        // A later server of the same name must not inherit the removed one's trust or approvals.
        await permissions.forgetServer(r.id);
        await logLevels.forget(r.id);
        return null;
      },
      'servers.setEnabled': (r) => host.setEnabled(r.id, r.enabled),
      'servers.restart': (r) => host.restart(r.id),
      // Literal secrets in the pasted entries go to the keychain, as in an import from another host.
      'servers.import': (r) => imports.importPasted(r.json),
      'servers.log': (r) => host.log(r.id),
      'servers.trace': (r) => host.trace(r.id),
      'auth.signIn': async (r) => {
        await auth.signIn(r.serverId);
        return null;
      },
      'auth.cancel': (r) => ({ cancelled: auth.cancel(r.serverId) }),
      'auth.signOut': async (r) => {
        await auth.signOut(r.serverId);
        return null;
      },
      'catalog.get': () => host.catalog(),
      'tools.call': (r) =>
        host.callTool(r.serverId, r.tool, r.args, {
          callId: r.callId,
          timeoutMs: r.timeoutMs,
          onProgress: (p) => events.emit('tool.progress', { callId: r.callId, ...p }),
        }),
      'tools.cancel': (r) => ({ cancelled: host.cancel(r.callId) }),
      'tasks.list': () => tasks.list(),
      // By call id through the call itself, so a task's stop is the call's stop (same settlement).
      'tasks.cancel': (r) => ({
        cancelled: (r.callId !== undefined && host.cancel(r.callId)) || tasks.cancel(r),
      }),
      'resources.read': (r) => host.readResource(r.serverId, r.uri),
      'prompts.get': (r) => host.getPrompt(r.serverId, r.name, r.args),
      'completion.complete': (r) => host.complete(r.serverId, r.ref, r.argument, r.context),

      ...chatHandlers({ chat, providers, settings }),
      ...toolSelectionHandlers({ selection, settings, chat }),

      'appSettings.get': () => appSettings.state(),
      'appSettings.update': (r) => appSettings.update(r),
      'settings.get': () => settings.get(),
      'settings.update': async (r) => {
        const next = await settings.update(r);
        events.emit('settings.changed', next);
        return next;
      },

      'secrets.status': () => secrets.status(),
      'secrets.set': async (r) => {
        await secrets.set(r.name, r.value);
        this.redactor.addSecret(r.value);
        return secrets.status();
      },
      'secrets.delete': async (r) => {
        await secrets.delete(r.name);
        return secrets.status();
      },
      'serverSecrets.list': () => serverSecrets.list(),
      'serverSecrets.set': (r) => serverSecrets.set(r.name, r.value),
      'serverSecrets.delete': (r) => serverSecrets.delete(r.name),

      'pending.list': () => broker.list(),
      'pending.respond': (r) => ({
        settled: broker.respond(
          r.id,
          'choice' in r ? { kind: 'tool-approval', choice: r.choice } : r.response,
        ),
      }),

      'sampling.consent.get': (r) => samplingConsent.get(r.serverId),
      'sampling.consent.set': async (r) => {
        await samplingConsent.setConsent(r.serverId, r.consent);
        if (r.skipReplyReview !== undefined)
          await samplingConsent.setSkipReplyReview(r.serverId, r.skipReplyReview);
        return samplingConsent.get(r.serverId);
      },
      'permissions.list': () => permissions.list(),
      'permissions.revoke': (r) => permissions.revoke(r),
      'permissions.revokeServer': (r) => permissions.revokeServer(r.serverId),
      'permissions.setTrust': (r) => permissions.setTrust(r.serverId, r.trusted),
      'roots.list': () => roots.list(),
      'roots.set': (r) =>
        roots.set(r.roots.map((x) => (x.name !== undefined ? { uri: x.uri, name: x.name } : { uri: x.uri }))),
      'roots.add': async (r) => assertSomethingAdded(await addFolders(roots, r.paths), r.paths.length),
      'roots.pick': async () => {
        if (!shell)
          throw new HostFailure(
            'unavailable',
            'there is no folder picker here: type the folder path instead',
          );
        const picked = await shell.pickFolders();
        return picked.length ? addFolders(roots, picked) : { roots: roots.list(), added: [], refused: [] };
      },
      'app.showConversation': async (r) => {
        // Fails with not_found for an unknown id rather than switching a window to nothing.
        await chat.get(r.conversationId);
        events.emit('app.showConversation', { conversationId: r.conversationId });
        shell?.showConversation(r.conversationId);
        return null;
      },
      'audit.query': (r) => audit.query(r),
      'audit.export': async (r) => ({
        filename: `mcp-desk-audit-${new Date().toISOString().slice(0, 10)}.jsonl`,
        mimeType: 'application/x-ndjson',
        content: await audit.export(r),
      }),
      'metrics.get': () => metrics.snapshot(),
      'metrics.reset': () => metrics.reset(),
      'resources.subscribe': (r) => subscriptions.subscribe(r.serverId, r.uri, r.holder),
      'resources.unsubscribe': (r) => subscriptions.unsubscribe(r.serverId, r.uri, r.holder),
      'resources.subscriptions': () => subscriptions.list(),
      'logging.get': (r) => logLevels.get(r.serverId),
      'logging.setLevel': (r) => logLevels.set(r.serverId, r.level),
      ...appHandlers(appViews, appRequests),
      'registry.search': (r) => registry.search(r),
      'registry.preview': (r) => registry.preview(r),
      'registry.resolve': (r) => registry.resolve(r),
      'registry.install': (r) => registry.install(r),
      'deepLinks.preview': (r) => registry.previewLink(r.url),
      'deepLinks.take': () => deepLinks.take(),
      ...bundleHandlers(bundles),
      'dryRun.run': (r) => dryRuns.run(r),
      ...toolPinHandlers(toolTrust),
      ...flowHandlers(flows),
      ...diagnosticsHandlers(diagnostics),
      ...importHandlers(imports, host, roots),
    };
  }

  /** Validate and run one request; never throws. */
  async handle(channel: unknown, payload: unknown): Promise<RouteResult> {
    try {
      if (!isRequestChannel(channel))
        throw new HostFailure('unknown_channel', `unknown channel "${String(channel).slice(0, 100)}"`);
      return { ok: true, value: await this.dispatch(channel, payload) };
    } catch (error) {
      return { ok: false, error: toHostError(error, this.redactor) };
    }
  }

  private async dispatch<C extends RequestChannel>(channel: C, payload: unknown): Promise<ResponseOf<C>> {
    const parsed = requestChannels[channel].request.safeParse(payload ?? {});
    if (!parsed.success) {
      // Field paths ride along as data so a form can put each message on its field.
      const fields: Record<string, string> = {};
      for (const issue of parsed.error.issues)
        fields[issue.path.map(String).join('.') || '(root)'] ??= issue.message;
      throw new HostFailure('invalid_request', `${channel}: ${describeIssues(parsed.error.issues)}`, {
        fields,
      });
    }
    const handler = this.handlers[channel] as (req: unknown) => Promise<ResponseOf<C>> | ResponseOf<C>;
    return handler(parsed.data);
  }
}
