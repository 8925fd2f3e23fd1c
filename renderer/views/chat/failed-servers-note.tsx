import { AlertTriangle } from 'lucide-react';
import type { ServerSummary } from '../../../shared/domain/server-state.js';
import { showTarget } from '../../hooks/use-view-target.js';

/**
 * Servers that failed, said in the chat: their tools are missing from every answer until they
 * start. "Open Servers" shows the first one's details (its log says why).
 */
export function FailedServersNote({
  servers,
  onOpenServers,
}: {
  servers: readonly ServerSummary[];
  onOpenServers: () => void;
}) {
  const failed = servers.filter((s) => s.state.kind === 'failed');
  if (failed.length === 0) return null;
  const names = failed.map((s) => s.id);
  const shown =
    names.length > 3 ? `${names.slice(0, 3).join(', ')} and ${names.length - 3} more` : names.join(', ');
  return (
    <div className="banner error failed-servers" role="status" data-testid="chat-failed-servers">
      <AlertTriangle size={16} aria-hidden="true" />
      <span>
        {failed.length === 1 ? 'A server failed' : `${failed.length} servers failed`} to start: {shown}.{' '}
        {failed.length === 1 ? 'Its' : 'Their'} tools are not offered.
      </span>
      <button
        type="button"
        className="small"
        onClick={() => {
          onOpenServers();
          showTarget({ view: 'servers', serverId: names[0] });
        }}
        data-testid="chat-failed-servers-open"
      >
        Open Servers
      </button>
    </div>
  );
}
