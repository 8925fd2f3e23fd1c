import type { CallToolResult } from '../../../shared/domain/mcp-types.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import { ContentBlocks } from '../../components/content/content-blocks.js';
import { JsonView } from '../../components/content/json-view.js';
import { ResultActions } from '../../components/content/result-actions.js';
import { ErrorBox } from '../../components/error-box.js';

/** A tool's answer, or why there is none. isError results are the tool's own failure. */
export type ToolOutcome =
  { kind: 'result'; result: CallToolResult } | { kind: 'failed'; error: HostError; cancelled: boolean };

/** The result panel; `data-status` is ok, error (tool said so), failed or cancelled. */
export function ToolResultView({
  outcome,
  serverId,
  elapsedMs,
}: {
  outcome: ToolOutcome;
  serverId: string;
  elapsedMs: number;
}) {
  const timing = <span className="muted">{Math.round(elapsedMs)} ms</span>;
  if (outcome.kind === 'failed') {
    const { cancelled } = outcome;
    return (
      <div
        className={`tool-result ${cancelled ? 'cancelled' : 'failed'}`}
        data-testid="tool-result"
        data-status={cancelled ? 'cancelled' : 'failed'}
      >
        <div className="result-head">
          <strong>{cancelled ? 'Cancelled' : 'Call failed'}</strong>
          {timing}
        </div>
        {cancelled ? (
          <p className="muted">The server was told to stop (notifications/cancelled).</p>
        ) : (
          <ErrorBox error={outcome.error} testId="tool-call-error" />
        )}
      </div>
    );
  }
  const { result } = outcome;
  return (
    <div
      className={`tool-result${result.isError ? ' is-error' : ''}`}
      data-testid="tool-result"
      data-status={result.isError ? 'error' : 'ok'}
    >
      <div className="result-head">
        <strong>{result.isError ? 'The tool reported an error' : 'Result'}</strong>
        {timing}
      </div>
      <ResultActions result={result}>
        <ContentBlocks blocks={result.content ?? []} serverId={serverId} />
        {result.structuredContent !== undefined && (
          <div className="structured">
            <div className="section-title">Structured content</div>
            <JsonView value={result.structuredContent} testId="structured-content" />
          </div>
        )}
      </ResultActions>
    </div>
  );
}
