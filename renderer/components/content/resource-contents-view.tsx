import type { ResourceContents } from '../../../shared/domain/mcp-types.js';
import { base64Bytes, decodeTextBlob, formatBytes, mediaDataUrl } from './data-url.js';

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
  if (typeof contents.text === 'string')
    return (
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- it scrolls: the keyboard must reach it
      <pre className="content-text" tabIndex={0}>
        {contents.text}
      </pre>
    );
  if (typeof contents.blob === 'string') {
    const image = mediaDataUrl('image', contents.mimeType, contents.blob);
    if (image) return <img className="content-image" src={image} alt={contents.uri} />;
    const audio = mediaDataUrl('audio', contents.mimeType, contents.blob);
    // eslint-disable-next-line jsx-a11y/media-has-caption -- an MCP resource blob carries no caption track to offer
    if (audio) return <audio className="content-audio" controls src={audio} />;
    const size = `${formatBytes(base64Bytes(contents.blob))}${contents.mimeType ? ` (${contents.mimeType})` : ''}`;
    const text = decodeTextBlob(contents.mimeType, contents.blob);
    if (text !== null) {
      return (
        <>
          {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- it scrolls: the keyboard must reach it */}
          <pre className="content-text" tabIndex={0}>
            {text}
          </pre>
          <span className="muted small-print">base64 blob, {size}, shown as text</span>
        </>
      );
    }
    return <p className="muted">binary, {size}</p>;
  }
  return <p className="muted">empty</p>;
}
