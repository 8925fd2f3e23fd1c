import { randomUUID } from 'node:crypto';
import type { Attachment, ChatFile, ChatMessage, MessageOrigin } from '../../../shared/domain/chat.js';
import type { McpHost } from '../mcp-host.js';
import { HostFailure } from '../util/errors.js';

/** The most text one attached resource adds to a prompt. */
const MAX_ATTACHMENT_CHARS = 200_000;

/** Throws `empty_message` for a turn with neither text nor attachments. */
export function assertSomethingToSend(text: string, attachmentCount: number): void {
  if (!text.trim() && attachmentCount === 0) throw new HostFailure('empty_message', 'type a message first');
}

/** A new user turn: its text (when there is any), its resources, then its files. */
export function userMessage(
  text: string,
  attachments: readonly Attachment[],
  origin?: MessageOrigin,
  files: readonly ChatFile[] = [],
): ChatMessage {
  if (!text.trim() && attachments.length === 0 && files.length === 0)
    throw new HostFailure('empty_message', 'type a message first');
  return {
    id: randomUUID(),
    role: 'user',
    createdAt: Date.now(),
    ...(origin ? { origin } : {}),
    parts: [
      ...(text.trim() ? [{ type: 'text' as const, text }] : []),
      ...attachments.map((attachment) => ({ type: 'attachment' as const, attachment })),
      ...files.map((file) => ({ type: 'file' as const, file })),
    ],
  };
}

/** `old` with its text replaced (its attachments and files stay), under the same id. */
export function editedUserMessage(old: ChatMessage | undefined, text: string): ChatMessage {
  if (!old || old.role !== 'user')
    throw new HostFailure(
      'message_not_found',
      'only a message you wrote can be edited, and this one is gone',
    );
  const attachments = old.parts.filter((p) => p.type === 'attachment' || p.type === 'file');
  if (!text.trim() && attachments.length === 0)
    throw new HostFailure('empty_message', 'type a message first');
  return {
    id: old.id,
    role: 'user',
    createdAt: Date.now(),
    parts: [...(text.trim() ? [{ type: 'text' as const, text }] : []), ...attachments],
  };
}

/** The index of the user turn `messageId` is or answers; throws `message_not_found`. */
export function userTurnOf(messages: readonly ChatMessage[], messageId: string): number {
  const at = messages.findIndex((m) => m.id === messageId);
  for (let i = at; i >= 0; i--) if (messages[i].role === 'user') return i;
  throw new HostFailure('message_not_found', 'that message is no longer in this conversation');
}

/** A conversation's title from its first message: the first line, at most 60 characters. */
export function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0];
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}

/** A server's resource, read as text to ride along with a user turn (binary parts are named, not included). */
export async function readAttachment(host: McpHost, serverId: string, uri: string): Promise<Attachment> {
  const resource = host
    .catalog()
    .resources.find((r) => r.serverId === serverId && r.resource.uri === uri)?.resource;
  // host.readResource refuses file:// URIs outside the shared folders ('outside_roots'), so a
  // file the person did not share never becomes part of a prompt.
  const result = await host.readResource(serverId, uri);
  const texts = result.contents.map(
    (c) => c.text ?? `[binary ${c.mimeType ?? 'data'}, ${c.blob?.length ?? 0} base64 chars, not included]`,
  );
  return {
    serverId,
    uri,
    name: resource?.name ?? uri,
    ...(resource?.mimeType ? { mimeType: resource.mimeType } : {}),
    text: texts.join('\n').slice(0, MAX_ATTACHMENT_CHARS),
  };
}

/** Our framing, the person's own instructions (the chat's or the settings'), and each connected server's. */
export function systemPrompt(host: McpHost, userPrompt = ''): string {
  const lines = [
    'You are the assistant in MCP Desk, a desktop app that connects you to MCP servers the user chose.',
    "Use the offered tools when they help; every tool call may need the user's approval, and a denied call must not be retried.",
  ];
  if (userPrompt.trim()) lines.push(`The user's instructions for this chat:\n${userPrompt.trim()}`);
  for (const s of host.list()) {
    if (s.state.kind === 'connected' && s.state.info.instructions) {
      lines.push(`Instructions from MCP server "${s.id}":\n${s.state.info.instructions.slice(0, 4000)}`);
    }
  }
  return lines.join('\n\n');
}
