import { useCallback, useState } from 'react';
import { useKeySet } from '../../hooks/use-key-set.js';
import { DryRunPanel } from '../../components/dry-run/dry-run-panel.js';
import type { ImportResult } from '../../../shared/ipc/contract.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import { ErrorBox } from '../../components/error-box.js';
import { NotStoredNote } from '../../components/not-stored-note.js';
import { asHostError } from '../../host/errors.js';
import { useHost } from '../../host/host-context.js';
import { nothingAddedReason, pastedNames, pastedShape, wrapSingle } from './import-shape.js';

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

/** At most this many pasted servers get a dry run each (a longer paste imports without them). */
const MAX_DRY_RUNS = 10;

/**
 * Paste a claude_desktop_config.json (or .vscode/mcp.json) and import its servers. Each server
 * pasted first runs once in the dry-run sandbox (it starts by itself after a pause in typing);
 * Import waits while one runs, and importing the same text pins the tools its dry run listed.
 */
export function ImportPanel({ onClose }: { onClose: () => void }) {
  const host = useHost();
  const [json, setJson] = useState('');
  const [state, setState] = useState<ImportState>({ kind: 'editing' });
  const shape = pastedShape(json);
  // A single server object has no name: ask for one (prefilled from its package or URL).
  const [name, setName] = useState('');
  const single = shape.kind === 'single';
  const nameToUse = name.trim() || (single ? shape.suggestedName : '');
  const text = single ? wrapSingle(json, nameToUse) : json;
  const names = single ? (nameToUse ? [nameToUse] : []) : pastedNames(json);
  const [dryRunning, onDryRun] = useKeySet();

  const onImport = () => {
    setState({ kind: 'importing' });
    host.invoke('servers.import', { json: text }).then(
      (result) => setState({ kind: 'done', result }),
      (error: unknown) => setState({ kind: 'failed', error: asHostError(error) }),
    );
  };

  return (
    <div className="panel import-panel" data-testid="import-panel">
      <h2>Import servers</h2>
      <p className="muted">
        Paste a <code>claude_desktop_config.json</code> (<code>mcpServers</code>), a VS Code{' '}
        <code>mcp.json</code> (<code>servers</code>), just the map of servers out of either, or one server on
        its own. Servers whose names already exist are skipped.
      </p>
      <textarea
        className="mono"
        rows={12}
        spellCheck={false}
        placeholder={EXAMPLE}
        value={json}
        onChange={(e) => setJson(e.target.value)}
        aria-label="Servers as JSON"
        data-testid="import-json-text"
      />
      {single && (
        <div className="import-name-row">
          <label htmlFor="import-single-name">This is one server — its name:</label>
          <input
            id="import-single-name"
            className="mono"
            value={name}
            placeholder={shape.suggestedName}
            onChange={(e) => setName(e.target.value)}
            spellCheck={false}
            data-testid="import-single-name"
          />
        </div>
      )}
      {state.kind !== 'done' &&
        names.length <= MAX_DRY_RUNS &&
        names.map((server) => (
          <PastedDryRun
            key={server}
            json={text}
            server={server}
            disabled={state.kind === 'importing'}
            onDryRun={onDryRun}
          />
        ))}
      {state.kind === 'failed' && <ErrorBox error={state.error} testId="import-error" />}
      {state.kind === 'done' && <ImportSummary result={state.result} />}
      <div className="form-actions">
        <button
          type="button"
          className="primary"
          onClick={onImport}
          disabled={!json.trim() || state.kind === 'importing' || dryRunning.size > 0}
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

/** One pasted server's dry run, named by the text `servers.import` will get and the server's name. */
function PastedDryRun({
  json,
  server,
  disabled,
  onDryRun,
}: {
  json: string;
  server: string;
  disabled: boolean;
  onDryRun: (server: string, running: boolean) => void;
}) {
  const onRunning = useCallback((on: boolean) => onDryRun(server, on), [onDryRun, server]);
  return (
    <div className="import-dry-run">
      <h3 className="mono">{server}</h3>
      <DryRunPanel
        request={{ source: 'paste', json, name: server }}
        disabled={disabled}
        onRunning={onRunning}
        waitForTyping
        testId={`paste-dry-run-${server}`}
      />
    </div>
  );
}

function ImportSummary({ result }: { result: ImportResult }) {
  const why = nothingAddedReason(result);
  return (
    <div className="import-result" data-testid="import-result" role="status">
      {why && <p data-testid="import-nothing-added">{why}</p>}
      <p>
        <strong>{result.added.length}</strong> added
        {result.added.length ? `: ${result.added.join(', ')}` : ''}
      </p>
      {result.notStored?.map((n) => (
        <NotStoredNote
          key={n.server}
          notStored={n}
          server={n.server}
          testId={`import-not-stored-${n.server}`}
        />
      ))}
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
