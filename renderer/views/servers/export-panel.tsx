import { Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { EXPORT_FORMATS, type ExportFormat } from '../../../shared/domain/imports.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import type { ExportSnippet } from '../../../shared/domain/imports.js';
import { ErrorBox } from '../../components/error-box.js';
import { asHostError } from '../../host/errors.js';
import { useHost } from '../../host/host-context.js';

const FORMAT_LABELS: Record<ExportFormat, string> = {
  'claude-desktop': 'Claude Desktop',
  vscode: 'VS Code',
  cursor: 'Cursor',
  'gemini-cli': 'Gemini CLI',
  'claude-code': 'Claude Code',
};

type Snippet =
  { kind: 'loading' } | { kind: 'ready'; snippet: ExportSnippet } | { kind: 'failed'; error: HostError };

/** One server (or all) as a snippet for another app: pick the app, read the notes, copy. */
export function ExportPanel({ ids, onClose }: { ids: string[] | 'all'; onClose: () => void }) {
  const host = useHost();
  const [format, setFormat] = useState<ExportFormat>('claude-desktop');
  const [answer, setAnswer] = useState<{ request: string; state: Snippet } | null>(null);
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
  const idsKey = ids === 'all' ? 'all' : ids.join('\n');
  const request = `${format}\n${idsKey}`;

  useEffect(() => {
    let live = true;
    const done = (state: Snippet) => live && setAnswer({ request: `${format}\n${idsKey}`, state });
    host.invoke('imports.export', { ids: idsKey === 'all' ? 'all' : idsKey.split('\n'), format }).then(
      (snippet) => done({ kind: 'ready', snippet }),
      (error: unknown) => done({ kind: 'failed', error: asHostError(error) }),
    );
    return () => {
      live = false;
    };
  }, [host, idsKey, format]);
  // The answer to an earlier choice is not this one's: show it loading until its own arrives.
  const state: Snippet = answer?.request === request ? answer.state : { kind: 'loading' };

  const copy = (text: string) =>
    navigator.clipboard.writeText(text).then(
      () => setCopied('copied'),
      () => setCopied('failed'),
    );

  return (
    <div className="panel export-panel" data-testid="export-panel">
      <h2>Export {ids === 'all' ? 'all servers' : ids.join(', ')}</h2>
      <div className="export-format-row">
        <label htmlFor="export-format">For</label>
        <select
          id="export-format"
          value={format}
          onChange={(e) => {
            setFormat(e.target.value as ExportFormat);
            setCopied('idle');
          }}
          data-testid="export-format"
        >
          {EXPORT_FORMATS.map((f) => (
            <option key={f} value={f}>
              {FORMAT_LABELS[f]}
            </option>
          ))}
        </select>
      </div>
      {state.kind === 'loading' && <p className="muted">Writing the snippet…</p>}
      {state.kind === 'failed' && <ErrorBox error={state.error} testId="export-error" />}
      {state.kind === 'ready' && (
        <>
          <p className="muted" data-testid="export-target">
            Paste it into {state.snippet.target}. Keychain secrets stay as <code>{'${secret:NAME}'}</code>{' '}
            references: enter their values there.
          </p>
          {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- it scrolls: the keyboard must reach it */}
          <pre className="json-view export-text" tabIndex={0} data-testid="export-text" aria-label="Snippet">
            {state.snippet.text}
          </pre>
          {state.snippet.commands && state.snippet.commands.length > 0 && (
            <>
              <p className="muted">Or add them from a terminal:</p>
              <pre
                className="json-view export-text"
                // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- it scrolls: the keyboard must reach it
                tabIndex={0}
                data-testid="export-commands"
                aria-label="Commands"
              >
                {state.snippet.commands.join('\n')}
              </pre>
            </>
          )}
          {state.snippet.notes.length > 0 && (
            <ul className="import-notes" data-testid="export-notes">
              {state.snippet.notes.map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
          )}
        </>
      )}
      <div className="form-actions">
        <button
          type="button"
          className="primary"
          disabled={state.kind !== 'ready'}
          onClick={() => state.kind === 'ready' && void copy(state.snippet.text)}
          data-testid="export-copy"
        >
          <Copy size={14} aria-hidden="true" />{' '}
          {copied === 'copied' ? 'Copied' : copied === 'failed' ? 'Copy failed: select the text' : 'Copy'}
        </button>
        <button type="button" onClick={onClose} data-testid="export-close">
          Close
        </button>
      </div>
    </div>
  );
}
