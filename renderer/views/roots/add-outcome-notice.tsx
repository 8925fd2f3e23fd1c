import { ErrorBox } from '../../components/error-box.js';
import type { AddOutcome } from './folder-drop.js';

/** What the last add did: folders shared, items refused with their reasons, or the error. */
export function AddOutcomeNotice({ outcome, onDismiss }: { outcome: AddOutcome; onDismiss: () => void }) {
  if (outcome.kind === 'error') return <ErrorBox error={outcome.error} testId="roots-add-error" />;
  const { added, refused } = outcome.result;
  if (added.length === 0 && refused.length === 0) return null;
  return (
    <div className="notice roots-outcome" role="status" data-testid="roots-outcome">
      {added.length > 0 && <p>Shared: {added.join(', ')}</p>}
      {refused.length > 0 && (
        <ul data-testid="roots-refused">
          {refused.map((r) => (
            <li key={r.path}>
              Not shared: <code>{r.path}</code> — {r.reason}
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="small" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
