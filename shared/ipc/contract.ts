import { z } from 'zod';
import { AUDIT_KINDS, type AuditKind, type AuditRecord } from '../domain/audit.js';
import type { CatalogSnapshot } from '../domain/catalog.js';
import {
  MAX_SERVER_SECRET_LENGTH,
  SERVER_SECRET_NAME,
  type ServerSecretStatus,
} from '../domain/server-secrets.js';
import type {
  ChatEvent,
  ChatSettings,
  Conversation,
  ConversationSummary,
  PendingRequest,
  SecretStatus,
  ToolOffer,
} from '../domain/chat.js';
import type { CallToolResult, GetPromptResult, ReadResourceResult } from '../domain/mcp-types.js';
import { serverConfigSchema, serverNameSchema } from '../domain/server-config.js';
import { chatSettingsPatchSchema } from '../domain/chat-settings.js';
import type { SamplingConsent } from '../domain/pending.js';
import type { LogLine, ServerSummary, TraceEntry } from '../domain/server-state.js';
import type { EventName } from './event-names.js';

/**
 * The one contract between the renderer and the host. Every request channel names its
 * request schema (validated by the host on every call, whichever bridge it came through)
 * and its response type; every event channel names its payload type. The preload and the
 * WebSocket bridge both implement HostApi from this file, and nothing else crosses.
 */

/** Phantom marker carrying a TypeScript type without a runtime value. */
function typed<T>(): T {
  return undefined as unknown as T;
}

const serverId = z.string().min(1).max(64);
const empty = z.object({}).strict();
/** Tool arguments: a JSON object, whatever the tool's schema says (the server validates). */
const jsonObject = z.record(z.string(), z.unknown());
const convId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'not a conversation id');
const providerId = z.enum(['gemini', 'openai']);
const secretName = z.enum(['geminiApiKey', 'openaiApiKey']);
const serverSecretName = z
  .string()
  .regex(
    SERVER_SECRET_NAME,
    'not a secret name (a letter or "_" first, then letters, digits, "_", "." and "-", at most 90)',
  );
const pendingId = z.string().min(1).max(100);
const approvalChoice = z.enum(['once', 'chat', 'always', 'deny']);
const samplingContent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string().max(1_000_000) }).strict(),
  z.object({ type: z.literal('image'), data: z.string(), mimeType: z.string().max(100) }).strict(),
  z.object({ type: z.literal('audio'), data: z.string(), mimeType: z.string().max(100) }).strict(),
  z.object({ type: z.literal('other'), summary: z.string() }).strict(),
]);
const pendingResponse = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('tool-approval'), choice: approvalChoice }).strict(),
  z
    .object({
      kind: z.literal('sampling'),
      action: z.enum(['approve', 'deny']),
      messages: z
        .array(
          z
            .object({ role: z.enum(['user', 'assistant']), content: z.array(samplingContent).max(100) })
            .strict(),
        )
        .max(200)
        .optional(),
      systemPrompt: z.string().max(200_000).optional(),
      model: z
        .object({ provider: z.enum(['gemini', 'openai']), model: z.string().min(1).max(200) })
        .strict()
        .optional(),
      remember: z.enum(['session', 'always', 'never']).optional(),
      replyText: z.string().max(1_000_000).optional(),
      skipReplyReview: z.boolean().optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('elicitation'),
      action: z.enum(['accept', 'decline', 'cancel']),
      content: z.record(z.string(), z.unknown()).optional(),
    })
    .strict(),
]);
/** Which audit records to read (see shared/domain/audit.ts). */
const auditQuery = z
  .object({
    serverId: z.string().min(1).max(64).optional(),
    kind: z.enum(AUDIT_KINDS as [AuditKind, ...AuditKind[]]).optional(),
    from: z.number().int().min(0).optional(),
    to: z.number().int().min(0).optional(),
    limit: z.number().int().min(1).max(10_000).optional(),
  })
  .strict();
/** Ids the renderer picks for calls it may later cancel or follow. */
const callId = z.string().min(1).max(100);

export const requestChannels = {
  /** Host version, mode and where its files live. */
  'host.info': { request: empty, response: typed<HostInfo>() },

  'servers.list': { request: empty, response: typed<ServerSummary[]>() },
  'servers.add': {
    request: z.object({ name: serverNameSchema, config: serverConfigSchema }).strict(),
    response: typed<ServerSummary>(),
  },
  /** Replace a server's config; masked values sent back unchanged keep the stored value. */
  'servers.update': {
    request: z.object({ id: serverId, config: serverConfigSchema }).strict(),
    response: typed<ServerSummary>(),
  },
  'servers.remove': { request: z.object({ id: serverId }).strict(), response: typed<null>() },
  'servers.setEnabled': {
    request: z.object({ id: serverId, enabled: z.boolean() }).strict(),
    response: typed<ServerSummary>(),
  },
  'servers.restart': { request: z.object({ id: serverId }).strict(), response: typed<ServerSummary>() },
  /** Import an `mcpServers` JSON document (claude_desktop_config.json, .vscode/mcp.json). */
  'servers.import': {
    request: z.object({ json: z.string().max(2_000_000) }).strict(),
    response: typed<ImportResult>(),
  },
  'servers.log': { request: z.object({ id: serverId }).strict(), response: typed<LogLine[]>() },
  'servers.trace': { request: z.object({ id: serverId }).strict(), response: typed<TraceEntry[]>() },

  /** Sign in to a remote server in the system browser; resolves once connected (no token crosses). */
  'auth.signIn': { request: z.object({ serverId }).strict(), response: typed<null>() },
  /** Cancel a sign-in under way. */
  'auth.cancel': { request: z.object({ serverId }).strict(), response: typed<{ cancelled: boolean }>() },
  /** Forget a remote server's tokens (from the keychain) and reconnect. */
  'auth.signOut': { request: z.object({ serverId }).strict(), response: typed<null>() },

  'catalog.get': { request: empty, response: typed<CatalogSnapshot>() },

  /** Call a tool; progress arrives as `tool.progress` events carrying the same callId. */
  'tools.call': {
    request: z
      .object({
        serverId,
        tool: z.string().min(1),
        args: jsonObject,
        callId,
        timeoutMs: z.number().int().min(100).max(3_600_000).optional(),
      })
      .strict(),
    response: typed<CallToolResult>(),
  },
  /** Cancel an in-flight call; the server receives notifications/cancelled. */
  'tools.cancel': { request: z.object({ callId }).strict(), response: typed<{ cancelled: boolean }>() },

  'resources.read': {
    request: z.object({ serverId, uri: z.string().min(1).max(8192) }).strict(),
    response: typed<ReadResourceResult>(),
  },
  'prompts.get': {
    request: z.object({ serverId, name: z.string().min(1), args: z.record(z.string(), z.string()) }).strict(),
    response: typed<GetPromptResult>(),
  },
  'completion.complete': {
    request: z
      .object({
        serverId,
        ref: z.discriminatedUnion('type', [
          z.object({ type: z.literal('ref/prompt'), name: z.string().min(1) }).strict(),
          z.object({ type: z.literal('ref/resource'), uri: z.string().min(1) }).strict(),
        ]),
        argument: z.object({ name: z.string().min(1), value: z.string() }).strict(),
        context: z
          .object({ arguments: z.record(z.string(), z.string()) })
          .strict()
          .optional(),
      })
      .strict(),
    response: typed<CompletionValues>(),
  },

  /** Conversations: list, open, create, rename, delete, export. */
  'chat.list': { request: empty, response: typed<ConversationSummary[]>() },
  'chat.get': { request: z.object({ id: convId }).strict(), response: typed<Conversation>() },
  'chat.create': {
    request: z.object({ title: z.string().max(200).optional() }).strict(),
    response: typed<Conversation>(),
  },
  'chat.rename': {
    request: z.object({ id: convId, title: z.string().min(1).max(200) }).strict(),
    response: typed<ConversationSummary>(),
  },
  'chat.delete': { request: z.object({ id: convId }).strict(), response: typed<null>() },
  'chat.export': {
    request: z.object({ id: convId, format: z.enum(['markdown', 'json']) }).strict(),
    response: typed<{ filename: string; mimeType: string; content: string }>(),
  },
  /** Send a message and start a run; its progress arrives as `chat.event`. */
  'chat.send': {
    request: z
      .object({
        conversationId: convId,
        text: z.string().max(200_000),
        attachments: z
          .array(z.object({ serverId, uri: z.string().min(1).max(8192) }).strict())
          .max(20)
          .optional(),
      })
      .strict(),
    response: typed<{ runId: string }>(),
  },
  /** Stop a run: cancels the model stream, pending approvals and in-flight tool calls. */
  'chat.stop': {
    request: z.object({ conversationId: convId }).strict(),
    response: typed<{ stopped: boolean }>(),
  },
  'chat.toolOffer': { request: empty, response: typed<ToolOffer>() },
  'chat.models': { request: z.object({ provider: providerId }).strict(), response: typed<string[]>() },

  'settings.get': { request: empty, response: typed<ChatSettings>() },
  'settings.update': {
    request: chatSettingsPatchSchema,
    response: typed<ChatSettings>(),
  },

  /** Secrets are write-only: set or delete, and ask whether one is set. */
  'secrets.status': { request: empty, response: typed<SecretStatus>() },
  'secrets.set': {
    request: z.object({ name: secretName, value: z.string().min(1).max(10_000) }).strict(),
    response: typed<SecretStatus>(),
  },
  'secrets.delete': { request: z.object({ name: secretName }).strict(), response: typed<SecretStatus>() },
  /** `${secret:NAME}` values of server configs, write-only too: which are referenced and set, never a value. */
  'serverSecrets.list': { request: empty, response: typed<ServerSecretStatus[]>() },
  'serverSecrets.set': {
    request: z
      .object({ name: serverSecretName, value: z.string().min(1).max(MAX_SERVER_SECRET_LENGTH) })
      .strict(),
    response: typed<ServerSecretStatus[]>(),
  },
  'serverSecrets.delete': {
    request: z.object({ name: serverSecretName }).strict(),
    response: typed<ServerSecretStatus[]>(),
  },

  /** Everything waiting on a person, and the answer to one of them. */
  /** A server's standing sampling decision: ask each time, this session, always, never. */
  'sampling.consent.get': {
    request: z.object({ serverId }).strict(),
    response: typed<{ consent: SamplingConsent; skipReplyReview: boolean }>(),
  },
  'sampling.consent.set': {
    request: z
      .object({
        serverId,
        consent: z.enum(['ask', 'session', 'always', 'never']),
        skipReplyReview: z.boolean().optional(),
      })
      .strict(),
    response: typed<{ consent: SamplingConsent; skipReplyReview: boolean }>(),
  },

  'pending.list': { request: empty, response: typed<PendingRequest[]>() },
  /** Either a tool approval's choice, or a full response for sampling and elicitation. */
  'pending.respond': {
    request: z.union([
      z.object({ id: pendingId, choice: approvalChoice }).strict(),
      z.object({ id: pendingId, response: pendingResponse }).strict(),
    ]),
    response: typed<{ settled: boolean }>(),
  },

  /** The folders shared with servers (roots/list); every uri is a file:// URL. */
  'roots.list': { request: empty, response: typed<RootEntry[]>() },
  /** Replace the roots; each `uri` is an absolute path or a file:// URI (the host refuses anything else). */
  'roots.set': {
    request: z
      .object({
        roots: z
          .array(
            z.object({ uri: z.string().min(1).max(4096), name: z.string().max(200).optional() }).strict(),
          )
          .max(100),
      })
      .strict(),
    response: typed<RootEntry[]>(),
  },

  /**
   * Add folders by local path (a drop in the desktop app, the tray, a picked folder, the CLI):
   * each must be an existing directory; the rest are refused with a reason, not added.
   */
  'roots.add': {
    request: z.object({ paths: z.array(z.string().min(1).max(4096)).min(1).max(100) }).strict(),
    response: typed<RootsAddResult>(),
  },
  /** Open the OS folder picker (desktop app only) and add what the person chose. */
  'roots.pick': { request: empty, response: typed<RootsAddResult>() },

  /** Show a conversation in the main window (the quick-ask window's "open in main window"). */
  'app.showConversation': { request: z.object({ conversationId: convId }).strict(), response: typed<null>() },

  /** The audit log, newest first (500 records unless a limit is given). */
  'audit.query': { request: auditQuery, response: typed<AuditRecord[]>() },
  /** The same records as a JSON Lines file, oldest first. */
  'audit.export': {
    request: auditQuery,
    response: typed<{ filename: string; mimeType: string; content: string }>(),
  },
} as const;

export const eventChannels = {
  /** The full server list, sent whenever any server's config or state changes. */
  'servers.changed': typed<ServerSummary[]>(),
  /** The full catalog, sent whenever any server's tools, resources or prompts change. */
  'catalog.changed': typed<CatalogSnapshot>(),
  /** New log lines and trace entries of one server, batched. */
  'server.output': typed<{ id: string; log: LogLine[]; trace: TraceEntry[] }>(),
  'tool.progress': typed<ToolProgress>(),
  /** One step of a chat run. */
  'chat.event': typed<{ conversationId: string; event: ChatEvent }>(),
  /** The conversation list changed (created, renamed, deleted, new messages). */
  'chat.listChanged': typed<ConversationSummary[]>(),
  /** The queue of requests waiting on a person. */
  'pending.changed': typed<PendingRequest[]>(),
  'settings.changed': typed<ChatSettings>(),
  /** The shared folders changed (any window, the CLI's --root, or a file reload); the full list. */
  'roots.changed': typed<RootEntry[]>(),
  /** A window asked for a conversation to be shown in the main window. */
  'app.showConversation': typed<{ conversationId: string }>(),
} as const;

export interface HostInfo {
  version: string;
  mode: 'electron' | 'browser' | 'cli';
  configPath: string;
  /** What the shell around the host can do (the desktop app has an OS folder picker). */
  features: { folderPicker: boolean };
}

/** What `roots.add` and `roots.pick` did: the new list, and each path added or refused. */
export interface RootsAddResult {
  roots: RootEntry[];
  added: string[];
  refused: { path: string; reason: string }[];
}

/** One shared folder as servers see it in roots/list. */
export interface RootEntry {
  uri: string;
  name?: string;
}

export interface ImportResult {
  added: string[];
  skipped: { name: string; reason: string }[];
}

export interface CompletionValues {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

export interface ToolProgress {
  callId: string;
  progress: number;
  total?: number;
  message?: string;
}

export type RequestChannel = keyof typeof requestChannels;
export type EventChannel = keyof typeof eventChannels;
/** What the renderer sends on a channel (before host-side parsing). */
export type RequestOf<C extends RequestChannel> = z.input<(typeof requestChannels)[C]['request']>;
/** What the host handler receives after validation. */
export type ParsedRequestOf<C extends RequestChannel> = z.output<(typeof requestChannels)[C]['request']>;
export type ResponseOf<C extends RequestChannel> = (typeof requestChannels)[C]['response'];
export type EventOf<E extends EventChannel> = (typeof eventChannels)[E];

/** Compile-time check that event-names.ts lists exactly the event channels. */
type SameKeys<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
export const eventNamesMatch: SameKeys<EventChannel, EventName> = true;

/** The one API the renderer has: implemented by the preload and by the WebSocket client. */
export interface HostApi {
  invoke<C extends RequestChannel>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>>;
  on<E extends EventChannel>(event: E, listener: (payload: EventOf<E>) => void): () => void;
  /**
   * The desktop app only: the local path of a File a person dropped (Electron's
   * webUtils.getPathForFile; "" when the File has none). Browser pages never see paths.
   */
  pathForFile?(file: unknown): string;
}

/** True for a string that names a request channel. */
export function isRequestChannel(name: unknown): name is RequestChannel {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(requestChannels, name);
}

/** True for a string that names an event channel. */
export function isEventChannel(name: unknown): name is EventChannel {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(eventChannels, name);
}
