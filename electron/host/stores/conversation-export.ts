import type {
  Attachment,
  ChatMessage,
  ChatPart,
  Conversation,
  ToolCallRecord,
} from '../../../shared/domain/chat.js';
import type { ContentBlock } from '../../../shared/domain/mcp-types.js';

/** A conversation as pretty JSON, the same shape the store writes (re-importable). */
export function exportJson(conversation: Conversation): string {
  return `${JSON.stringify(conversation, null, 2)}\n`;
}

/**
 * A conversation as Markdown a person can read anywhere: one heading per message, thinking
 * as a blockquote, each tool call as a fenced JSON block with its result or error, and
 * attachments as a list. The model's own text is Markdown already and goes in as written;
 * tool output and short labels are fenced or escaped so they cannot turn into markup, and
 * the export adds no HTML of its own (`<details>` is not rendered everywhere).
 */
export function exportMarkdown(conversation: Conversation): string {
  const out: string[] = [`# ${oneLine(conversation.title) || 'Untitled chat'}`, ''];
  out.push(`_Created ${when(conversation.createdAt)}, last updated ${when(conversation.updatedAt)}._`, '');
  for (const message of conversation.messages) out.push(...renderMessage(message));
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

function renderMessage(message: ChatMessage): string[] {
  const who = message.role === 'user' ? 'User' : 'Assistant';
  const model = message.role === 'assistant' && message.model ? ` (${oneLine(message.model)})` : '';
  const lines = [`## ${who}${model}`, '', `_${when(message.createdAt)}_`, ''];
  const attachments: Attachment[] = [];
  for (const part of message.parts) {
    if (part.type === 'attachment') attachments.push(part.attachment);
    else lines.push(...renderPart(part), '');
  }
  if (attachments.length) {
    lines.push('**Attachments**', '');
    for (const a of attachments)
      lines.push(
        `- ${inline(a.name)} — \`${code(a.uri)}\` from server \`${code(a.serverId)}\`${a.mimeType ? ` (${inline(a.mimeType)})` : ''}`,
      );
    lines.push('');
  }
  if (message.error)
    lines.push(`> **Error** (${inline(message.error.code)}): ${inline(message.error.message)}`, '');
  return lines;
}

function renderPart(part: Exclude<ChatPart, { type: 'attachment' }>): string[] {
  switch (part.type) {
    case 'text':
      return [part.text];
    case 'thinking':
      return ['> **Thinking**', '>', ...part.text.split('\n').map((l) => (l ? `> ${l}` : '>'))];
    case 'tool_call':
      return renderToolCall(part.call);
    case 'file':
      return [
        `**Attached file** ${inline(part.file.name)} (${inline(part.file.mimeType)}, ${part.file.size} bytes)`,
      ];
    default:
      return unknownContent(part);
  }
}

function renderToolCall(call: ToolCallRecord): string[] {
  const head = {
    server: call.serverId,
    tool: call.tool,
    args: call.args,
    status: call.status,
    ...(call.approval ? { approval: call.approval } : {}),
  };
  const lines = [
    `**Tool call** \`${code(call.serverId)}\` / \`${code(call.tool)}\``,
    '',
    ...fenced(JSON.stringify(head, null, 2), 'json'),
  ];
  if (call.error) {
    lines.push('', `**Error** (${inline(call.error.code)}): ${inline(call.error.message)}`);
  } else if (call.result) {
    const text = call.result.content.map(describeBlock).join('\n\n');
    const body =
      text ||
      (call.result.structuredContent
        ? JSON.stringify(call.result.structuredContent, null, 2)
        : '(no content)');
    lines.push(
      '',
      call.result.isError ? '**Result (the tool reported an error)**' : '**Result**',
      '',
      ...fenced(body, ''),
    );
  } else if (call.status !== 'done') {
    lines.push('', `_No result (${call.status})._`);
  }
  return lines;
}

/** Text stays text; binary content is named, not dumped as base64. */
function describeBlock(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
      return `[image: ${block.mimeType}]`;
    case 'audio':
      return `[audio: ${block.mimeType}]`;
    case 'resource': {
      const r = block.resource;
      return 'text' in r && typeof r.text === 'string'
        ? r.text
        : `[resource ${r.uri}${r.mimeType ? ` (${r.mimeType})` : ''}]`;
    }
    case 'resource_link':
      return `[link: ${block.name} ${block.uri}]`;
    default:
      return unknownContent(block).join('\n');
  }
}

/** A code fence longer than any backtick run inside, so tool output cannot close it early. */
function fenced(text: string, lang: string): string[] {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [`${fence}${lang}`, text, fence];
}

function when(ms: number): string {
  return Number.isFinite(ms)
    ? new Date(ms)
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, ' UTC')
    : 'unknown time';
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Short untrusted text on one line with HTML and emphasis characters neutralised. */
function inline(text: string): string {
  return oneLine(text).replace(/[\\`*_<>[\]]/g, (c) => `\\${c}`);
}

/** Text inside a single-backtick code span cannot contain a backtick. */
function code(text: string): string {
  return oneLine(text).replace(/`/g, "'");
}

/** A part or block type this version does not know (a newer app wrote it): shown, not dropped. */
function unknownContent(value: never): string[] {
  return fenced(JSON.stringify(value, null, 2), 'json');
}
