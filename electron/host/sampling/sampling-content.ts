import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import type { SamplingContentView, SamplingMessageView } from '../../../shared/domain/pending.js';
import type { ModelMessage, ModelPart } from '../chat/provider.js';

/**
 * Translation between a sampling request's messages (MCP SamplingMessage), what the review
 * panel shows (SamplingMessageView) and what a provider takes (ModelMessage). The request is
 * untrusted input: every block is checked here, and anything malformed is refused to the
 * server as InvalidParams rather than passed on.
 */

/** One content block of a sampling message, as this host understands it. */
export type SamplingBlock =
  | { type: 'text'; text: string }
  | { type: 'image' | 'audio'; data: string; mimeType: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | {
      type: 'tool_result';
      toolUseId: string;
      content: unknown[];
      structuredContent?: unknown;
      isError?: boolean;
    };

/** A checked sampling message. */
export interface SamplingMessageIn {
  role: 'user' | 'assistant';
  blocks: SamplingBlock[];
}

const MAX_MESSAGES = 200;

/** Check the request's messages; throws InvalidParams naming the first problem. */
export function parseMessages(raw: unknown): SamplingMessageIn[] {
  if (!Array.isArray(raw) || raw.length === 0) throw invalid('sampling "messages" must be a non-empty list');
  if (raw.length > MAX_MESSAGES)
    throw invalid(`too many sampling messages (${raw.length}, at most ${MAX_MESSAGES})`);
  const messages = raw.map((m, i): SamplingMessageIn => {
    if (!isRecord(m) || (m.role !== 'user' && m.role !== 'assistant'))
      throw invalid(`messages[${i}] needs role "user" or "assistant"`);
    const content = Array.isArray(m.content) ? m.content : [m.content];
    return { role: m.role, blocks: content.map((b, j) => parseBlock(b, `messages[${i}].content[${j}]`)) };
  });
  checkToolPairing(messages);
  return messages;
}

function parseBlock(b: unknown, where: string): SamplingBlock {
  if (!isRecord(b)) throw invalid(`${where} is not an object`);
  switch (b.type) {
    case 'text':
      if (typeof b.text !== 'string') throw invalid(`${where}.text must be a string`);
      return { type: 'text', text: b.text };
    case 'image':
    case 'audio':
      if (typeof b.data !== 'string' || typeof b.mimeType !== 'string')
        throw invalid(`${where} needs data and mimeType strings`);
      return { type: b.type, data: b.data, mimeType: b.mimeType };
    case 'tool_use':
      if (typeof b.id !== 'string' || typeof b.name !== 'string')
        throw invalid(`${where} needs id and name strings`);
      return { type: 'tool_use', id: b.id, name: b.name, input: isRecord(b.input) ? b.input : {} };
    case 'tool_result':
      if (typeof b.toolUseId !== 'string') throw invalid(`${where}.toolUseId must be a string`);
      return {
        type: 'tool_result',
        toolUseId: b.toolUseId,
        content: Array.isArray(b.content) ? b.content : [],
        ...(b.structuredContent !== undefined ? { structuredContent: b.structuredContent } : {}),
        ...(b.isError === true ? { isError: true } : {}),
      };
    default:
      throw invalid(`${where} has unsupported type ${JSON.stringify(String(b.type).slice(0, 40))}`);
  }
}

/**
 * The spec's rules for tool loops: a user message carrying tool results carries nothing else,
 * and every tool_use of an assistant turn is answered by a tool_result in the next message.
 */
function checkToolPairing(messages: SamplingMessageIn[]): void {
  messages.forEach((m, i) => {
    const results = m.blocks.filter((b) => b.type === 'tool_result');
    if (results.length && results.length !== m.blocks.length)
      throw invalid('Tool results mixed with other content');
    const uses = m.blocks.filter(
      (b): b is Extract<SamplingBlock, { type: 'tool_use' }> => b.type === 'tool_use',
    );
    if (!uses.length) return;
    const next = messages[i + 1];
    // The last assistant turn may end the conversation only if nothing follows it.
    if (!next) return;
    const answered = new Set(next.blocks.flatMap((b) => (b.type === 'tool_result' ? [b.toolUseId] : [])));
    if (uses.some((u) => !answered.has(u.id))) throw invalid('Tool result missing in request');
  });
}

/** What the review panel shows: tool traffic summarised, media kept for preview. */
export function toViews(messages: readonly SamplingMessageIn[]): SamplingMessageView[] {
  return messages.map((m) => ({ role: m.role, content: m.blocks.map(toView) }));
}

function toView(b: SamplingBlock): SamplingContentView {
  switch (b.type) {
    case 'text':
      return { type: 'text', text: b.text };
    case 'image':
    case 'audio':
      return { type: b.type, data: b.data, mimeType: b.mimeType };
    case 'tool_use':
      return { type: 'other', summary: `tool call ${b.name} ${clip(JSON.stringify(b.input))}` };
    case 'tool_result':
      return {
        type: 'other',
        summary: `tool result for ${b.toolUseId}${b.isError ? ' (error)' : ''}: ${clip(resultText(b))}`,
      };
  }
}

/**
 * Apply a person's edits. Text, images and audio come from the edited views; an `other`
 * item cannot be edited (it stands for tool traffic the view only summarises), so it keeps
 * the server's block at the same position, and is dropped if that position holds none.
 */
export function applyEdits(
  original: readonly SamplingMessageIn[],
  edited: readonly SamplingMessageView[],
): SamplingMessageIn[] {
  const out = edited.map((m, i): SamplingMessageIn => ({
    role: m.role === 'assistant' ? 'assistant' : 'user',
    blocks: m.content.flatMap((c, j): SamplingBlock[] => {
      if (c.type === 'text') return [{ type: 'text', text: String(c.text) }];
      if (c.type === 'image' || c.type === 'audio')
        return [{ type: c.type, data: c.data, mimeType: c.mimeType }];
      const kept = original[i]?.blocks[j];
      return kept && (kept.type === 'tool_use' || kept.type === 'tool_result') ? [kept] : [];
    }),
  }));
  const nonEmpty = out.filter((m) => m.blocks.length);
  if (!nonEmpty.length) throw invalid('the edited request has no content left');
  return nonEmpty;
}

/** The messages as a provider history; tool_use/tool_result become function call/response parts. */
export function toModelMessages(messages: readonly SamplingMessageIn[]): ModelMessage[] {
  const names = new Map<string, string>();
  for (const m of messages) for (const b of m.blocks) if (b.type === 'tool_use') names.set(b.id, b.name);
  return messages.map((m) => ({
    role: m.role === 'assistant' ? 'model' : 'user',
    parts: m.blocks.map((b): ModelPart => {
      switch (b.type) {
        case 'text':
          return { type: 'text', text: b.text };
        // Gemini takes any inline media the same way; the part type only names the shape.
        case 'image':
        case 'audio':
          return { type: 'image', mimeType: b.mimeType, data: b.data };
        case 'tool_use':
          return { type: 'function_call', id: b.id, name: b.name, args: b.input };
        case 'tool_result':
          return {
            type: 'function_response',
            id: b.toolUseId,
            name: names.get(b.toolUseId) ?? b.toolUseId,
            output: b.structuredContent ?? resultText(b),
            isError: b.isError === true,
          };
      }
    }),
  }));
}

/** The text of a tool_result's content blocks (other blocks are named, not inlined). */
function resultText(b: Extract<SamplingBlock, { type: 'tool_result' }>): string {
  return b.content
    .map((c) =>
      isRecord(c) && c.type === 'text' && typeof c.text === 'string'
        ? c.text
        : `[${isRecord(c) ? String(c.type) : 'content'}]`,
    )
    .join('\n');
}

/** Shorten long text for a one-line summary. */
export function clip(text: string, max = 300): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** A refusal of the request's shape (JSON-RPC -32602). */
export function invalid(message: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
