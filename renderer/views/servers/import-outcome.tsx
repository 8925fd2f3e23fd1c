import { useEffect, useRef } from 'react';
import type { ImportApplyResult } from '../../../shared/ipc/contract.js';
import { NotStoredNote } from '../../components/not-stored-note.js';

/** What an import did: each server added (secrets moved, values still to enter) and each skipped, with why. */
export function ImportOutcome({
  result,
  labelOf,
  onEdit,
  onBackToChat,
}: {
  result: ImportApplyResult;
  labelOf: (hostId: string) => string;
  onEdit: (serverId: string) => void;
  /** Shows Chat (absent: no way there from here). */
  onBackToChat?: () => void;
}) {
  // The outcome sits at the top of the view; the person pressed Import at the bottom, so go there.
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // Braces: scrollIntoView returns a promise in newer Chromium, and an effect may return only its cleanup.
    box.current?.scrollIntoView({ block: 'start' });
  }, []);
  return (
    <div className="import-result" role="status" data-testid="host-import-result" ref={box}>
      <p>
        <strong>{result.added.length}</strong> imported
        {result.skipped.length > 0 && (
          <>
            , <strong>{result.skipped.length}</strong> skipped
          </>
        )}
        .
      </p>
      <ul className="import-outcome-list">
        {result.added.map((a) => {
          const unstored = a.notStored?.names ?? [];
          const moved = a.secrets.filter((s) => s.kind === 'moved' && !unstored.includes(s.name)).length;
          // Secrets with no keychain to go to are said once, below; the rest wait for the person.
          const toEnter = a.unset.filter((n) => !unstored.includes(n));
          return (
            <li key={a.key} data-testid={`imported-${a.name}`}>
              <span className="mono">{a.name}</span> from {labelOf(a.host)}
              {moved > 0 && ` · ${moved} secret${moved === 1 ? '' : 's'} moved to your keychain`}
              {toEnter.length > 0 && (
                <>
                  {' · '}
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => onEdit(a.name)}
                    data-testid={`fill-secrets-${a.name}`}
                  >
                    Enter {toEnter.join(', ')}
                  </button>
                </>
              )}
              {a.notStored && <NotStoredNote notStored={a.notStored} testId={`not-stored-${a.name}`} />}
            </li>
          );
        })}
        {result.skipped.map((s) => (
          <li key={s.key} data-testid={`import-skipped-${s.name}`}>
            <span className="mono">{s.name}</span> skipped: {s.reason}
          </li>
        ))}
      </ul>
      {onBackToChat && result.added.length > 0 && (
        <button type="button" className="primary small" onClick={onBackToChat} data-testid="back-to-chat">
          Back to chat
        </button>
      )}
    </div>
  );
}
