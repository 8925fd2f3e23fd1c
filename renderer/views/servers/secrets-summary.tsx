import { useServerSecrets } from '../../hooks/use-server-secrets.js';

/** Which secrets a server uses and which are missing, so a failure naming one makes sense. */
export function SecretsSummary({ serverId }: { serverId: string }) {
  const { list } = useServerSecrets();
  const mine = (list ?? []).filter((s) => s.usedBy.includes(serverId));
  if (mine.length === 0) return null;
  const missing = mine.filter((s) => !s.set);
  return (
    <div className="secrets-summary" data-testid="secrets-summary">
      <h3>Secrets</h3>
      <ul>
        {mine.map((s) => (
          <li key={s.name} data-testid={`secrets-summary-${s.name}`} data-set={s.set ? 'true' : 'false'}>
            <span className="mono">{s.name}</span> —{' '}
            {s.set ? 'set' : <strong className="error-text">not set</strong>}
          </li>
        ))}
      </ul>
      {missing.length > 0 && (
        <p className="field-help">The server cannot start without them: set them under Edit.</p>
      )}
    </div>
  );
}
