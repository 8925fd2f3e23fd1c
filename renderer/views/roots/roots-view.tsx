import { useState, type DragEvent, type FormEvent } from 'react';
import type { RootEntry } from '../../../shared/ipc/contract.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import { ErrorBox } from '../../components/error-box.js';
import { asHostError } from '../../host/errors.js';
import { useHost } from '../../host/host-context.js';
import { useHostInfo } from '../../hooks/use-host-info.js';
import { AddOutcomeNotice } from './add-outcome-notice.js';
import { dragHasFolders, shareDropped, type AddOutcome } from './folder-drop.js';
import { useRoots } from './use-roots.js';

/** A file:// URI shown as the path a person recognises; anything odd is shown as-is. */
function displayPath(uri: string): string {
  try {
    const url = new URL(uri);
    return url.protocol === 'file:' ? decodeURIComponent(url.pathname) : uri;
  } catch {
    return uri;
  }
}

/**
 * The folders shared with servers (roots). Every change goes through the host, which
 * validates it: its refusal is shown inline. `outcome` is the result of the last add,
 * wherever it happened (a drop on the window, the picker, this view).
 */
export function RootsView({
  outcome,
  onOutcome,
}: {
  outcome: AddOutcome | null;
  onOutcome: (o: AddOutcome | null) => void;
}) {
  const host = useHost();
  const info = useHostInfo();
  const state = useRoots();
  const [path, setPath] = useState('');
  const [error, setError] = useState<HostError | null>(null);
  const [busy, setBusy] = useState(false);
  const [dragging, setDragging] = useState(false);
  const roots = state.kind === 'ready' ? state.roots : [];

  const save = async (next: RootEntry[]): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      await host.invoke('roots.set', { roots: next });
      return true;
    } catch (e) {
      setError(asHostError(e));
      return false;
    } finally {
      setBusy(false);
    }
  };

  const onAdd = async (e: FormEvent) => {
    e.preventDefault();
    const uri = path.trim();
    if (!uri) return;
    if (await save([...roots, { uri }])) setPath('');
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    onOutcome(null);
    void shareDropped(host, e.dataTransfer).then((o) => o && onOutcome(o));
  };

  const onPick = async () => {
    setBusy(true);
    onOutcome(null);
    try {
      onOutcome({ kind: 'added', result: await host.invoke('roots.pick', {}) });
    } catch (e) {
      onOutcome({ kind: 'error', error: asHostError(e) });
    } finally {
      setBusy(false);
    }
  };

  const rename = (index: number, name: string) => {
    const next = roots.map((r, i) => {
      if (i !== index) return r;
      const trimmed = name.trim();
      return trimmed ? { uri: r.uri, name: trimmed } : { uri: r.uri };
    });
    void save(next);
  };

  return (
    <section
      className={dragging ? 'view roots-view dragging' : 'view roots-view'}
      data-testid="roots-view"
      onDragOver={(e) => {
        // Only a drop carrying files or URIs is accepted; anything else keeps the browser's default.
        if (dragHasFolders(e.dataTransfer.types)) {
          e.preventDefault();
          setDragging(true);
        }
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <header className="view-header">
        <h1>Folders</h1>
      </header>
      <div className="scroll">
        <p className="muted">
          Folders shared with servers as roots. Servers are told about them; the host itself refuses to read
          files outside them.
        </p>
        <form onSubmit={onAdd} className="roots-add">
          <input
            type="text"
            value={path}
            onChange={(e) => setPath(e.target.value)}
            placeholder="/absolute/path or file:///…"
            aria-label="Folder path"
            data-testid="root-path-input"
          />
          <button type="submit" disabled={busy || !path.trim()} data-testid="root-add">
            Add folder
          </button>
          {info?.features.folderPicker && (
            <button type="button" disabled={busy} onClick={() => void onPick()} data-testid="root-pick">
              Choose folders…
            </button>
          )}
        </form>
        {error && <ErrorBox error={error} testId="roots-error" />}
        {outcome && <AddOutcomeNotice outcome={outcome} onDismiss={() => onOutcome(null)} />}
        {state.kind === 'loading' && <p className="muted">Loading…</p>}
        {state.kind === 'error' && <ErrorBox error={state.error} />}
        {state.kind === 'ready' && roots.length === 0 && (
          <p className="muted" data-testid="roots-empty">
            No folders shared.{' '}
            {info?.mode === 'electron'
              ? 'Drop folders anywhere on this window, choose them, or type a path.'
              : 'Type a folder path above (a browser cannot tell the host where a dropped folder lives).'}
          </p>
        )}
        <ul className="roots-list">
          {roots.map((root, i) => (
            <li key={`${root.uri}\n${root.name ?? ''}`} className="root-row" data-testid="root-row">
              <input
                type="text"
                defaultValue={root.name ?? ''}
                placeholder="Name (optional)"
                aria-label={`Name for ${displayPath(root.uri)}`}
                maxLength={200}
                data-testid="root-name-input"
                // Saved on blur or Enter, not per keystroke: each save notifies every server.
                onBlur={(e) => {
                  if (e.target.value.trim() !== (root.name ?? '')) rename(i, e.target.value);
                }}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') e.currentTarget.blur();
                }}
              />
              <code className="root-path" title={root.uri}>
                {displayPath(root.uri)}
              </code>
              <button
                type="button"
                className="small"
                disabled={busy}
                onClick={() => void save(roots.filter((_, j) => j !== i))}
                data-testid="root-remove"
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
