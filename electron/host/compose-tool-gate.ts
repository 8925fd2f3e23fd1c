import { join } from 'node:path';
import type { AuditLog } from './audit/audit-log.js';
import { modelSwitchOff } from './chat/model-switch-off.js';
import type { ProviderFactory } from './chat/provider-factory.js';
import type { HostEvents } from './host-events.js';
import type { McpHost } from './mcp-host.js';
import { FlowGuard } from './policies/flow-guard.js';
import type { PolicyStore } from './policies/policy-store.js';
import { ToolPolicy } from './policies/tool-policy.js';
import type { SettingsStore } from './stores/settings-store.js';
import { semanticRanker } from './tool-selection/embeddings/semantic-ranker.js';
import { ToolSelection } from './tool-selection/tool-selection.js';
import type { ToolTrustService } from './tool-trust/tool-trust-service.js';
import type { DisposeStack } from './util/disposable.js';

/** What the tool gate is made of (composeHost's services it reads). */
export interface ToolGateDeps {
  host: McpHost;
  providers: ProviderFactory;
  policies: PolicyStore;
  toolTrust: ToolTrustService;
  settings: SettingsStore;
  events: HostEvents;
  audit: AuditLog;
  stack: DisposeStack;
  toolVectorsPath?: string;
  dataDir?: string;
}

/**
 * The gate between the model and the tools: which tools each request declares (the ranking and
 * its tool vectors), the flow guard's labels and taint, and the policy that decides each call —
 * holding a sink call after untrusted content, a changed tool's, and switching a tool off.
 */
export function composeToolGate(d: ToolGateDeps): {
  selection: ToolSelection;
  flows: FlowGuard;
  policy: ToolPolicy;
} {
  const vectorsPath = d.toolVectorsPath ?? (d.dataDir ? join(d.dataDir, 'tool-vectors.json') : undefined);
  const selection = new ToolSelection(d.host, semanticRanker({ providers: d.providers, vectorsPath }));
  const flows = new FlowGuard({ overrides: d.policies.flows, audit: d.audit });
  d.stack.defer(d.policies.flows.onChange(() => d.host.refreshCatalog()));
  d.host.setToolTrustAnnotator((tools) => {
    d.toolTrust.annotate(tools);
    flows.annotate(tools);
  });
  const policy = new ToolPolicy(
    d.policies.trust,
    (id) => d.host.serverConfig(id),
    d.toolTrust,
    flows,
    modelSwitchOff(d.settings, d.events),
  );
  return { selection, flows, policy };
}

/** The catalog marks tools switched off in the chat settings (a server, or one tool), as they change. */
export function followToolSwitches(
  host: McpHost,
  settings: SettingsStore,
  events: HostEvents,
  stack: DisposeStack,
): void {
  const apply = () => {
    const c = settings.get();
    const servers = new Set(c.disabledServers);
    const tools = new Set(c.disabledTools);
    host.setToolEnabledPredicate(
      (serverId, tool) => !servers.has(serverId) && !tools.has(`${serverId}/${tool}`),
    );
  };
  apply();
  stack.defer(events.on('settings.changed', apply));
}
