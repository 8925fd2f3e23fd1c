import type { ContentAnnotations, ContentBlock } from '../../../shared/domain/mcp-types.js';
import { JsonView } from './json-view.js';
import { mediaDataUrl } from './data-url.js';
import { ResourceContentsView } from './resource-contents-view.js';
import { ResourceLinkView } from './resource-link-view.js';

/**
 * MCP content blocks as React elements. Everything a server sent is shown as text or
 * as checked data: URLs, never as HTML, so a tool cannot inject markup or script.
 * `serverId` lets resource links be read from the server that produced them.
 */
export function ContentBlocks({ blocks, serverId }: { blocks: ContentBlock[]; serverId: string | null }) {
  if (!blocks.length) return <p className="muted">no content</p>;
  return (
    <div className="content-blocks">
      {blocks.map((block, i) => (
        <div key={i} className={`content-block block-${block.type}`}>
          <ContentBlockView block={block} serverId={serverId} />
          <AnnotationsLine annotations={block.annotations} />
        </div>
      ))}
    </div>
  );
}

/** One content block, dispatched on its type; unknown types fall back to JSON. */
export function ContentBlockView({ block, serverId }: { block: ContentBlock; serverId: string | null }) {
  switch (block.type) {
    case 'text':
      return (
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- it scrolls: the keyboard must reach it
        <pre className="content-text" tabIndex={0} data-testid="content-text">
          {block.text}
        </pre>
      );
    case 'image': {
      const src = mediaDataUrl('image', block.mimeType, block.data);
      return src ? (
        <img className="content-image" src={src} alt="from the server" data-testid="content-image" />
      ) : (
        <p className="muted">image with unsupported type {block.mimeType}</p>
      );
    }
    case 'audio': {
      const src = mediaDataUrl('audio', block.mimeType, block.data);
      return src ? (
        // eslint-disable-next-line jsx-a11y/media-has-caption -- MCP audio content carries no caption track to offer
        <audio className="content-audio" controls src={src} data-testid="content-audio" />
      ) : (
        <p className="muted">audio with unsupported type {block.mimeType}</p>
      );
    }
    case 'resource':
      return <ResourceContentsView contents={block.resource} />;
    case 'resource_link':
      return <ResourceLinkView link={block} serverId={serverId} />;
    default:
      // A block type newer than this UI: show it rather than drop it.
      return <JsonView value={block} />;
  }
}

/** Who a block is meant for and how much it matters, when the server says so. */
function AnnotationsLine({ annotations }: { annotations: ContentAnnotations | undefined }) {
  if (!annotations) return null;
  const parts: string[] = [];
  if (annotations.audience?.length) parts.push(`for ${annotations.audience.join(' and ')}`);
  if (typeof annotations.priority === 'number') parts.push(`priority ${annotations.priority}`);
  if (annotations.lastModified) parts.push(`modified ${annotations.lastModified}`);
  return parts.length ? <div className="annotations muted">{parts.join(' · ')}</div> : null;
}
