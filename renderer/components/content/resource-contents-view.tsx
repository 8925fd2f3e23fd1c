import type { ResourceContents } from '../../../shared/domain/mcp-types.js';
import { base64Bytes, formatBytes, mediaDataUrl } from './data-url.js';

/** One resource body: text as text, images and audio inline, other blobs as a summary. */
export function ResourceContentsView({ contents }: { contents: ResourceContents }) {
  return (
    <div className="resource-contents" data-testid="resource-contents">
      <div className="resource-contents-head">
        <code className="uri">{contents.uri}</code>
        {contents.mimeType && <span className="muted">{contents.mimeType}</span>}
      </div>
      <ResourceBody contents={contents} />
    </div>
  );
}

function ResourceBody({ contents }: { contents: ResourceContents }) {
  if (typeof contents.text === 'string') return <pre className="content-text">{contents.text}</pre>;
  if (typeof contents.blob === 'string') {
    const image = mediaDataUrl('image', contents.mimeType, contents.blob);
    if (image) return <img className="content-image" src={image} alt={contents.uri} />;
    const audio = mediaDataUrl('audio', contents.mimeType, contents.blob);
    if (audio) return <audio className="content-audio" controls src={audio} />;
    return (
      <p className="muted">
        binary, {formatBytes(base64Bytes(contents.blob))}
        {contents.mimeType ? ` (${contents.mimeType})` : ''}
      </p>
    );
  }
  return <p className="muted">empty</p>;
}
