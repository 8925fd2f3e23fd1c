import { useState } from 'react';
import { LazyMarkdown } from '../markdown/lazy-markdown.js';

const MARKDOWN_TYPES = new Set(['text/markdown', 'text/x-markdown']);
const MARKDOWN_PATH = /\.(md|markdown)$/i;

/** Whether a resource body is Markdown: by its media type, or by its URI's extension when it has none. */
export function isMarkdownResource(mimeType: string | undefined, uri: string): boolean {
  if (mimeType) return MARKDOWN_TYPES.has(mimeType.split(';')[0].trim().toLowerCase());
  // Without the query or fragment, which a server may add to a file's URI.
  return MARKDOWN_PATH.test(uri.replace(/[?#].*$/, ''));
}

/**
 * A resource's text. Markdown is shown rendered (sanitised, through the same renderer as the
 * chat's replies) with a switch to the exact source, since a resource is also read to be quoted.
 */
export function ResourceText({ text, markdown }: { text: string; markdown: boolean }) {
  const [source, setSource] = useState(false);
  if (!markdown) return <pre className="content-text">{text}</pre>;
  return (
    <div className="resource-text" data-testid="resource-markdown" data-mode={source ? 'source' : 'rendered'}>
      <div className="segmented" role="group" aria-label="Show the Markdown">
        <button
          type="button"
          className="small"
          aria-pressed={!source}
          onClick={() => setSource(false)}
          data-testid="markdown-rendered"
        >
          Rendered
        </button>
        <button
          type="button"
          className="small"
          aria-pressed={source}
          onClick={() => setSource(true)}
          data-testid="markdown-source"
        >
          Source
        </button>
      </div>
      {source ? (
        <pre className="content-text" data-testid="markdown-source-text">
          {text}
        </pre>
      ) : (
        <div className="content-markdown" data-testid="markdown-rendered-view">
          <LazyMarkdown text={text} />
        </div>
      )}
    </div>
  );
}
