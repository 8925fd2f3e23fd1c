import { lazy, Suspense } from 'react';

// react-markdown, remark-gfm and the highlighter are most of the renderer's weight and are
// needed only once a reply is on screen, so they are a chunk of their own.
const MarkdownView = lazy(() => import('./markdown-view.js').then((m) => ({ default: m.MarkdownView })));

/**
 * Sanitised Markdown, loaded on demand; until its chunk arrives the words show as plain text
 * (React escapes them), so nothing jumps or goes missing.
 */
export function LazyMarkdown({ text }: { text: string }) {
  return (
    <Suspense
      fallback={
        <div className="markdown markdown-loading" data-testid="markdown-loading">
          {text}
        </div>
      }
    >
      <MarkdownView text={text} />
    </Suspense>
  );
}
