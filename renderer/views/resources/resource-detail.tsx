import { useEffect } from 'react';
import type { Resource } from '../../../shared/domain/mcp-types.js';
import { formatBytes } from '../../components/content/data-url.js';
import { useViewActive } from '../../components/view-active.js';
import { useLiveResource } from '../../hooks/use-live-resource.js';
import { AttachButton } from './attach-button.js';
import { LiveNote } from './live-note.js';
import { ReadResult } from './read-result.js';
import { useResourceRead } from './use-resource-read.js';

/**
 * A concrete resource: read as soon as it is selected (or shown again), with a button to read it
 * again; kept live while on screen, so it is read again whenever the server says it changed.
 */
export function ResourceDetail({ serverId, resource }: { serverId: string; resource: Resource }) {
  const { state, read, refresh } = useResourceRead(serverId);
  // Views stay mounted while hidden: the resource is open (read, and kept live) while shown.
  const shown = useViewActive();
  useEffect(() => {
    if (shown) read(resource.uri);
  }, [read, resource.uri, shown]);
  const live = useLiveResource(serverId, shown ? resource.uri : null, 'resources-view', () =>
    refresh(resource.uri),
  );
  return (
    <div className="panel resource-detail" data-testid="resource-detail">
      <div className="detail-head">
        <h2>{resource.title ?? resource.name}</h2>
        <span className="badge subtle">{serverId}</span>
        {resource.mimeType && <span className="badge subtle">{resource.mimeType}</span>}
        {resource.size !== undefined && <span className="muted">{formatBytes(resource.size)}</span>}
      </div>
      <code className="uri">{resource.uri}</code>
      <LiveNote live={live} />
      {resource.description && <p className="description">{resource.description}</p>}
      <div className="form-actions">
        <button
          type="button"
          onClick={() => read(resource.uri)}
          disabled={state.kind === 'reading'}
          data-testid="read-resource"
        >
          Read again
        </button>
        <AttachButton serverId={serverId} uri={resource.uri} name={resource.title ?? resource.name} />
      </div>
      <ReadResult state={state} />
    </div>
  );
}
