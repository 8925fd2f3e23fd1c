import { useEffect, useRef } from 'react';
import type { ImportApplyResult } from '../../../shared/ipc/contract.js';

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
  useEffect(() => box.current?.scrollIntoView({ block: 'start' }), []);
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
          const moved = a.secrets.filter((s) => s.kind === 'moved').length;
          return (
            <li key={a.key} data-testid={`imported-${a.name}`}>
              <span className="mono">{a.name}</span> from {labelOf(a.host)}
              {moved > 0 && ` · ${moved} secret${moved === 1 ? '' : 's'} moved to your keychain`}
              {a.unset.length > 0 && (
                <>
                  {' · '}
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => onEdit(a.name)}
                    data-testid={`fill-secrets-${a.name}`}
                  >
                    Enter {a.unset.join(', ')}
                  </button>
                </>
              )}
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
