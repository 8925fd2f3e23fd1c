import type { HostError } from '../../shared/ipc/host-error.js';
import { fieldErrorLines } from '../host/errors.js';

/**
 * A host error, shown inline where it happened: what happened in plain words first (its field
 * errors from `details.fields`, one line per field, or its message), then the host's next step
 * (`details.hint`), and only then, small and muted, the code and the raw technical text for a
 * bug report or a search.
 */
export function ErrorBox({ error, testId }: { error: HostError; testId?: string }) {
  const hint = error.details?.hint;
  const technical = error.details?.technical;
  const fields = fieldErrorLines(error);
  return (
    <div className="error-box" role="alert" data-testid={testId ?? 'error-box'}>
      {fields.length === 0 ? (
        <span className="error-message">{error.message}</span>
      ) : (
        <ul className="error-fields">
          {fields.map(({ field, message }) => (
            <li key={field ?? '(root)'} data-field={field}>
              {field && <span className="error-field">{field}</span>} {message}
            </li>
          ))}
        </ul>
      )}
      {hint && <div className="error-hint">{hint}</div>}
      <div className="error-secondary">
        <span className="error-code">{error.code}</span>
        {technical && <span className="error-technical">{technical}</span>}
      </div>
    </div>
  );
}
