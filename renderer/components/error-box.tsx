import type { HostError } from '../../shared/ipc/host-error.js';

/** A host error, with its code and the host's hint (`details.hint`), shown inline where it happened. */
export function ErrorBox({ error, testId }: { error: HostError; testId?: string }) {
  const hint = error.details?.hint;
  return (
    <div className="error-box" role="alert" data-testid={testId ?? 'error-box'}>
      <span className="error-code">{error.code}</span>
      <span className="error-message">{error.message}</span>
      {hint && <div className="error-hint">{hint}</div>}
    </div>
  );
}
