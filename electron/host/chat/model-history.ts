import type { ChatFile, ChatMessage, ToolCallRecord } from '../../../shared/domain/chat.js';
import { chatFileKind, formatBytes } from '../../../shared/domain/chat-files.js';
import type { CallToolResult } from '../../../shared/domain/mcp-types.js';
import type { ModelMessage, ModelPart } from './provider.js';

/**
 * Turn a stored conversation into the provider-neutral history. Each assistant message is
 * one model turn; its tool calls are answered by one user turn of function responses, as
 * every provider requires. Thinking is shown to people, never sent back. `files` holds the
 * bytes of the attached files (by id); one missing from it is named as gone.
 */
export function toModelHistory(
  messages: ChatMessage[],
  files: ReadonlyMap<string, Buffer> = new Map(),
): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const m of messages) {
    if (m.role === 'user') {
      const parts: ModelPart[] = [];
      // The model must not take a view's words for the person's (a view is the server's code).
      if (m.origin?.kind === 'app')
        parts.push({
          type: 'text',
          text: `[This message was sent by the interactive view of the tool "${m.origin.tool}" (MCP server "${m.origin.serverId}"), not typed by the user.]`,
        });
      for (const p of m.parts) {
        if (p.type === 'text' && p.text) parts.push({ type: 'text', text: p.text });
        if (p.type === 'attachment') {
          const a = p.attachment;
          parts.push({
            type: 'text',
            text: `Attached resource "${a.name}" (${a.uri}) from MCP server "${a.serverId}":\n${a.text ?? '[binary content not included]'}`,
          });
        }
        if (p.type === 'file') parts.push(...fileParts(p.file, files.get(p.file.id)));
      }
      if (parts.length) out.push({ role: 'user', parts });
      continue;
    }
    const parts: ModelPart[] = [];
    const calls: ToolCallRecord[] = [];
    for (const p of m.parts) {
      if (p.type === 'text' && p.text) parts.push({ type: 'text', text: p.text });
      if (p.type === 'tool_call') {
        calls.push(p.call);
        parts.push({
          type: 'function_call',
          id: p.call.id,
          name: p.call.modelName,
          args: p.call.args,
          ...(p.call.signature ? { signature: p.call.signature } : {}),
        });
      }
    }
    if (!parts.length) continue;
    out.push({ role: 'model', parts });
    if (calls.length) out.push({ role: 'user', parts: calls.map(functionResponse) });
  }
  return out;
}

/** The ids of every file the messages hold, once each (what the run must read before its first turn). */
export function fileIdsOf(messages: readonly ChatMessage[]): string[] {
  const ids = new Set<string>();
  for (const m of messages) for (const p of m.parts) if (p.type === 'file') ids.add(p.file.id);
  return [...ids];
}

/** A file as the model gets it: a line naming it, then its bytes as an image or a document. */
function fileParts(file: ChatFile, bytes: Buffer | undefined): ModelPart[] {
  const label = `Attached file "${file.name}" (${file.mimeType}, ${formatBytes(file.size)}):`;
  if (!bytes) return [{ type: 'text', text: `${label} [no longer stored, so not included]` }];
  const data = bytes.toString('base64');
  return [
    { type: 'text', text: label },
    chatFileKind(file.mimeType) === 'image'
      ? { type: 'image', mimeType: file.mimeType, data }
      : { type: 'file', name: file.name, mimeType: file.mimeType, data },
  ];
}

/**
 * Add what open app views last reported (`ui/update-model-context`) to the run's newest user
 * turn, before the person's words: the model reads the views' current state with the question
 * it answers. Nothing is stored: the next run adds the views' state as it is then.
 */
export function addViewContext(history: ModelMessage[], notes: readonly string[]): ModelMessage[] {
  if (!notes.length) return history;
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i];
    if (m.role !== 'user' || m.parts.some((p) => p.type === 'function_response')) continue;
    history[i] = {
      role: 'user',
      parts: [...notes.map((text) => ({ type: 'text' as const, text })), ...m.parts],
    };
    return history;
  }
  return history;
}

/** What the model is told about one finished (or refused) tool call. */
export function functionResponse(call: ToolCallRecord): ModelPart {
  const base = { type: 'function_response' as const, id: call.id, name: call.modelName };
  switch (call.status) {
    case 'done':
      return { ...base, output: call.result ? resultForModel(call.result) : {}, isError: false };
    case 'error':
      return {
        ...base,
        output: { error: call.result ? resultText(call.result) : (call.error?.message ?? 'the tool failed') },
        isError: true,
      };
    case 'denied':
      return {
        ...base,
        output: {
          error: 'The user denied this tool call. Do not retry it; continue without it or ask the user.',
        },
        isError: true,
      };
    default:
      return {
        ...base,
        output: {
          error:
            call.approval === undefined && call.host === undefined
              ? 'The tool call was cancelled before it was approved; it did not run.'
              : 'The tool call was cancelled before it finished.',
        },
        isError: true,
      };
  }
}

/** A tool result as the model sees it: its text, structured content, and notes for media. */
export function resultForModel(result: CallToolResult): Record<string, unknown> {
  const out: Record<string, unknown> = { content: resultText(result) };
  if (result.structuredContent) out.structuredContent = result.structuredContent;
  return out;
}

function resultText(result: CallToolResult): string {
  return result.content
    .map((b) => {
      switch (b.type) {
        case 'text':
          return b.text;
        case 'image':
        case 'audio':
          return `[${b.type} ${b.mimeType} shown to the user]`;
        case 'resource':
          return b.resource.text ?? `[resource ${b.resource.uri}]`;
        case 'resource_link':
          return `[resource link "${b.name}": ${b.uri}]`;
      }
    })
    .join('\n');
}
