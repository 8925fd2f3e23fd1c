import type { HostInfo } from '../../shared/ipc/contract.js';
import type { AuthService } from './auth/auth-service.js';
import type { SignInBudget } from './auth/sign-in-budget.js';
import type { TokenVault } from './auth/token-vault.js';
import type { AuditLog } from './audit/audit-log.js';
import type { ConfigStore } from './config/config-store.js';
import type { SecretResolver } from './config/expand.js';
import type { DryRunService } from './dry-run/dry-run-service.js';
import type { SandboxDetector } from './connection/sandbox/sandbox-detector.js';
import type { ConnectionDeps, ServerRequestHandlers } from './connection/server-connection.js';
import type { ChatService } from './chat/chat-service.js';
import type { ProviderOverrides } from './chat/provider-factory.js';
import type { OpenExternal } from './elicitation/elicitation-service.js';
import type { SamplingService } from './sampling/sampling-service.js';
import type { HostEvents } from './host-events.js';
import type { ImportService, ImportServiceDeps } from './imports/import-service.js';
import type { PendingBroker } from './pending/pending-broker.js';
import type { SamplingConsentStore } from './policies/sampling-consent-store.js';
import type { PermissionsService } from './policies/permissions-service.js';
import type { FlowGuard } from './policies/flow-guard.js';
import type { PolicyStore } from './policies/policy-store.js';
import type { RootsStore } from './roots/roots-store.js';
import type { SecretStore } from './stores/secret-store.js';
import type { SettingsBackend } from './stores/settings-backend.js';
import type { SettingsStore } from './stores/settings-store.js';
import type { McpHost } from './mcp-host.js';
import type { MetricsRecorder } from './metrics/metrics-recorder.js';
import type { HostRouter } from './router.js';
import type { AppRequests } from './apps/app-requests.js';
import type { AppViews } from './apps/app-views.js';
import type { DesktopShell } from './shell/desktop-shell.js';
import type { QuickAskShortcutPort } from './shell/quick-ask-port.js';
import type { UpdateChecksPort } from './shell/update-checks-port.js';
import type { LogLevels } from './subscriptions/log-levels.js';
import type { ResourceSubscriptions } from './subscriptions/resource-subscriptions.js';
import type { TaskService } from './tasks/task-service.js';
import type { RegistryService } from './registry/registry-service.js';
import type { DeepLinkInbox } from './registry/deep-link-inbox.js';
import type { BundleService } from './bundles/bundle-service.js';
import type { ToolTrustService } from './tool-trust/tool-trust-service.js';
import type { ToolSelection } from './tool-selection/tool-selection.js';
import type { Redactor } from './util/redact.js';
import type { DiagnosticsService } from './diagnostics/diagnostics-service.js';
import type { HostLog } from './diagnostics/host-log.js';

export interface ComposeOptions {
  configPath: string;
  /** Where tool vectors for semantic ranking are cached; absent: `<dataDir>/tool-vectors.json`, or memory only. */
  toolVectorsPath?: string;
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
  /** The stdio era probe's cap (tests of the late-answer path shorten it). */
  stdioProbeMs?: ConnectionDeps['stdioProbeMs'];
  /** Every server's timeout (connect budget and requests) for this run, over its config's: the CLI's --timeout. */
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
  /** Where conversations and settings live; absent keeps them in memory (CLI one-shots, tests). */
  dataDir?: string;
  /** Where the audit log is written when there is no dataDir (`mcp-desk ask`: its approvals are the person's record). */
  auditDir?: string;
  /** The keychain by default. */
  secretStore?: SecretStore;
  /** Where settings.json is read and written when there is a dataDir: conf by default, electron-store in Electron. */
  settingsBackend?: (dataDir: string) => SettingsBackend;
  providerOverrides?: ProviderOverrides;
  /** Sampling limits (tests shorten them): per-server rate and how long a review waits. */
  sampling?: { rateLimit?: { capacity: number; perMs: number }; timeoutMs?: number };
  /** Opens an accepted URL-mode elicitation's link; absent does nothing (tests, headless). */
  openExternal?: OpenExternal;
  /** Initial roots (absolute paths or file:// URIs) for the CLI and tests; replaces what the roots file holds. */
  roots?: string[];
  /** Whether stdio servers can be sandboxed here (the system's detection by default; tests simulate). */
  sandbox?: SandboxDetector;
  /** OAuth for remote servers: the provider to connect with, per server (absent: none, a 401 means sign-in needed). */
  authProviderFor?: ConnectionDeps['authProviderFor'];
  /** The desktop app's window system (folder picker, showing the main window); absent elsewhere. */
  shell?: DesktopShell;
  /** The desktop app's global quick-ask shortcut; absent elsewhere (Settings says "not applicable"). */
  quickAsk?: QuickAskShortcutPort;
  /** The installed desktop app's update checks; absent elsewhere (Settings says "not applicable"). */
  updateChecks?: UpdateChecksPort;
  /** Where OAuth tokens live: the keychain ("<service> OAuth") by default; tests use memory. */
  tokenVault?: TokenVault;
  /** Sign-in limits (tests shorten them): how long the browser may take, and attempts per server. */
  signIn?: { timeoutMs?: number; budget?: SignInBudget };
  /** The metrics file: `<dataDir>/metrics.json` by default; absent with no dataDir keeps metrics in memory. */
  metricsPath?: string;
  /** Where .mcpb bundles are installed: `<dataDir>/bundles` by default; none without a dataDir. */
  bundlesDir?: string;
  /** Which hosts imports read and where home is (every importer and this process's by default; tests choose). */
  imports?: Pick<ImportServiceDeps, 'importers' | 'context'>;
  /** The pinned tool definitions: `<dataDir>/tool-pins.json` by default; absent with no dataDir keeps them in memory. */
  toolPinsPath?: string;
  /** The flow-label overrides: `<dataDir>/flows.json` by default; absent with no dataDir keeps them in memory. */
  flowLabelsPath?: string;
  /** The app's error log (`<dataDir>/logs`), made before the host so early errors land too; its Redactor becomes the host's. Absent: no log file. */
  log?: HostLog;
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
  /** The append-only audit log (on disk under `<dataDir>/audit` when there is a dataDir). */
  audit: AuditLog;
  /** Answers servers' sampling requests (consent, rate limit, reviews, the model). */
  sampling: SamplingService;
  /** Trust, standing tool approvals and sampling consent: the one store of those records. */
  policies: PolicyStore;
  /** Standing per-server sampling decisions (the `sampling` section of `policies`). */
  samplingConsent: SamplingConsentStore;
  /** Flow labels of every tool and the taint of every conversation (the flow guard). */
  flows: FlowGuard;
  /** Standing permissions as the Permissions view lists and revokes them. */
  permissions: PermissionsService;
  /** The folders shared with servers through roots/list (`<dataDir>/roots.json` when there is a dataDir). */
  roots: RootsStore;
  /** OAuth sign-in of remote servers (sign in, cancel, sign out; providers for connects). */
  auth: AuthService;
  /** What servers and models did (calls, outcomes, latency, connections, tokens). */
  metrics: MetricsRecorder;
  /** MCP Apps views: open ones, their CSP, the sandbox they are served from. */
  appViews: AppViews;
  /** Resources kept live for views and chat attachments (both protocol eras). */
  subscriptions: ResourceSubscriptions;
  /** Per-server log levels (2025 logging/setLevel), re-applied on every connect. */
  logLevels: LogLevels;
  /** What open views ask of the host: tool calls, reads, logs, messages, model context, links, grants. */
  appRequests: AppRequests;
  /** Tool calls running as server-side tasks (running and recent, persisted under dataDir). */
  tasks: TaskService;
  /** Registry entries (server.json) and install links: search, preview, install. */
  registry: RegistryService;
  /** Install links the OS handed the desktop app, kept until a window shows them. */
  deepLinks: DeepLinkInbox;
  /** MCP Bundles (.mcpb): preview, install, update, uninstall; undefined without a data folder. */
  bundles: BundleService | undefined;
  /** Servers brought over from other MCP hosts, and exported back. */
  imports: ImportService;
  /** Dry runs of servers that arrive from outside, before they are trusted. */
  dryRuns: DryRunService;
  /** Pinned tool definitions and the trust facts of every catalog tool (see tool-trust/). */
  toolTrust: ToolTrustService;
  /** The flow-label overrides: `<dataDir>/flows.json` by default; absent with no dataDir keeps them in memory. */
  flowLabelsPath?: string;
  /** The app's error log, "Copy diagnostics" and renderer error reports. */
  diagnostics: DiagnosticsService;
  /** Tool selection: the index, ranking and each run's bounded offer (the chat, the Tools view, the CLI). */
  selection: ToolSelection;
  dispose(): Promise<void>;
}
