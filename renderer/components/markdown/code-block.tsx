import { useEffect, useMemo, useRef, useState, type ReactElement } from 'react';
import { Fragment, jsx, jsxs } from 'react/jsx-runtime';
import { toJsxRuntime } from 'hast-util-to-jsx-runtime';
import { highlightCode } from './highlight.js';

type CopyState = 'idle' | 'copied' | 'failed';

/** A fenced code block: language label, Copy button, and highlighting where we know the language. */
export function CodeBlock({ code, language }: { code: string; language: string | null }) {
  const highlighted = useMemo(() => {
    const tree = highlightCode(language, code);
    // The tree holds only spans with hljs-* classes and text nodes: React renders it as elements.
    // Typed as the global JSX.Element, which React 19 no longer declares; it is a React element.
    return tree ? (toJsxRuntime(tree, { Fragment, jsx, jsxs }) as ReactElement) : null;
  }, [code, language]);
  const [copy, setCopy] = useState<CopyState>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const onCopy = () => {
    const settle = (state: CopyState) => {
      setCopy(state);
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopy('idle'), 1500);
    };
    // The clipboard API needs a secure context and, in Electron, a granted permission (the
    // shell denies permissions by default); the old copy command needs neither.
    navigator.clipboard.writeText(code).then(
      () => settle('copied'),
      () => settle(copyWithSelection(code) ? 'copied' : 'failed'),
    );
  };

  return (
    <div className="code-block" data-testid="code-block">
      <div className="code-block-bar">
        <span className="muted">{language ?? 'text'}</span>
        <button type="button" className="small" onClick={onCopy} data-testid="copy-code">
          {copy === 'copied' ? 'Copied' : copy === 'failed' ? 'Copy failed' : 'Copy'}
        </button>
      </div>
      <pre className="code-block-body">
        <code className={language ? `hljs language-${language}` : 'hljs'}>{highlighted ?? code}</code>
      </pre>
    </div>
  );
}

/** Copy through a hidden textarea and the legacy copy command (a user gesture is enough). */
function copyWithSelection(text: string): boolean {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}
