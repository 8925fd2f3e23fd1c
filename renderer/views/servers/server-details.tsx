import { SamplingConsentControl } from './sampling-consent.js';
import { useState } from 'react';
import type { ServerSummary } from '../../../shared/domain/server-state.js';
import { useServerOutput } from '../../hooks/use-server-output.js';
import { ServerMetricsPanel } from '../../components/metrics/server-metrics.js';
import { BundleActions } from './bundle-actions.js';
import { LogLevelSelect } from './log-level-select.js';
import { LogPanel } from './log-panel.js';
import { NetworkActivityPanel } from './network-activity.js';
import { SecretsSummary } from './secrets-summary.js';
import { ServerPermissionsSection } from './server-permissions.js';
import { TracePanel } from './trace-panel.js';
import { ToolTokenLine } from './tool-token-line.js';

type Tab = 'log' | 'trace' | 'info';

/** The selected server's log, protocol trace and what it said about itself. */
export function ServerDetails({ server, onExport }: { server: ServerSummary; onExport?: () => void }) {
  const [tab, setTab] = useState<Tab>('log');
  const output = useServerOutput(server.id);
  const tabs: { id: Tab; label: string }[] = [
    { id: 'log', label: `Log (${output.log.length})` },
    { id: 'trace', label: `Trace (${output.trace.length})` },
    { id: 'info', label: 'Info' },
  ];
  return (
    <div className="panel server-details" data-testid={`server-details-${server.id}`}>
      <div className="server-details-head">
        <h2>{server.id}</h2>
        {onExport && server.config && (
          <button
            type="button"
            className="small"
            onClick={onExport}
            data-testid={`export-server-${server.id}`}
          >
            Export…
          </button>
        )}
      </div>
      <SecretsSummary serverId={server.id} />
      <BundleActions server={server} />
      <div className="tabs" role="tablist">
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            aria-selected={tab === t.id}
            className={tab === t.id ? 'tab active' : 'tab'}
            onClick={() => setTab(t.id)}
            data-testid={`tab-${t.id}`}
          >
            {t.label}
          </button>
        ))}
      </div>
      {output.error && <p className="error-text">Could not load output: {output.error}</p>}
      {tab === 'log' && (
        <>
          <LogLevelSelect server={server} />
          <LogPanel lines={output.log} />
        </>
      )}
      {tab === 'trace' && <TracePanel entries={output.trace} />}
      {tab === 'info' && <ServerInfoPanel server={server} />}
    </div>
  );
}

function ServerInfoPanel({ server }: { server: ServerSummary }) {
  const state = server.state;
  const entry = server.config ?? server.invalidEntry;
  return (
    <div className="server-info" data-testid="server-info">
      {server.network && <NetworkActivityPanel network={server.network} />}
      {state.kind === 'connected' ? (
        <dl>
          <dt>Server</dt>
          <dd>
            {state.info.title ?? state.info.name} {state.info.version}
          </dd>
          <dt>Protocol</dt>
          <dd>
            {state.info.protocolEra} {state.info.protocolVersion ?? ''}
          </dd>
          <dt>Connected</dt>
          <dd>{new Date(state.since).toLocaleString()}</dd>
          <dt>Capabilities</dt>
          <dd>{Object.keys(state.info.capabilities).join(', ') || 'none'}</dd>
          <ToolTokenLine serverId={server.id} />
        </dl>
      ) : (
        <p className="muted">Not connected.</p>
      )}
      <h3>Metrics</h3>
      <ServerMetricsPanel serverId={server.id} />
      {state.kind === 'connected' && state.info.instructions && (
        <>
          <h3>Instructions</h3>
          <pre className="content-text">{state.info.instructions}</pre>
        </>
      )}
      <h3>Permissions</h3>
      <ServerPermissionsSection serverId={server.id} />
      <h3>Sampling</h3>
      <SamplingConsentControl serverId={server.id} />
      <h3>Configuration</h3>
      <pre className="json-view">{JSON.stringify(entry, null, 2)}</pre>
    </div>
  );
}
