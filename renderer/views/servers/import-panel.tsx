import { useState } from 'react';
import type { ImportResult } from '../../../shared/ipc/contract.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import { ErrorBox } from '../../components/error-box.js';
import { asHostError } from '../../host/errors.js';
import { useHost } from '../../host/host-context.js';

type ImportState =
  | { kind: 'editing' }
  | { kind: 'importing' }
  | { kind: 'done'; result: ImportResult }
  | { kind: 'failed'; error: HostError };

const EXAMPLE = `{
  "mcpServers": {
    "everything": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"] }
  }
}`;

/** Paste a claude_desktop_config.json (or .vscode/mcp.json) and import its servers. */
export function ImportPanel({ onClose }: { onClose: () => void }) {
  const host = useHost();
  const [json, setJson] = useState('');
  const [state, setState] = useState<ImportState>({ kind: 'editing' });

  const onImport = () => {
    setState({ kind: 'importing' });
    host.invoke('servers.import', { json }).then(
      (result) => setState({ kind: 'done', result }),
      (error: unknown) => setState({ kind: 'failed', error: asHostError(error) }),
    );
  };

  return (
    <div className="panel import-panel" data-testid="import-panel">
      <h2>Import servers</h2>
      <p className="muted">
        Paste a <code>claude_desktop_config.json</code> or any JSON with an <code>mcpServers</code> object.
        Servers whose names already exist are skipped.
      </p>
      <textarea
        className="mono"
        rows={12}
        spellCheck={false}
        placeholder={EXAMPLE}
        value={json}
        onChange={(e) => setJson(e.target.value)}
        data-testid="import-json-text"
      />
      {state.kind === 'failed' && <ErrorBox error={state.error} testId="import-error" />}
      {state.kind === 'done' && <ImportSummary result={state.result} />}
      <div className="form-actions">
        <button
          type="button"
          className="primary"
          onClick={onImport}
          disabled={!json.trim() || state.kind === 'importing'}
          data-testid="import-submit"
        >
          {state.kind === 'importing' ? 'Importing…' : 'Import'}
        </button>
        <button type="button" onClick={onClose} data-testid="import-close">
          {state.kind === 'done' ? 'Done' : 'Cancel'}
        </button>
      </div>
    </div>
  );
}

function ImportSummary({ result }: { result: ImportResult }) {
  return (
    <div className="import-result" data-testid="import-result">
      <p>
        <strong>{result.added.length}</strong> added
        {result.added.length ? `: ${result.added.join(', ')}` : ''}
      </p>
      {result.skipped.length > 0 && (
        <>
          <p>
            <strong>{result.skipped.length}</strong> skipped:
          </p>
          <ul className="skipped-list">
            {result.skipped.map((s) => (
              <li key={s.name}>
                <code>{s.name}</code> — {s.reason}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
