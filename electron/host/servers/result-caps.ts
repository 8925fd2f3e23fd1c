import type { CallToolResult, ContentBlock } from '../../../shared/domain/mcp-types.js';
import { formatCount, LIMITS } from '../util/limits.js';

/** The `_meta` key of a result MCP Desk cut, with what was cut (for the UI to badge it). */
export const TRUNCATED_META_KEY = 'mcp-desk/truncated';

/** What capToolResult cut from one result. */
export interface Truncation {
  textBytes: number;
  binaryBytes: number;
  items: number;
  structuredDropped: boolean;
}

/**
 * A tool result as the model and the UI get it: at most LIMITS.resultItems content blocks,
 * LIMITS.resultTextBytes of text and LIMITS.resultBinaryBytes of base64 data, and no
 * structuredContent over LIMITS.resultStructuredBytes. Anything cut is said in a closing text
 * block (the model reads it as the person does) and in `_meta["mcp-desk/truncated"]`. A result
 * within every cap is returned as it is, untouched.
 */
export function capToolResult(result: CallToolResult): CallToolResult {
  const content = Array.isArray(result.content) ? result.content : [];
  let textLeft = LIMITS.resultTextBytes;
  let binaryLeft = LIMITS.resultBinaryBytes;
  let textBytes = 0;
  let binaryBytes = 0;
  let cut = content.length > LIMITS.resultItems;
  const kept: ContentBlock[] = [];
  for (const block of content.slice(0, LIMITS.resultItems)) {
    const text = textOf(block);
    const data = dataOf(block);
    if (text !== undefined) {
      const size = Buffer.byteLength(text, 'utf8');
      textBytes += size;
      if (size <= textLeft) {
        textLeft -= size;
        kept.push(block);
      } else {
        cut = true;
        if (textLeft > 0) kept.push(withText(block, clipBytes(text, textLeft)));
        textLeft = 0;
      }
    } else if (data !== undefined) {
      binaryBytes += data.length;
      if (data.length <= binaryLeft) {
        binaryLeft -= data.length;
        kept.push(block);
      } else cut = true;
    } else kept.push(block);
  }
  let structuredDropped = false;
  if (result.structuredContent !== undefined) {
    const json = JSON.stringify(result.structuredContent);
    structuredDropped = json.length > LIMITS.resultStructuredBytes;
  }
  if (!cut && !structuredDropped) return result;

  const truncation: Truncation = { textBytes, binaryBytes, items: content.length, structuredDropped };
  kept.push({ type: 'text', text: truncationNote(truncation) });
  const { structuredContent, ...rest } = result;
  return {
    ...rest,
    ...(structuredContent !== undefined && !structuredDropped ? { structuredContent } : {}),
    content: kept,
    _meta: { ...result._meta, [TRUNCATED_META_KEY]: truncation },
  };
}

/** The closing note of a truncated result, in words. */
function truncationNote(t: Truncation): string {
  const parts = [
    `${formatCount(t.items, 'content items')} (limit ${formatCount(LIMITS.resultItems, 'items')})`,
    `${formatCount(t.textBytes, 'bytes')} of text (limit ${formatCount(LIMITS.resultTextBytes, 'bytes')})`,
  ];
  if (t.binaryBytes > 0)
    parts.push(
      `${formatCount(t.binaryBytes, 'bytes')} of binary data (limit ${formatCount(LIMITS.resultBinaryBytes, 'bytes')})`,
    );
  if (t.structuredDropped)
    parts.push(`structured content over ${formatCount(LIMITS.resultStructuredBytes, 'bytes')} (dropped)`);
  return `[truncated by MCP Desk: the tool returned ${parts.join(', ')}; only what fits is shown]`;
}

function textOf(block: ContentBlock): string | undefined {
  if (block.type === 'text') return typeof block.text === 'string' ? block.text : '';
  if (block.type === 'resource' && typeof block.resource?.text === 'string') return block.resource.text;
  return undefined;
}

function dataOf(block: ContentBlock): string | undefined {
  if (block.type === 'image' || block.type === 'audio')
    return typeof block.data === 'string' ? block.data : '';
  if (block.type === 'resource' && typeof block.resource?.blob === 'string') return block.resource.blob;
  return undefined;
}

function withText(block: ContentBlock, text: string): ContentBlock {
  if (block.type === 'resource') return { ...block, resource: { ...block.resource, text } };
  return { type: 'text', text, ...(block.annotations ? { annotations: block.annotations } : {}) };
}

/** The longest prefix of `text` within `bytes` UTF-8 bytes, never splitting a character. */
export function clipBytes(text: string, bytes: number): string {
  const clipped = Buffer.from(text.slice(0, bytes), 'utf8').subarray(0, bytes).toString('utf8');
  return clipped.replace(/\uFFFD+$/, '');
}
