import type { FlowLabel, ToolFlow } from '../../../shared/domain/flows.js';

const LABELS: Record<FlowLabel, { text: string; title: string; className: string }> = {
  source: {
    text: 'source',
    title: 'Reads content others control (web pages, mail, calendars, issues, messages).',
    className: 'flow-source',
  },
  sensitive: {
    text: 'sensitive',
    title: 'Touches local files, secrets or credentials.',
    className: 'flow-sensitive',
  },
  sink: {
    text: 'sink',
    title: 'Acts: runs commands, writes or deletes, sends messages, makes network requests.',
    className: 'flow-sink',
  },
};

/**
 * A tool's flow labels as badges: source, sensitive, sink, or "unknown" (treated as a possible
 * sink). "set by you" marks labels a person chose over the defaults.
 */
export function FlowBadges({ flow }: { flow: ToolFlow | undefined }) {
  if (!flow) return null;
  return (
    <span className="flow-badges" data-testid="flow-badges">
      {flow.labels.map((l) => (
        <span
          key={l}
          className={`badge ${LABELS[l].className}`}
          title={LABELS[l].title}
          data-testid="flow-label"
          data-label={l}
        >
          {LABELS[l].text}
        </span>
      ))}
      {flow.unknown && (
        <span
          className="badge flow-unknown"
          title="Nothing says whether it acts: a tainted chat treats it as a possible sink."
          data-testid="flow-label"
          data-label="unknown"
        >
          unknown
        </span>
      )}
      {flow.origin !== 'default' && <span className="badge subtle">labels set by you</span>}
    </span>
  );
}
