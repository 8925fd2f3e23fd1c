import type { HostError } from '../../shared/domain/server-state.js';

/** A host error, with its code, shown inline where it happened. */
export function ErrorBox({
  error,
  testId,
  hint,
}: {
  error: HostError;
  testId?: string;
  hint?: string | null;
}) {
  return (
    <div className="error-box" role="alert" data-testid={testId ?? 'error-box'}>
      <span className="error-code">{error.code}</span>
      <span className="error-message">{error.message}</span>
      {hint && <div className="error-hint">{hint}</div>}
    </div>
  );
}
