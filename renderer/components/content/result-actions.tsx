import { Braces, Check, Copy } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import type { CallToolResult } from '../../../shared/domain/mcp-types.js';
import { JsonView } from './json-view.js';

/** What Copy puts on the clipboard: the text a person reads, or the exact JSON when that is shown (or there is no text). */
export function resultCopyText(result: CallToolResult, raw: boolean): string {
  const texts = (result.content ?? []).flatMap((b) => (b.type === 'text' ? [b.text] : []));
  if (!raw && texts.length > 0) return texts.join('\n\n');
  return JSON.stringify(result, null, 2);
}

type CopyState = 'idle' | 'copied' | 'failed';

// Long enough to be read, short enough that a second Copy gets its own confirmation.
const COPIED_MS = 2000;

/**
 * A tool result with Copy and Raw: `children` is the result as content blocks; Raw swaps them
 * for the exact JSON the server returned (structured content, _meta and all). Shared by the
 * Tools view and the chat's tool cards so both behave alike.
 */
export function ResultActions({ result, children }: { result: CallToolResult; children: ReactNode }) {
  const [raw, setRaw] = useState(false);
  const [copy, setCopy] = useState<CopyState>('idle');
  useEffect(() => {
    if (copy === 'idle') return;
    const timer = setTimeout(() => setCopy('idle'), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copy]);

  const onCopy = () => {
    // The clipboard API may refuse (no permission, page not focused): say so rather than pretend.
    navigator.clipboard.writeText(resultCopyText(result, raw)).then(
      () => setCopy('copied'),
      () => setCopy('failed'),
    );
  };

  return (
    <>
      <div className="result-actions" data-testid="result-actions">
        <button
          type="button"
          className="small with-icon"
          onClick={onCopy}
          title={raw ? 'Copy the JSON result' : 'Copy the text of the result'}
          data-testid="result-copy"
        >
          {copy === 'copied' ? <Check size={14} aria-hidden="true" /> : <Copy size={14} aria-hidden="true" />}
          {copy === 'copied' ? 'Copied' : 'Copy'}
        </button>
        <button
          type="button"
          className="small with-icon"
          aria-pressed={raw}
          onClick={() => setRaw((r) => !r)}
          title="Show the exact JSON the server returned"
          data-testid="result-raw"
        >
          <Braces size={14} aria-hidden="true" /> Raw
        </button>
        <span role="status" className="muted small-print" data-testid="result-copy-status">
          {copy === 'failed' ? 'Could not copy: the browser refused access to the clipboard.' : ''}
        </span>
      </div>
      {raw ? <JsonView value={result} testId="result-raw-json" /> : children}
    </>
  );
}
