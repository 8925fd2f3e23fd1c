import { useState } from 'react';
import type { ReadResourceResult, ResourceLink } from '../../../shared/domain/mcp-types.js';
import type { HostError } from '../../../shared/domain/server-state.js';
import { asHostError } from '../../host/errors.js';
import { useHost } from '../../host/host-context.js';
import { ErrorBox } from '../error-box.js';
import { formatBytes } from './data-url.js';
import { ResourceContentsView } from './resource-contents-view.js';

type ReadState =
  | { kind: 'idle' }
  | { kind: 'reading' }
  | { kind: 'read'; result: ReadResourceResult }
  | { kind: 'failed'; error: HostError };

/** A resource_link block: what it points at, and a button to read it from its server. */
export function ResourceLinkView({ link, serverId }: { link: ResourceLink; serverId: string | null }) {
  const host = useHost();
  const [read, setRead] = useState<ReadState>({ kind: 'idle' });

  const onRead = () => {
    if (!serverId) return;
    setRead({ kind: 'reading' });
    host.invoke('resources.read', { serverId, uri: link.uri }).then(
      (result) => setRead({ kind: 'read', result }),
      (error: unknown) => setRead({ kind: 'failed', error: asHostError(error) }),
    );
  };

  return (
    <div className="resource-link" data-testid="resource-link">
      <div className="resource-link-head">
        <span className="badge">link</span>
        <strong>{link.title ?? link.name}</strong>
        <code className="uri">{link.uri}</code>
        {link.mimeType && <span className="muted">{link.mimeType}</span>}
        {link.size !== undefined && <span className="muted">{formatBytes(link.size)}</span>}
        {serverId && (
          <button
            type="button"
            className="small"
            onClick={onRead}
            disabled={read.kind === 'reading'}
            data-testid="read-resource-link"
          >
            {read.kind === 'reading' ? 'Reading…' : 'Read'}
          </button>
        )}
      </div>
      {link.description && <p className="muted">{link.description}</p>}
      {read.kind === 'read' &&
        read.result.contents.map((c, i) => <ResourceContentsView key={`${c.uri}-${i}`} contents={c} />)}
      {read.kind === 'failed' && <ErrorBox error={read.error} />}
    </div>
  );
}
