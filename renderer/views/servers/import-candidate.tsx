import { AlertTriangle, KeyRound, MinusCircle } from 'lucide-react';
import { useCallback, type ReactNode } from 'react';
import type { ImportCandidate, ImportConflict, ImportSecret } from '../../../shared/domain/imports.js';
import { DryRunPanel } from '../../components/dry-run/dry-run-panel.js';

/** One server found in another app: a checkbox, the entry as it will be saved, and what to know first. */
export function ImportCandidateCard({
  candidate,
  picked,
  noKeychain = false,
  scanId,
  onPick,
  onDryRun,
}: {
  candidate: ImportCandidate;
  /** The scan it was found by (its dry run names it by scan and key). */
  scanId: string;
  picked: boolean;
  /** There is no OS keychain here: a literal secret is taken out but cannot be stored. */
  noKeychain?: boolean;
  onPick: (picked: boolean) => void;
  /** Its dry run started or ended (the view holds Import while one runs). */
  onDryRun?: (key: string, running: boolean) => void;
}) {
  const c = candidate;
  const onRunning = useCallback((on: boolean) => onDryRun?.(candidate.key, on), [onDryRun, candidate.key]);
  const id = `import-candidate-${c.key.replace(/[^A-Za-z0-9_-]/g, '-')}`;
  const renamed = c.name !== c.sourceName;
  if (c.alreadyHere !== undefined)
    return (
      <li className="import-candidate already-here" data-testid={`import-already-${c.sourceName}`}>
        <strong className="mono">{c.sourceName}</strong>{' '}
        <span className="muted">
          is already here as “{c.alreadyHere}” (it launches the same way), so it is not offered again.
        </span>
      </li>
    );
  return (
    <li
      className="import-candidate"
      data-testid={`import-candidate-${c.name}`}
      aria-labelledby={`${id}-name`}
    >
      <div className="import-candidate-head">
        <input
          id={`${id}-pick`}
          type="checkbox"
          checked={picked}
          disabled={c.error !== undefined}
          onChange={(e) => onPick(e.target.checked)}
          data-testid={`import-pick-${c.name}`}
        />
        <label htmlFor={`${id}-pick`} id={`${id}-name`} className="import-candidate-name">
          <strong className="mono">{c.name}</strong>
          {renamed && <span className="muted"> — named “{c.sourceName}” there</span>}
          {c.group && <span className="muted"> · project {c.group}</span>}
        </label>
      </div>
      {c.error !== undefined ? (
        <p className="error-text" data-testid={`import-error-${c.name}`}>
          Cannot be imported: {c.error}
        </p>
      ) : (
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- it scrolls: the keyboard must reach it
        <pre className="json-view import-preview" tabIndex={0} aria-label={`${c.name} as it will be saved`}>
          {JSON.stringify(c.config, null, 2)}
        </pre>
      )}
      {renamed && !c.conflicts.some((x) => x.kind === 'same-name') && c.error === undefined && (
        <p className="field-help">Renamed: “{c.sourceName}” is not a valid server name here.</p>
      )}
      <Notes
        testId={`import-conflicts-${c.name}`}
        icon={<AlertTriangle size={14} aria-hidden="true" />}
        items={c.conflicts.map((x) => describeConflict(x, c))}
      />
      <Notes
        testId={`import-secrets-${c.name}`}
        icon={<KeyRound size={14} aria-hidden="true" />}
        items={c.secrets.map((s) => describeSecret(s, noKeychain))}
      />
      <Notes
        testId={`import-not-carried-${c.name}`}
        icon={<MinusCircle size={14} aria-hidden="true" />}
        items={c.notCarried.map((n) => `Not carried over: ${n}`)}
      />
      {c.error === undefined && (
        <DryRunPanel
          request={{ source: 'import', scanId, key: c.key }}
          onRunning={onRunning}
          testId={`import-dry-run-${c.name}`}
        />
      )}
    </li>
  );
}

function Notes({ items, icon, testId }: { items: string[]; icon: ReactNode; testId: string }) {
  if (items.length === 0) return null;
  return (
    <ul className="import-notes" data-testid={testId}>
      {items.map((text) => (
        <li key={text}>
          {icon} {text}
        </li>
      ))}
    </ul>
  );
}

function describeConflict(x: ImportConflict, c: ImportCandidate): string {
  switch (x.kind) {
    case 'same-name':
      return `“${c.sourceName}” is taken by ${x.with}, so it is saved as “${c.name}”.`;
    case 'same-command':
      return `Runs the same command as ${x.with}: it may be the same server.`;
    case 'same-url':
      return `Uses the same URL as ${x.with}: it may be the same server.`;
  }
}

function describeSecret(s: ImportSecret, noKeychain: boolean): string {
  const why = s.description ? ` (${s.description})` : '';
  if (s.kind === 'moved' && noKeychain)
    return `${s.from} is taken out as ${s.name}, but not stored: not set — no keychain here.`;
  return s.kind === 'moved'
    ? `${s.from} moves to your keychain as ${s.name}; the file keeps only a reference.`
    : `${s.from} needs a value${why}: enter it as ${s.name} after the import.`;
}
