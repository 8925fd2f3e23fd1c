import type { HostError } from '../../shared/ipc/host-error.js';
import { fieldErrorLines } from '../host/errors.js';

/**
 * A host error, shown inline where it happened: its code, then either its field errors (from
 * `details.fields`, one line per field, so every form shows what to fix where) or its message,
 * and the host's hint (`details.hint`).
 */
export function ErrorBox({ error, testId }: { error: HostError; testId?: string }) {
  const hint = error.details?.hint;
  const fields = fieldErrorLines(error);
  return (
    <div className="error-box" role="alert" data-testid={testId ?? 'error-box'}>
      <span className="error-code">{error.code}</span>
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
    </div>
  );
}
