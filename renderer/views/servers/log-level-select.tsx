import { useEffect, useState } from 'react';
import type { ServerSummary } from '../../../shared/domain/server-state.js';
import { LOG_LEVELS } from '../../../shared/ipc/channels/subscription-channels.js';
import type { LogLevel, LogLevelState } from '../../../shared/ipc/contract.js';
import { asHostError } from '../../host/errors.js';
import { useHost } from '../../host/host-context.js';

/**
 * The server's log level (2025 logging/setLevel), shown only for a connected server that declared
 * logging. The host remembers the choice and sends it again after every reconnect; where the
 * protocol has no such request (2026-07-28) the select is disabled and says why.
 */
export function LogLevelSelect({ server }: { server: ServerSummary }) {
  const host = useHost();
  const [state, setState] = useState<LogLevelState | null>(null);
  const [error, setError] = useState<string | null>(null);
  const conn = server.state;
  const since = conn.kind === 'connected' ? conn.since : null;
  const declared = conn.kind === 'connected' && 'logging' in conn.info.capabilities;

  useEffect(() => {
    if (!declared) return undefined;
    let live = true;
    host.invoke('logging.get', { serverId: server.id }).then(
      (s) => live && setState(s),
      (e: unknown) => live && setError(asHostError(e).message),
    );
    return () => {
      live = false;
    };
  }, [host, server.id, since, declared]);

  if (!declared || !state) return null;
  const change = (level: LogLevel) => {
    setError(null);
    host
      .invoke('logging.setLevel', { serverId: server.id, level })
      .then(setState, (e: unknown) => setError(asHostError(e).message));
  };
  return (
    <div className="log-level" data-testid="log-level">
      <label>
        Log level{' '}
        <select
          value={state.level ?? ''}
          disabled={!state.available}
          onChange={(e) => change(e.target.value as LogLevel)}
          aria-describedby={state.reason ? 'log-level-reason' : undefined}
          data-testid="log-level-select"
        >
          <option value="" disabled>
            Server default
          </option>
          {LOG_LEVELS.map((l) => (
            <option key={l} value={l}>
              {l}
            </option>
          ))}
        </select>
      </label>
      {state.reason && (
        <span id="log-level-reason" className="muted" data-testid="log-level-reason">
          {state.reason}
        </span>
      )}
      {error && (
        <span className="error-text" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
