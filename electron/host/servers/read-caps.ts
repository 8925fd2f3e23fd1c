import type {
  ContentBlock,
  GetPromptResult,
  PromptMessage,
  ReadResourceResult,
  ResourceContents,
} from '../../../shared/domain/mcp-types.js';
import { formatCount, LIMITS } from '../util/limits.js';
import { clipBytes, TRUNCATED_META_KEY } from './result-caps.js';

/** What a read or prompt cap cut: totals as the server sent them. */
export interface ReadTruncation {
  textBytes: number;
  binaryBytes: number;
  items: number;
}

/** Running budgets over one result's items. */
class Budget {
  textLeft: number;
  binaryLeft: number;
  textBytes = 0;
  binaryBytes = 0;
  cut = false;

  constructor(text: number, binary: number) {
    this.textLeft = text;
    this.binaryLeft = binary;
  }

  /** How much of a text fits: all of it, a prefix, or nothing. */
  text(text: string): string | undefined {
    const size = Buffer.byteLength(text, 'utf8');
    this.textBytes += size;
    if (size <= this.textLeft) {
      this.textLeft -= size;
      return text;
    }
    this.cut = true;
    const kept = this.textLeft > 0 ? clipBytes(text, this.textLeft) : undefined;
    this.textLeft = 0;
    return kept;
  }

  /** Whether a base64 payload fits. */
  binary(data: string): boolean {
    this.binaryBytes += data.length;
    if (data.length <= this.binaryLeft) {
      this.binaryLeft -= data.length;
      return true;
    }
    this.cut = true;
    return false;
  }
}

/**
 * A resources/read result as the UI, an App view and the model get it: at most
 * LIMITS.resourceContents contents, LIMITS.resourceTextBytes of text and
 * LIMITS.resourceBinaryBytes of base64. A text over the budget is clipped and says so at its end;
 * a blob over it is replaced by a text content on the same URI saying what was dropped; the
 * result carries `_meta["mcp-desk/truncated"]`. A result within every cap is returned untouched.
 */
export function capResourceResult(result: ReadResourceResult): ReadResourceResult {
  const contents = Array.isArray(result.contents) ? result.contents : [];
  const budget = new Budget(LIMITS.resourceTextBytes, LIMITS.resourceBinaryBytes);
  budget.cut = contents.length > LIMITS.resourceContents;
  const kept: ResourceContents[] = [];
  for (const item of contents.slice(0, LIMITS.resourceContents)) {
    if (typeof item.text === 'string') {
      const text = budget.text(item.text);
      if (text === item.text) kept.push(item);
      else if (text !== undefined) kept.push({ ...item, text });
    } else if (typeof item.blob === 'string') {
      if (budget.binary(item.blob)) kept.push(item);
      else
        kept.push({
          uri: item.uri,
          mimeType: 'text/plain',
          text: `[dropped by MCP Desk: ${formatCount(item.blob.length, 'bytes')} of base64 data${item.mimeType ? ` (${item.mimeType})` : ''}, over the ${formatCount(LIMITS.resourceBinaryBytes, 'bytes')} limit of one read]`,
        });
    } else kept.push(item);
  }
  if (!budget.cut) return result;
  const truncation = { textBytes: budget.textBytes, binaryBytes: budget.binaryBytes, items: contents.length };
  const note = `[truncated by MCP Desk: the resource returned ${formatCount(truncation.items, 'contents')} (limit ${formatCount(LIMITS.resourceContents, 'contents')}) and ${formatCount(truncation.textBytes, 'bytes')} of text (limit ${formatCount(LIMITS.resourceTextBytes, 'bytes')}); only what fits is shown]`;
  // Said where a person and the model read: at the end of the last text that was kept.
  const last = kept.findLastIndex((c) => typeof c.text === 'string');
  if (last >= 0) kept[last] = { ...kept[last], text: `${kept[last].text}\n\n${note}` };
  else kept.push({ uri: contents[0]?.uri ?? '', mimeType: 'text/plain', text: note });
  return { ...result, contents: kept, _meta: { ...result._meta, [TRUNCATED_META_KEY]: truncation } };
}

/**
 * A prompts/get result as the model and the UI get it, capped like a tool result: at most
 * LIMITS.promptMessages messages, LIMITS.promptTextBytes of text and LIMITS.promptBinaryBytes
 * of base64 over all of them. What is cut is said in a closing user message and in
 * `_meta["mcp-desk/truncated"]`; a result within every cap is returned untouched.
 */
export function capPromptResult(result: GetPromptResult): GetPromptResult {
  const messages = Array.isArray(result.messages) ? result.messages : [];
  const budget = new Budget(LIMITS.promptTextBytes, LIMITS.promptBinaryBytes);
  budget.cut = messages.length > LIMITS.promptMessages;
  const kept: PromptMessage[] = [];
  for (const message of messages.slice(0, LIMITS.promptMessages)) {
    const content = capBlock(message.content, budget);
    if (content === message.content) kept.push(message);
    else if (content) kept.push({ ...message, content });
  }
  if (!budget.cut) return result;
  const truncation = { textBytes: budget.textBytes, binaryBytes: budget.binaryBytes, items: messages.length };
  const parts = [
    `${formatCount(truncation.items, 'messages')} (limit ${formatCount(LIMITS.promptMessages, 'messages')})`,
    `${formatCount(truncation.textBytes, 'bytes')} of text (limit ${formatCount(LIMITS.promptTextBytes, 'bytes')})`,
  ];
  if (truncation.binaryBytes > 0)
    parts.push(
      `${formatCount(truncation.binaryBytes, 'bytes')} of binary data (limit ${formatCount(LIMITS.promptBinaryBytes, 'bytes')})`,
    );
  kept.push({
    role: 'user',
    content: {
      type: 'text',
      text: `[truncated by MCP Desk: the prompt returned ${parts.join(', ')}; only what fits is shown]`,
    },
  });
  return { ...result, messages: kept, _meta: { ...result._meta, [TRUNCATED_META_KEY]: truncation } };
}

/** One message's content within the budget: itself, a clipped copy, or undefined (dropped). */
function capBlock(block: ContentBlock, budget: Budget): ContentBlock | undefined {
  if (block.type === 'text') {
    const text = budget.text(typeof block.text === 'string' ? block.text : '');
    return text === block.text ? block : text === undefined ? undefined : { ...block, text };
  }
  if (block.type === 'image' || block.type === 'audio')
    return budget.binary(typeof block.data === 'string' ? block.data : '') ? block : undefined;
  if (block.type === 'resource') {
    const r = block.resource;
    if (typeof r.text === 'string') {
      const text = budget.text(r.text);
      return text === r.text
        ? block
        : text === undefined
          ? undefined
          : { ...block, resource: { ...r, text } };
    }
    if (typeof r.blob === 'string') return budget.binary(r.blob) ? block : undefined;
  }
  return block;
}
