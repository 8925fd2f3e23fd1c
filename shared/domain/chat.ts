import type { CallToolResult, JsonSchema, ToolAnnotations } from './mcp-types.js';
import type { HostError } from '../ipc/host-error.js';
import type { TokenUsage } from './metrics.js';
import type { ToolChange, ToolWarning } from './tool-trust.js';
import type { OfferMode, OfferOverrides, OfferReport } from './tool-selection.js';
import type { FlowHold } from './flows.js';

/** Which model provider a conversation runs on. */
export type ProviderId = 'gemini' | 'openai';

/** One tool call the model asked for, from request to result. */
export interface ToolCallRecord {
  /** Our id (also the provider's function-call id where it has one). */
  id: string;
  serverId: string;
  tool: string;
  /** The name the model saw (qualified, provider-safe). */
  modelName: string;
  args: Record<string, unknown>;
  status: 'awaiting-approval' | 'running' | 'done' | 'error' | 'denied' | 'cancelled';
  result?: CallToolResult;
  error?: HostError;
  progress?: { progress: number; total?: number; message?: string };
  /** How it was allowed: trusted server, allow-list, a person's choice ("view": for an App view's calls). */
  approval?: 'trusted' | 'allow-listed' | 'once' | 'chat' | 'view' | 'always';
  /** When the call itself started: after its approval, so the duration leaves the wait out. */
  startedAt: number;
  endedAt?: number;
  /** How long the call waited for a person's approval before it ran (absent: it did not wait). */
  approvalWaitMs?: number;
  /** Opaque provider state that must go back with the call (Gemini thought signatures). */
  signature?: string;
  /** Injection markers found in the result (hidden text, orders to the model): shown, never blocking. */
  warnings?: ToolWarning[];
  /** Set for the host's own tool search (no server, no approval): the card shows the words and the hits. */
  host?: 'tool-search';
}

/** A resource attached to a user message as context. */
export interface Attachment {
  serverId: string;
  uri: string;
  name: string;
  mimeType?: string;
  /** The text that was sent to the model (or a note that it was binary). */
  text?: string;
}

/** A local file (or image) the person attached to a message; its bytes stay in the host's file store. */
export interface ChatFile {
  /** The SHA-256 of the bytes (hex): the file store's key. */
  id: string;
  name: string;
  mimeType: string;
  /** Bytes. */
  size: number;
}

export type ChatPart =
  | { type: 'text'; text: string }
  | { type: 'thinking'; text: string }
  | { type: 'tool_call'; call: ToolCallRecord }
  | { type: 'attachment'; attachment: Attachment }
  | { type: 'file'; file: ChatFile };

/** Who wrote a user message other than the person at the keyboard: an MCP App view (`ui/message`). */
export interface MessageOrigin {
  kind: 'app';
  serverId: string;
  /** The tool whose view sent it. */
  tool: string;
}

export interface ChatMessage {
  id: string;
  role: 'user' | 'assistant';
  parts: ChatPart[];
  createdAt: number;
  /** Set on a user message an app view sent; absent for the person's own. */
  origin?: MessageOrigin;
  model?: string;
  /** Set when the run that produced this message failed. */
  error?: HostError;
  /** Tokens the provider reported for the model turn(s) behind this message. */
  usage?: TokenUsage;
  /** The transient failures the model turn was retried after, one entry per distinct reason. */
  retries?: RunRetry[];
  /** The tools the model request(s) behind this message declared, and why (the last request's). */
  offer?: OfferReport;
}

/** One reason a model turn was retried, and how often it struck. */
export interface RunRetry {
  message: string;
  count: number;
  lastAt: number;
}

/**
 * A conversation's own tool switches, over the global chat settings: `true` offers a server
 * (or a `server/tool`) the settings turn off, `false` withholds one they offer; absent follows them.
 */
export interface ToolSwitches {
  servers?: Record<string, boolean>;
  tools?: Record<string, boolean>;
}

/** A stored conversation that matched a search, with the words around the first hit. */
export interface ConversationMatch {
  id: string;
  /** Where the text was found. */
  in: 'title' | 'message';
  snippet: string;
}

export interface Conversation {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  messages: ChatMessage[];
  /** Tokens the provider reported, summed over every model turn of this conversation. */
  usage?: TokenUsage;
  /** This conversation's own server/tool switches (absent: the chat settings decide). */
  toolSwitches?: ToolSwitches;
  /** This conversation's own tool budget (absent fields: the chat settings decide). */
  offerSettings?: OfferOverrides;
  /** This conversation's own system prompt and temperature (absent fields: the chat settings decide). */
  modelSettings?: ConversationModelSettings;
  /** Set while a run is answering in this conversation (not stored). */
  activeRunId?: string;
}

/** A conversation's own instructions to the model and sampling temperature, over the chat settings' defaults. */
export interface ConversationModelSettings {
  /** Added to the host's own framing as the person's instructions ("" says: none, whatever the default). */
  systemPrompt?: string;
  /** 0–2; absent follows the chat settings (and they, the provider's default). */
  temperature?: number;
}

export interface ConversationSummary {
  id: string;
  title: string;
  updatedAt: number;
  messageCount: number;
  /** Tokens the provider reported over the whole conversation (absent until a model answered with usage). */
  usage?: TokenUsage;
  /** Set while a run is answering in this conversation. */
  activeRunId?: string;
}

/** Why a run ended. */
export type RunEnd = 'done' | 'stopped' | 'max-turns' | 'error';

/** Everything a running chat tells the UI, in order. */
export type ChatEvent =
  /** A run starts from `userMessage`; if the thread already holds it (retry, edit), it replaces it and drops what followed. */
  | { type: 'run-start'; runId: string; userMessage: ChatMessage }
  | { type: 'message-start'; message: ChatMessage }
  | { type: 'text-delta'; messageId: string; text: string }
  | { type: 'thinking-delta'; messageId: string; text: string }
  | { type: 'tool-call'; messageId: string; call: ToolCallRecord }
  /** The model turn of `messageId` failed transiently and is tried again; `retries` is the full, de-duplicated list. */
  | { type: 'retry'; messageId: string; retries: RunRetry[] }
  | { type: 'notice'; text: string }
  /** What the next model request of `messageId` declares (sent when it differs from the request before). */
  | { type: 'offer'; messageId: string; offer: OfferReport }
  | { type: 'run-end'; runId: string; reason: RunEnd; error?: HostError };

/** A tool call waiting on a person. */
export interface ToolApprovalRequest {
  kind: 'tool-approval';
  id: string;
  /** The ToolCallRecord this approval decides. */
  callId?: string;
  conversationId?: string;
  serverId: string;
  tool: string;
  toolTitle?: string;
  description?: string;
  annotations?: ToolAnnotations;
  inputSchema?: JsonSchema;
  args: Record<string, unknown>;
  /** Why it needs a person (untrusted server, destructive hint, ...). */
  reason: string;
  /** Argument strings naming local paths outside the shared folders, as written: the card warns about them. */
  outsideRoots?: string[];
  /**
   * Set when an app view asked for the call (not the model): the tool whose view it was, the
   * view (its card shows with it) and the tool call whose result it shows, if in a chat.
   */
  fromView?: { tool: string; viewId: string; toolCallId?: string };
  /** The tool is for views only (the model is never offered it): "switch off for the model" means nothing. */
  appOnly?: boolean;
  /**
   * The tool changed since it was pinned (approved or first seen): both versions, for the
   * card's diff. Allowing the call accepts the change.
   */
  change?: ToolChange;
  /** The tool's poisoning and shadowing warnings, so the person reads them before approving. */
  warnings?: ToolWarning[];
  /**
   * Held by the flow guard: untrusted content came into the conversation before this call to a
   * (possible) sink. The card shows the chain, and Deny is its default.
   */
  flow?: FlowHold;
  createdAt: number;
  expiresAt: number;
}

/**
 * The answers a tool approval card may offer (which ones a given card offers: approval-choices.ts).
 * `view`: this App view's calls while it stays open; `switch-off`: deny, and stop offering the
 * tool to the model.
 */
export type ApprovalChoice = 'once' | 'chat' | 'view' | 'always' | 'deny' | 'switch-off';

/** Chat settings a person controls. */
export interface ChatSettings {
  provider: ProviderId;
  geminiModel: string;
  /** The Gemini API endpoint; "" uses Google's. --base-url / MCP_DESK_GEMINI_BASE_URL win over it. */
  geminiBaseUrl: string;
  openaiBaseUrl: string;
  openaiModel: string;
  maxTurns: number;
  /** Servers whose tools are offered to the model (absent = enabled). */
  disabledServers: string[];
  /** `server/tool` pairs not offered to the model. */
  disabledTools: string[];
  /** The first-run checklist in the empty chat was dismissed. */
  checklistDismissed?: boolean;
  /** How tools are declared to the model (absent: "search"). */
  offerMode?: OfferMode;
  /** At most this many tools per model request in search mode (absent: 32). */
  offerMaxTools?: number;
  /** About this many tokens of tool declarations per request in search mode (absent: 8000). */
  offerMaxCost?: number;
  /** `server/tool` pairs always declared in search mode. */
  alwaysOffer?: string[];
  /** Rank with the provider's embeddings too (fused with the lexical rank); off: lexical only. */
  semanticRanking?: boolean;
  /** The embedding model ("" or absent: the provider's default). */
  embeddingModel?: string;
  /** The person's instructions every new chat gives the model (absent or "": none). */
  systemPrompt?: string;
  /** The sampling temperature every chat uses unless it sets its own (absent: the provider's default). */
  temperature?: number;
}

/** Whether secrets are set; the values themselves never leave the host. */
export interface SecretStatus {
  geminiApiKey: boolean;
  openaiApiKey: boolean;
  /** Why the keychain cannot be used, when it cannot. */
  keychainError?: string;
}

/** What the model will be offered in the next turn. */
export interface ToolOffer {
  offered: number;
  limit: number;
  /** A message a person can act on when too many tools are enabled or a schema was dropped. */
  warnings: string[];
  /** The budget that applies (the conversation's over the settings'). */
  budget?: { mode: OfferMode; maxTools: number; maxTokens: number };
  /** Tokens every enabled tool of each server would cost if all were declared. */
  tokensByServer?: Record<string, number>;
  /** The conversation's own budget values (absent: it follows the settings). */
  overrides?: OfferOverrides;
}
