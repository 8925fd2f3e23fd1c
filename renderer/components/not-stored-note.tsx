import type { SecretsNotStored } from '../../shared/domain/server-secrets.js';

/** Secrets an add, install or import had no keychain for: their references are left unset, and why. */
export function NotStoredNote({ notStored, testId }: { notStored: SecretsNotStored; testId: string }) {
  return (
    <div className="field-help" data-testid={testId}>
      {notStored.names.map((n) => `\${secret:${n}}`).join(', ')} {notStored.names.length === 1 ? 'is' : 'are'}{' '}
      not set — no keychain here. {notStored.reason}
    </div>
  );
}
