import { ResourceContentsView } from '../../components/content/resource-contents-view.js';
import { ErrorBox } from '../../components/error-box.js';
import type { ReadState } from './use-resource-read.js';

/** What a read returned: each content part in turn. */
export function ReadResult({ state }: { state: ReadState }) {
  switch (state.kind) {
    case 'idle':
      return null;
    case 'reading':
      return <p className="muted">Reading {state.uri}…</p>;
    case 'failed':
      return <ErrorBox error={state.error} testId="resource-error" />;
    case 'read':
      return (
        <div className="read-result" data-testid="resource-result">
          {state.result.contents.length === 0 && <p className="muted">The server returned no contents.</p>}
          {state.result.contents.map((c, i) => (
            <ResourceContentsView key={`${c.uri}-${i}`} contents={c} />
          ))}
        </div>
      );
  }
}
