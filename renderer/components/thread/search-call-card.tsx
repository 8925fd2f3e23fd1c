import type { ToolCallRecord } from '../../../shared/domain/chat.js';
import { ErrorBox } from '../error-box.js';
import { Icon } from '../icons.js';

interface Hit {
  name: string;
  serverId: string;
  tool: string;
  line?: string;
  warnings?: string[];
  notDeclared?: boolean;
}

/** The hits the host's search result carries as structured content (checked: it is data from our own host, kept loose). */
function hitsOf(call: ToolCallRecord): Hit[] {
  const raw = call.result?.structuredContent?.hits;
  if (!Array.isArray(raw)) return [];
  return raw.filter(
    (h): h is Hit =>
      typeof h === 'object' &&
      h !== null &&
      typeof (h as Hit).name === 'string' &&
      typeof (h as Hit).tool === 'string',
  );
}

/**
 * The model's tool search as a card: the words it searched for and the tools that came back
 * (declared from its next request on), with their warnings. Searches run in the host, so there
 * is no server, no approval and no app view.
 */
export function SearchCallCard({ call }: { call: ToolCallRecord }) {
  const query = typeof call.args.query === 'string' ? call.args.query : '';
  const hits = hitsOf(call);
  return (
    <div
      className={`tool-card tool-card-${call.status} search-card`}
      data-testid="search-card"
      data-status={call.status}
    >
      <div className="tool-card-head">
        <Icon name="tools" className="tool-card-icon" />
        <strong className="tool-card-name">Tool search</strong>
        <span className="muted" data-testid="search-card-query">
          “{query}”
        </span>
        <span className="muted small-print">
          {call.status === 'running' ? 'searching…' : `${hits.length} found`}
        </span>
      </div>
      {call.error && <ErrorBox error={call.error} testId="search-card-error" />}
      {hits.length > 0 && (
        <ul className="offer-tools" data-testid="search-card-hits">
          {hits.map((h) => (
            <li key={h.name} data-testid="search-card-hit">
              <span className="badge subtle">{h.serverId}</span> <strong>{h.tool}</strong>
              {h.line ? <span className="muted small-print"> — {h.line}</span> : null}
              {h.warnings?.length ? (
                <span className="badge warn" title={h.warnings.join('\n')}>
                  warning
                </span>
              ) : null}
              {h.notDeclared ? <span className="muted small-print"> (budget full: not declared)</span> : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
