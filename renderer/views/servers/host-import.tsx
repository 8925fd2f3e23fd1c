import { useCallback, useEffect, useState } from 'react';
import { useKeySet } from '../../hooks/use-key-set.js';
import type { ImportCandidate, ImportHost } from '../../../shared/domain/imports.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import type { ImportApplyResult, ImportScanResult } from '../../../shared/ipc/contract.js';
import { ErrorBox } from '../../components/error-box.js';
import { asSentence } from '../../components/not-stored-note.js';
import { asHostError } from '../../host/errors.js';
import { useHost } from '../../host/host-context.js';
import { ImportCandidateCard } from './import-candidate.js';
import { ImportOutcome } from './import-outcome.js';

type Scan =
  { kind: 'scanning' } | { kind: 'ready'; scan: ImportScanResult } | { kind: 'failed'; error: HostError };
type Apply =
  | { kind: 'idle' }
  | { kind: 'applying' }
  | { kind: 'done'; result: ImportApplyResult }
  | { kind: 'failed'; error: HostError };

const candidatesOf = (h: ImportHost): ImportCandidate[] => h.files.flatMap((f) => f.servers);

/** Whether a candidate can be picked: valid, and not a server already here. */
const pickable = (c: ImportCandidate) => c.error === undefined && c.alreadyHere === undefined;

/** Picked at first: every valid server that is not possibly one already here or found twice. */
function defaultPick(scan: ImportScanResult): Set<string> {
  const all = scan.hosts.flatMap(candidatesOf).filter(pickable);
  return new Set(
    all
      .filter((c) => c.error === undefined && !c.conflicts.some((x) => x.kind !== 'same-name'))
      .map((c) => c.key),
  );
}

/**
 * Import from other apps: every MCP app found on this computer with its config files, each server
 * previewed as it will be saved (secrets as references), its conflicts and what does not carry
 * over; pick some or all, import, and see what happened. Nothing is written to the other apps.
 */
export function HostImportView({
  onClose,
  onEdit,
  onBackToChat,
}: {
  onClose: () => void;
  onEdit: (serverId: string) => void;
  onBackToChat?: () => void;
}) {
  const host = useHost();
  const [scan, setScan] = useState<Scan>({ kind: 'scanning' });
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const [apply, setApply] = useState<Apply>({ kind: 'idle' });
  // Candidates whose dry run is under way: Import waits for their reports (or their Skip).
  const [dryRunning, onDryRun] = useKeySet();

  const run = useCallback(() => {
    host.invoke('imports.scan', {}).then(
      (s) => {
        setScan({ kind: 'ready', scan: s });
        setPicked(defaultPick(s));
      },
      (error: unknown) => setScan({ kind: 'failed', error: asHostError(error) }),
    );
  }, [host]);
  useEffect(run, [run]);
  const look = () => {
    setScan({ kind: 'scanning' });
    setApply({ kind: 'idle' });
    run();
  };

  const setPick = (keys: string[], on: boolean) =>
    setPicked((old) => {
      const next = new Set(old);
      for (const k of keys)
        if (on) next.add(k);
        else next.delete(k);
      return next;
    });

  const onImport = (s: ImportScanResult) => {
    setApply({ kind: 'applying' });
    host.invoke('imports.apply', { scanId: s.scanId, keys: [...picked] }).then(
      (result) => setApply({ kind: 'done', result }),
      (error: unknown) => setApply({ kind: 'failed', error: asHostError(error) }),
    );
  };
  const labelOf = (id: string) =>
    (scan.kind === 'ready' && scan.scan.lookedAt.find((l) => l.id === id)?.label) || id;

  return (
    <section className="view host-import" data-testid="host-import" aria-labelledby="host-import-title">
      <header className="view-header">
        <h1 id="host-import-title">Import from other apps</h1>
        <div className="header-actions">
          <button
            type="button"
            onClick={look}
            disabled={scan.kind === 'scanning'}
            data-testid="host-import-rescan"
          >
            Look again
          </button>
          <button type="button" onClick={onClose} data-testid="host-import-close">
            Back to servers
          </button>
        </div>
      </header>
      <div className="host-import-body">
        <p className="muted">
          Servers set up in other MCP apps on this computer. Their files are only read, never changed. Keys
          and tokens written into them move to your keychain; the saved entry keeps a reference.
        </p>
        {apply.kind === 'done' && (
          <ImportOutcome
            result={apply.result}
            labelOf={labelOf}
            onEdit={onEdit}
            {...(onBackToChat ? { onBackToChat } : {})}
          />
        )}
        {scan.kind === 'scanning' && <p className="muted">Looking for other MCP apps…</p>}
        {scan.kind === 'failed' && <ErrorBox error={scan.error} testId="host-import-error" />}
        {scan.kind === 'ready' && scan.scan.hosts.length === 0 && <NothingFound scan={scan.scan} />}
        {scan.kind === 'ready' && scan.scan.keychainError !== undefined && scan.scan.hosts.length > 0 && (
          <p className="notice" data-testid="host-import-no-keychain">
            There is no OS keychain here: keys and tokens are still taken out of the entries, but not stored;
            their references stay unset. {asSentence(scan.scan.keychainError)}
          </p>
        )}
        {scan.kind === 'ready' &&
          scan.scan.hosts.map((h) => (
            <HostSection
              key={h.id}
              host={h}
              picked={picked}
              setPick={setPick}
              locked={apply.kind !== 'idle'}
              noKeychain={scan.scan.keychainError !== undefined}
              scanId={scan.scan.scanId}
              onDryRun={onDryRun}
            />
          ))}
        {apply.kind === 'failed' && <ErrorBox error={apply.error} testId="host-import-apply-error" />}
        {scan.kind === 'ready' && scan.scan.hosts.length > 0 && (
          <div className="form-actions">
            {apply.kind === 'done' || apply.kind === 'failed' ? (
              <button type="button" className="primary" onClick={look} data-testid="host-import-again">
                Look again
              </button>
            ) : (
              <button
                type="button"
                className="primary"
                disabled={picked.size === 0 || apply.kind === 'applying' || dryRunning.size > 0}
                onClick={() => onImport(scan.scan)}
                data-testid="host-import-apply"
              >
                {apply.kind === 'applying'
                  ? 'Importing…'
                  : `Import ${picked.size} server${picked.size === 1 ? '' : 's'}`}
              </button>
            )}
          </div>
        )}
      </div>
    </section>
  );
}

function HostSection({
  host,
  picked,
  setPick,
  locked,
  noKeychain,
  scanId,
  onDryRun,
}: {
  host: ImportHost;
  picked: ReadonlySet<string>;
  setPick: (keys: string[], on: boolean) => void;
  locked: boolean;
  noKeychain: boolean;
  /** The scan the candidates belong to (a dry run names a candidate by scan and key). */
  scanId: string;
  onDryRun: (key: string, running: boolean) => void;
}) {
  const valid = candidatesOf(host).filter(pickable);
  const all = valid.length > 0 && valid.every((c) => picked.has(c.key));
  return (
    <section
      className="import-host"
      data-testid={`import-host-${host.id}`}
      aria-labelledby={`import-host-${host.id}`}
    >
      <div className="import-host-head">
        <h2 id={`import-host-${host.id}`}>{host.label}</h2>
        <label>
          <input
            type="checkbox"
            checked={all}
            disabled={valid.length === 0 || locked}
            onChange={(e) =>
              setPick(
                valid.map((c) => c.key),
                e.target.checked,
              )
            }
            data-testid={`import-all-${host.id}`}
          />{' '}
          Select all from {host.label}
        </label>
      </div>
      {host.files.map((f) => (
        <div key={f.path} className="import-file">
          <p className="import-file-path">
            <span className="mono">{f.path}</span>{' '}
            <span className="badge">{f.scope === 'user' ? 'your account' : 'project'}</span>
          </p>
          {f.error !== undefined && (
            <p className="error-text" data-testid="import-file-error">
              Nothing can be imported from this file: {f.error}
            </p>
          )}
          {f.error === undefined && f.servers.length === 0 && (
            <p className="muted">No servers in this file.</p>
          )}
          <ul className="import-candidates">
            {f.servers.map((c) => (
              <ImportCandidateCard
                key={c.key}
                candidate={c}
                picked={picked.has(c.key)}
                noKeychain={noKeychain}
                scanId={scanId}
                onPick={(on) => !locked && setPick([c.key], on)}
                onDryRun={onDryRun}
              />
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}

function NothingFound({ scan }: { scan: ImportScanResult }) {
  return (
    <div className="empty" data-testid="host-import-empty">
      <p>No other MCP apps found on this computer.</p>
      <p className="muted">Looked at:</p>
      <ul className="import-looked-at">
        {scan.lookedAt.map((l) => (
          <li key={l.id}>
            {l.label}:{' '}
            {l.paths.map((p) => (
              <span key={p} className="mono">
                {p}{' '}
              </span>
            ))}
          </li>
        ))}
      </ul>
    </div>
  );
}
