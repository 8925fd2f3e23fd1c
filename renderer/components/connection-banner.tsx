import { useHostLink, useLinkStatus } from '../host/host-context.js';
import { useNow } from '../hooks/use-now.js';
import { secondsUntil } from '../lib/format.js';

/**
 * Says so when the host is out of reach. The first connect is quiet (it takes
 * milliseconds); every later gap is shown, because views are showing stale data then.
 */
export function ConnectionBanner() {
  const link = useHostLink();
  const status = useLinkStatus();
  const now = useNow(status.kind === 'waiting');
  switch (status.kind) {
    case 'open':
      return null;
    case 'connecting':
      return status.attempt === 0 ? null : (
        <div className="banner warn" role="status" data-testid="connection-banner">
          Disconnected from host — reconnecting (attempt {status.attempt})…
        </div>
      );
    case 'waiting':
      return (
        <div className="banner warn" role="status" data-testid="connection-banner">
          <span>
            Disconnected from host ({status.reason}) — retrying in {secondsUntil(status.retryAt, now)}s. If
            the host was restarted, open the new address it printed.
          </span>
          {link.retryNow && (
            <button type="button" className="small" onClick={() => link.retryNow?.()}>
              Retry now
            </button>
          )}
        </div>
      );
    case 'no-token':
      return (
        <div className="banner error" role="alert" data-testid="connection-banner">
          No session token. Open the address that <code>mcp-desk browser</code> printed (it ends in{' '}
          <code>#token=…</code>).
        </div>
      );
  }
}
