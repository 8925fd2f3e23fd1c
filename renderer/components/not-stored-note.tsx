import type { SecretsNotStored } from '../../shared/domain/server-secrets.js';

/** Secrets an add, install or import had no keychain for: their references are left unset, and why. */
export function NotStoredNote({
  notStored,
  testId,
  server,
}: {
  notStored: SecretsNotStored;
  testId: string;
  /** The server they belong to, where the note sits among several. */
  server?: string;
}) {
  const refs = notStored.names.map((n) => `\${secret:${n}}`).join(', ');
  const reason = asSentence(notStored.reason);
  return (
    <p className="field-help" data-testid={testId}>
      {server !== undefined && (
        <>
          <code>{server}</code>:{' '}
        </>
      )}
      {refs} {notStored.names.length === 1 ? 'is' : 'are'} not set — no keychain here. {reason}
    </p>
  );
}

/** The keychain's reason ("no OS keychain available: …") as a sentence of its own. */
export function asSentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
