import { useEffect } from 'react';
import type { Resource } from '../../../shared/domain/mcp-types.js';
import { formatBytes } from '../../components/content/data-url.js';
import { AttachButton } from './attach-button.js';
import { ReadResult } from './read-result.js';
import { useResourceRead } from './use-resource-read.js';

/** A concrete resource: read as soon as it is selected, with a button to read it again. */
export function ResourceDetail({ serverId, resource }: { serverId: string; resource: Resource }) {
  const { state, read } = useResourceRead(serverId);
  useEffect(() => {
    read(resource.uri);
  }, [read, resource.uri]);
  return (
    <div className="panel resource-detail" data-testid="resource-detail">
      <div className="detail-head">
        <h2>{resource.title ?? resource.name}</h2>
        <span className="badge subtle">{serverId}</span>
        {resource.mimeType && <span className="badge subtle">{resource.mimeType}</span>}
        {resource.size !== undefined && <span className="muted">{formatBytes(resource.size)}</span>}
      </div>
      <code className="uri">{resource.uri}</code>
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
