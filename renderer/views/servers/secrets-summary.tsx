import { useServerSecrets } from '../../hooks/use-server-secrets.js';
import { secretStateText } from './secret-row.js';

/** Which secrets a server uses and which are missing, so a failure naming one makes sense. */
export function SecretsSummary({ serverId }: { serverId: string }) {
  const { list } = useServerSecrets();
  const mine = (list ?? []).filter((s) => s.usedBy.includes(serverId));
  if (mine.length === 0) return null;
  const missing = mine.filter((s) => !s.set);
  const noKeychain = missing.find((s) => s.keychainError !== undefined)?.keychainError;
  return (
    <div className="secrets-summary" data-testid="secrets-summary">
      <h3>Secrets</h3>
      <ul>
        {mine.map((s) => (
          <li key={s.name} data-testid={`secrets-summary-${s.name}`} data-set={s.set ? 'true' : 'false'}>
            <span className="mono">{s.name}</span> —{' '}
            {s.set ? (
              'set'
            ) : (
              <strong className="error-text">{secretStateText(false, s.keychainError)}</strong>
            )}
          </li>
        ))}
      </ul>
      {missing.length > 0 && noKeychain === undefined && (
        <p className="field-help">The server cannot start without them: set them under Edit.</p>
      )}
      {missing.length > 0 && noKeychain !== undefined && (
        <p className="field-help" data-testid="secrets-summary-no-keychain">
          The server cannot start without them, and they cannot be stored here: {noKeychain}
        </p>
      )}
    </div>
  );
}
