import { useState } from 'react';
import { FLOW_LABELS, type FlowLabel, type ToolFlow } from '../../../shared/domain/flows.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import { asHostError } from '../../host/errors.js';
import { useHost } from '../../host/host-context.js';
import { ErrorBox } from '../error-box.js';
import { FlowBadges } from './flow-badges.js';

const WHAT: Record<FlowLabel, string> = {
  source: 'Source: reads content others control',
  sensitive: 'Sensitive: local files, secrets, credentials',
  sink: 'Sink: runs commands, writes, sends, reaches the network',
};

/**
 * A tool's flow labels, why it has them, and the person's override: the labels for this tool
 * or for every tool of its server, or back to the defaults. A chat that read untrusted content
 * holds every call to a sink (and to an unknown tool) for review.
 */
export function FlowLabelsPanel({
  serverId,
  tool,
  flow,
}: {
  serverId: string;
  tool: string;
  flow: ToolFlow;
}) {
  const host = useHost();
  const [chosen, setChosen] = useState<ReadonlySet<FlowLabel>>(() => new Set(flow.labels));
  const [scope, setScope] = useState<'tool' | 'server'>('tool');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<HostError | null>(null);
  const applied = flow.labels.join(',');
  const [shown, setShown] = useState(applied);
  // After a save (here or in another window) the checkboxes start from what now applies.
  if (shown !== applied) {
    setShown(applied);
    setChosen(new Set(flow.labels));
  }

  const save = (labels: FlowLabel[] | null, on: 'tool' | 'server') => {
    setBusy(true);
    setError(null);
    host.invoke('flows.setLabels', { serverId, ...(on === 'tool' ? { tool } : {}), labels }).then(
      () => setBusy(false),
      (e: unknown) => {
        setBusy(false);
        setError(asHostError(e));
      },
    );
  };
  const toggle = (l: FlowLabel) =>
    setChosen((prev) => {
      const next = new Set(prev);
      if (next.has(l)) next.delete(l);
      else next.add(l);
      return next;
    });

  return (
    <details className="flow-panel" data-testid="flow-panel">
      <summary>
        Data flow <FlowBadges flow={flow} />
      </summary>
      <ul className="flow-reasons" data-testid="flow-reasons">
        {flow.reasons.map((r, i) => (
          <li key={i}>
            <strong>{r.label}</strong>: {r.why}
          </li>
        ))}
      </ul>
      <fieldset className="flow-override" disabled={busy}>
        <legend>Set the labels yourself</legend>
        {FLOW_LABELS.map((l) => (
          <label key={l} className="checkbox-row">
            <input
              type="checkbox"
              checked={chosen.has(l)}
              onChange={() => toggle(l)}
              data-testid={`flow-choose-${l}`}
            />
            {WHAT[l]}
          </label>
        ))}
        <label className="checkbox-row">
          <input
            type="radio"
            name={`flow-scope-${serverId}-${tool}`}
            checked={scope === 'tool'}
            onChange={() => setScope('tool')}
          />
          for this tool
        </label>
        <label className="checkbox-row">
          <input
            type="radio"
            name={`flow-scope-${serverId}-${tool}`}
            checked={scope === 'server'}
            onChange={() => setScope('server')}
            data-testid="flow-scope-server"
          />
          for every tool of {serverId}
        </label>
        <div className="form-actions">
          <button
            type="button"
            onClick={() =>
              save(
                FLOW_LABELS.filter((l) => chosen.has(l)),
                scope,
              )
            }
            data-testid="flow-save"
          >
            Save labels
          </button>
          {flow.origin !== 'default' && (
            <button
              type="button"
              onClick={() => save(null, flow.origin === 'server' ? 'server' : 'tool')}
              data-testid="flow-reset"
            >
              Back to the defaults
            </button>
          )}
        </div>
      </fieldset>
      {error && <ErrorBox error={error} testId="flow-error" />}
    </details>
  );
}
